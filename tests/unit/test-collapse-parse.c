// SPDX-License-Identifier: GPL-2.0-only
/*
 * The line grammar of stackcollapse-perf.pl: each case is the capture
 * Perl's regular expression gives on that line (checked once against
 * perl 5.36 running the script's expressions).
 */
#include <string.h>
#include "collapse/parse.h"
#include "test.h"

static int span_is(struct span s, const char *want)
{
	if (!want)
		return s.p == NULL;
	return s.p && s.len == strlen(want) && !memcmp(s.p, want, s.len);
}

static void header_is(struct unit_test *t, const char *line, const char *comm, const char *n1,
		      const char *n2)
{
	struct collapse_header h;
	bool ok = collapse_parse_header(line, strlen(line), &h);

	if (!comm) {
		CHECK(!ok);
		return;
	}
	CHECK(ok);
	if (!ok)
		return;
	CHECK(span_is(h.comm, comm));
	CHECK(span_is(h.num1, n1));
	CHECK(span_is(h.num2, n2));
	if (!span_is(h.comm, comm) || !span_is(h.num1, n1) || !span_is(h.num2, n2))
		fprintf(stderr, "  line: '%s' comm '%.*s'\n", line, (int)h.comm.len, h.comm.p);
}

TEST(collapse_parse_header_forms)
{
	header_is(t, "hotloop  6966  7977.920383:     250000 cpu-clock:ppp: ", "hotloop", "6966",
		  NULL);
	header_is(t, "java 24636/25607 [000] 4794564.109216: cycles:", "java", "24636", "25607");
	header_is(t, "V8 WorkerThread 24636/25607 [000] 94564.109216: cycles:", "V8 WorkerThread",
		  "24636", "25607");
	header_is(t, "swapper     0/0     [000] 1.0: 1 cpu-clock:", "swapper", "0", "0");
	header_is(t, "kworker/0:1H-kb 12 [001] 1.0:", "kworker/0:1H-kb", "12", NULL);
	/* the lazy comm stops at the first blank-number-blank */
	header_is(t, "Socket Thread 2 1234/1235 [001] 1.0:", "Socket Thread", "2", NULL);
	header_is(t, "ab 12//34 x", "ab", "12", "34");
	header_is(t, "ab 12/ x", "ab", "12", NULL);
	/* a one-byte comm is not possible: the comm runs on to the next match */
	header_is(t, "a 123 1.0: 1 cpu-clock:", "a 123 1.0:", "1", NULL);
	header_is(t, "ab\t\v12\f", "ab", "12", NULL);
	/* leading blank (perf's padded comm without callchains), no number, no blank after */
	header_is(t, "   perf 123 [000] 1.0:", NULL, NULL, NULL);
	header_is(t, "perf 123", NULL, NULL, NULL);
	header_is(t, "perf 12x3 4", NULL, NULL, NULL);
	header_is(t, "perf 12/x 4 ", "perf 12/x", "4", NULL);
	header_is(t, "", NULL, NULL, NULL);
}

/* Where the match ends: the bytes before it (and it) decide the header (the root memo relies on it). */
static void header_end_is(struct unit_test *t, const char *line, size_t end)
{
	struct collapse_header h;

	CHECK(collapse_parse_header(line, strlen(line), &h));
	CHECK(h.end == end);
	/* the line cut just after the end parses alike */
	CHECK(collapse_parse_header(line, end + 1, &h));
	CHECK(h.end == end);
}

TEST(collapse_parse_header_end)
{
	header_end_is(t, "hotloop  6966  7977.920383:     250000 cpu-clock:ppp: ", 13);
	header_end_is(t, "java 24636/25607 [000] 4794564.109216: cycles:", 16);
	header_end_is(t, "ab 12/ x", 6);
	header_end_is(t, "ab 12//34\tx", 9);
	header_end_is(t, "Socket Thread 2 1234/1235 [001] 1.0:", 15);
}

static void event_is(struct unit_test *t, const char *line, const char *period, const char *name)
{
	struct collapse_event ev;
	bool ok = collapse_parse_event(line, strlen(line), &ev);

	if (!name) {
		CHECK(!ok);
		return;
	}
	CHECK(ok);
	if (!ok)
		return;
	CHECK(span_is(ev.period, period));
	CHECK(span_is(ev.name, name));
}

