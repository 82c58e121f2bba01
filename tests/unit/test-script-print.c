// SPDX-License-Identifier: GPL-2.0-only
/* perf script's line layout, on hand-made samples (expected text copied from perf 6.1 output). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "test.h"
#include "script/filter.h"
#include "script/outbuf.h"
#include "script/print.h"

TEST(script_outbuf_numbers)
{
	struct outbuf ob;

	outbuf__init(&ob, NULL);
	outbuf__u64(&ob, 250000, 10);
	outbuf__putc(&ob, '|');
	outbuf__s64(&ob, 42, 5, true);
	outbuf__putc(&ob, '|');
	outbuf__s64(&ob, -1, 5, false);
	outbuf__putc(&ob, '|');
	outbuf__hex(&ob, 0x1469e, 16);
	outbuf__putc(&ob, '|');
	outbuf__hex(&ob, 0xffffffff813600e2ULL, 16);
	outbuf__putc(&ob, '|');
	outbuf__u64_zero(&ob, 7, 6);
	outbuf__putc(&ob, '|');
	outbuf__hex_alt(&ob, 0);
	outbuf__hex_alt(&ob, 255);
	outbuf__printf(&ob, "|%s", "x");
	CHECK_STR(outbuf__str(&ob), "    250000|42   |   -1|           1469e|ffffffff813600e2|"
				    "000007|00xff|x");
	outbuf__exit(&ob);
}

TEST(script_time_format)
{
	struct outbuf ob;

	outbuf__init(&ob, NULL);
	script_print__time(&ob, 7799326229123ULL, false);
	outbuf__putc(&ob, ' ');
	script_print__time(&ob, 7799326229123ULL, true);
	outbuf__putc(&ob, ' ');
	script_print__time(&ob, 5000, false);
	CHECK_STR(outbuf__str(&ob), "7799.326229 7799.326229123 0.000005");
	outbuf__exit(&ob);
}

/* A resolved location without a real machine: the printer reads only these fields. */
static struct ember_addr_location loc(uint64_t ip, uint64_t addr, const char *sym, uint64_t off,
				      const char *dso, uint8_t cpumode)
{
	struct ember_addr_location al = {
		.ip = ip,
		.addr = addr,
		.sym_name = sym,
		.sym_off = off,
		.dso_name = dso,
		.cpumode = cpumode,
		.comm = "hotloop",
	};

	/* any non-NULL map: the printer only tests it */
	al.map = dso ? (struct ember_map *)&al : NULL;
	return al;
}

static struct script_fields defaults(void)
{
	struct script_fields f;

	script_fields__init(&f);
	f.t[SCRIPT_OT_SW].fields &= ~SF_CPU;	/* as the check leaves it without PERF_SAMPLE_CPU */
	return f;
}

TEST(script_print_single_line)
{
	struct script_fields f = defaults();
	struct script_printer p = { .fields = &f, .name_width = 13 };
	struct ember_sample s = { .pid = 22592, .tid = 22592, .time = 7800563810123ULL,
				  .ip = 0x7f6dc3fdfc2a };
	struct ember_addr_location al =
		loc(0x7f6dc3fdfc2a, 0x1ec2a, "init_cpu_features.constprop.0", 0x59a,
		    "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", PERF_RECORD_MISC_USER);
	struct script_sample ss = {
		.attr_type = PERF_TYPE_SOFTWARE,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.evname = "cpu-clock:ppp",
		.s = &s,
		.comm = "hotloop",
		.al = &al,
		.period = 250000,
	};
	struct outbuf ob;

	outbuf__init(&ob, NULL);
	script_print__sample(&p, &ob, &ss);
	CHECK_STR(outbuf__str(&ob),
		  "         hotloop 22592  7800.563810:     250000 cpu-clock:ppp:      7f6dc3fdfc2a "
		  "init_cpu_features.constprop.0+0x59a "
		  "(/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)\n");
	outbuf__exit(&ob);

	/* unresolved, with cpu, --ns, pid/tid, -L */
	outbuf__init(&ob, NULL);
	al = loc(0xffffffff816b1e64, 0xffffffff816b1e64, NULL, 0, NULL, PERF_RECORD_MISC_KERNEL);
	f.t[SCRIPT_OT_SW].fields |= SF_CPU | SF_PID;
	s.cpu = 1;
	s.ip = al.ip;
	p.nanosecs = true;
	script_print__sample(&p, &ob, &ss);
	CHECK_STR(outbuf__str(&ob), "         hotloop 22592/22592 [001]  7800.563810123:     250000 "
				    "cpu-clock:ppp:  ffffffff816b1e64 [unknown] ([unknown])\n");
	outbuf__exit(&ob);
}