TEST(collapse_parse_event_forms)
{
	event_is(t, "hotloop  6966  7977.920383:     250000 cpu-clock:ppp: ", "250000",
		 "cpu-clock:ppp");
	event_is(t, "java 1/2 [000] 1.000: cycles:", NULL, "cycles");
	event_is(t, "java 1 1.000:cycles:", NULL, NULL);
	event_is(t, "java 1 1.000:1 cycles:\t ", "1", "cycles");
	event_is(t, "x 1 1.0: 1 sched:sched_switch: prev_comm=a prev_pid=1", NULL, NULL);
	event_is(t, "x 1 1.0: 12x cycles:", NULL, NULL);
	event_is(t, "x 1 1.0: 12x:", NULL, "12x");
	event_is(t, "x 1 1.0: a:", NULL, "a");
	event_is(t, "x 1 1.0: :", NULL, NULL);
	event_is(t, "x 1 1.0:   0 ::", "0", ":");
	event_is(t, "", NULL, NULL);
}

static void frame_is(struct unit_test *t, const char *line, const char *pc, const char *func,
		     const char *mod)
{
	struct collapse_frame f;
	bool ok = collapse_parse_frame(line, strlen(line), &f);

	if (!pc) {
		CHECK(!ok);
		return;
	}
	CHECK(ok);
	if (!ok)
		return;
	CHECK(span_is(f.pc, pc));
	CHECK(span_is(f.func, func));
	CHECK(span_is(f.mod, mod));
	if (!span_is(f.pc, pc) || !span_is(f.func, func) || !span_is(f.mod, mod))
		fprintf(stderr, "  line '%s': '%.*s' '%.*s' '%.*s'\n", line, (int)f.pc.len, f.pc.p,
			(int)f.func.len, f.func.p, (int)f.mod.len, f.mod.p);
}

TEST(collapse_parse_frame_forms)
{
	frame_is(t, "\tffffffff815f52d0 change_pte_range+0x460 ([kernel.kallsyms])",
		 "ffffffff815f52d0", "change_pte_range+0x460", "[kernel.kallsyms]");
	frame_is(t, "\t               0 [unknown] ([unknown])", "0", "[unknown]", "[unknown]");
	/* the last " (" before the last ')' */
	frame_is(t, "  7f a (b) (/lib/x.so)", "7f", "a (b)", "/lib/x.so");
	frame_is(t, "  7f [unknown] (/tmp/foo (deleted))", "7f", "[unknown] (/tmp/foo",
		 "deleted)");
	frame_is(t, "  7f f (x)y", "7f", "f", "x");
	/* no symbol: Perl backtracks into the blanks or the address */
	frame_is(t, "\t    7f1234 (/lib/libc.so.6)", "7f123", "4", "/lib/libc.so.6");
	frame_is(t, "\t    7f1234  (/lib/libc.so.6)", "7f1234", " ", "/lib/libc.so.6");
	frame_is(t, "\t7 (x)", NULL, NULL, NULL);
	frame_is(t, "abc(x) (y)", "abc", "(x)", "y");
	frame_is(t, "  7f main", NULL, NULL, NULL);
	frame_is(t, "  -7f main (x)", NULL, NULL, NULL);
	frame_is(t, "", NULL, NULL, NULL);
}

TEST(collapse_parse_helpers)
{
	const char *s = "foo+0x12+0x34";

	CHECK_EQ(collapse_strip_offset(s, strlen(s)), 8);
	CHECK_EQ(collapse_strip_offset("m+0x0x1", 7), 7);
	CHECK_EQ(collapse_strip_offset("x+0x", 4), 4);
	CHECK_EQ(collapse_strip_offset("x+0xABC", 7), 7);	/* upper case is not stripped */
	CHECK_EQ(collapse_strip_offset("+0x1", 4), 0);
	CHECK(collapse_mod_is_kernel("[kernel.kallsyms]", 17));
	CHECK(collapse_mod_is_kernel("/lib/modules/6.1/build/vmlinux", 30));
	CHECK(!collapse_mod_is_kernel("[unknown]", 9));
	CHECK(!collapse_mod_is_kernel("/usr/lib/libc.so.6", 18));
	CHECK(collapse_mod_is_jit("/tmp/perf-1234.map", 18));
	CHECK(!collapse_mod_is_jit("/tmp/perf-.map", 14));
	CHECK(!collapse_mod_is_jit("/tmp/perf-12x.map", 17));
	CHECK(collapse_mod_no_inline("perf-12xmap", 11));	/* perf-\d+.map: any byte before map */
	CHECK(!collapse_mod_no_inline("/tmp/perf-12x.map", 17));
	CHECK(collapse_mod_no_inline("[vdso]", 6));
	CHECK(collapse_mod_no_inline("a[b]c", 5));
	CHECK(!collapse_mod_no_inline("a[]c", 4));
	CHECK(collapse_mod_no_inline("/x/kernel.ko", 12));
	CHECK(!collapse_mod_no_inline("/usr/lib/libc.so.6", 18));
}