TEST(script_print_callchain)
{
	struct script_fields f = defaults();
	struct script_printer p = { .fields = &f, .name_width = 13, .use_callchain = true };
	struct ember_sample s = { .pid = 22517, .tid = 22517, .time = 7799327697000ULL };
	struct ember_addr_location chain[] = {
		loc(0xffffffff813600e2, 0xffffffff813600e2, "handle_softirqs", 0x72,
		    "[kernel.kallsyms]", PERF_RECORD_MISC_KERNEL),
		loc(0x5634fc49f178, 0x1178, "hot_a", 0xc, "/w/hotloop", PERF_RECORD_MISC_USER),
		loc(0, 0, NULL, 0, NULL, PERF_RECORD_MISC_USER),
	};
	struct script_sample ss = {
		.attr_type = PERF_TYPE_SOFTWARE,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CALLCHAIN,
		.evname = "cpu-clock:ppp",
		.s = &s,
		.comm = "hotloop",
		.al = &chain[0],
		.chain = chain,
		.nr_chain = 3,
		.period = 250000,
	};
	struct outbuf ob;

	outbuf__init(&ob, NULL);
	script_print__sample(&p, &ob, &ss);
	CHECK_STR(outbuf__str(&ob),
		  "hotloop 22517  7799.327697:     250000 cpu-clock:ppp: \n"
		  "\tffffffff813600e2 handle_softirqs+0x72 ([kernel.kallsyms])\n"
		  "\t            1178 hot_a+0xc (/w/hotloop)\n"
		  "\t               0 [unknown] ([unknown])\n"
		  "\n");
	outbuf__exit(&ob);

	/* --max-stack 1, and -F without symoff/dso */
	outbuf__init(&ob, NULL);
	p.max_stack = 1;
	f.t[SCRIPT_OT_SW].fields &= ~(SF_SYMOFFSET | SF_DSO | SF_TIME | SF_PERIOD);
	script_print__sample(&p, &ob, &ss);
	CHECK_STR(outbuf__str(&ob), "hotloop 22517 cpu-clock:ppp: \n"
				    "\tffffffff813600e2 handle_softirqs\n\n");
	outbuf__exit(&ob);

	/* --stop-bt */
	outbuf__init(&ob, NULL);
	p.max_stack = 0;
	p.stop_bt = (const char *const[]){ "hot_a", NULL };
	script_print__sample(&p, &ob, &ss);
	CHECK_STR(outbuf__str(&ob), "hotloop 22517 cpu-clock:ppp: \n"
				    "\tffffffff813600e2 handle_softirqs\n"
				    "\t            1178 hot_a\n\n");
	outbuf__exit(&ob);

	/* -G: the one-line layout, comm padded again */
	outbuf__init(&ob, NULL);
	p.use_callchain = false;
	script_print__sample(&p, &ob, &ss);
	CHECK_STR(outbuf__str(&ob),
		  "         hotloop 22517 cpu-clock:ppp:                 0 handle_softirqs\n");
	outbuf__exit(&ob);
}

TEST(script_print_misc_and_flags)
{
	struct script_fields f = defaults();
	struct script_printer p = { .fields = &f, .name_width = 0 };
	struct ember_sample s = { .tid = 7, .misc = PERF_RECORD_MISC_USER };
	struct script_sample ss = { .attr_type = PERF_TYPE_SOFTWARE, .s = &s, .comm = "a" };
	struct outbuf ob;

	f.t[SCRIPT_OT_SW].fields = SF_TID | SF_MISC;
	outbuf__init(&ob, NULL);
	script_print__sample(&p, &ob, &ss);
	s.misc = PERF_RECORD_MISC_HYPERVISOR;	/* perf's bit tests: K, U and H */
	script_print__sample(&p, &ob, &ss);
	f.t[SCRIPT_OT_SW].fields = SF_TID;
	f.print_flags = true;
	script_print__sample(&p, &ob, &ss);
	CHECK_STR(outbuf__str(&ob), "    7 U     \n    7 KUH   \n    7                         \n");
	outbuf__exit(&ob);
}

TEST(script_time_ranges)
{
	struct script_filter f;
	uint64_t ns;

	CHECK_EQ(script_time__parse("7873.99", &ns), 0);
	CHECK_EQ(ns, 7873990000000ULL);
	CHECK_EQ(script_time__parse("12", &ns), 0);
	CHECK_EQ(ns, 12000000000ULL);
	CHECK_EQ(script_time__parse("1.0000000001", &ns), -EINVAL);
	CHECK_EQ(script_time__parse("abc", &ns), -EINVAL);

	memset(&f, 0, sizeof(f));
	CHECK_EQ(script_filter__set_time(&f, "10.5,", 0, 0, false), 0);
	CHECK(script_filter__skip_time(&f, 10000000000ULL));
	CHECK(!script_filter__skip_time(&f, 11000000000ULL));
	script_filter__exit(&f);

	CHECK_EQ(script_filter__set_time(&f, "abc", 0, 0, false), -EINVAL);
	CHECK_EQ(script_filter__set_time(&f, "2,1", 0, 0, false), -EINVAL);
	script_filter__exit(&f);

	/* the second 10% slice of [1000, 2000] */
	CHECK_EQ(script_filter__set_time(&f, "10%/2", 1000, 2000, false), 0);
	CHECK_EQ(f.ranges[0].start, 1100);
	CHECK_EQ(f.ranges[0].end, 1199);
	script_filter__exit(&f);
	CHECK_EQ(script_filter__set_time(&f, "0%-10%,90%-100%", 1000, 2000, false), 0);
	CHECK_EQ(f.nr_ranges, 2);
	CHECK(!script_filter__skip_time(&f, 1050));
	CHECK(script_filter__skip_time(&f, 1500));
	CHECK(!script_filter__skip_time(&f, 2000));
	script_filter__exit(&f);
}

TEST(script_filters)
{
	struct script_filter f;
	struct ember_addr_location al = { .comm = "hotloop", .sym_name = "hot_a", .ip = 0x1178,
					  .sym_off = 0xc, .dso_short_name = "hotloop",
					  .dso_name = "/w/hotloop" };

	CHECK_EQ(script_filter__init(&f, "sleep,hotloop", NULL, NULL, "/w/hotloop", "0x116c", stderr),
		 0);
	CHECK(!script_filter__skip_sample(&f, &al));
	al.comm = "other";
	CHECK(script_filter__skip_sample(&f, &al));
	script_filter__exit(&f);

	CHECK_EQ(script_filter__init(&f, NULL, NULL, NULL, NULL, NULL, stderr), 0);
	CHECK_EQ(script_filter__set_cpus(&f, "0,2-3", 4, stderr), 0);
	CHECK(!script_filter__skip_cpu(&f, 0));
	CHECK(script_filter__skip_cpu(&f, 1));
	CHECK(!script_filter__skip_cpu(&f, 3));
	CHECK(!script_filter__skip_cpu(&f, (uint32_t)-1));
	script_filter__exit(&f);
	{
		FILE *null = fopen("/dev/null", "w");

		CHECK_EQ(script_filter__set_cpus(&f, "5", 2, null), -EINVAL);
		fclose(null);
	}
	script_filter__exit(&f);
}
