// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/probe's tracefs lines: the line perf writes for a probe, what is
 * refused before it could reach tracefs (newlines, a second definition,
 * names past tracefs' limits), the lines tracefs lists parsed back, and
 * perf's group and event names.
 */
#include <errno.h>
#include <string.h>
#include <ember/probe.h>
#include "test.h"

static void uprobe(struct ember_probe_trace *tr, const char *group, const char *event)
{
	memset(tr, 0, sizeof(*tr));
	tr->uprobe = true;
	strcpy(tr->group, group);
	strcpy(tr->event, event);
	tr->target = "/tmp/x/tnodbg";
	tr->offset = 0x1149;
}

TEST(probe_line_format)
{
	struct ember_probe_trace tr;
	char buf[256];

	uprobe(&tr, "myg", "myev");
	tr.nr_args = 3;
	tr.args[0] = (struct ember_probe_trace_arg){ NULL, "%di", "u64" };
	tr.args[1] = (struct ember_probe_trace_arg){ NULL, "+8(%si)", "x32" };
	tr.args[2] = (struct ember_probe_trace_arg){ "foo", "+0(%di)", "string" };
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), NULL), 70);
	CHECK_STR(buf, "p:myg/myev /tmp/x/tnodbg:0x1149 %di:u64 +8(%si):x32 foo=+0(%di):string");

	uprobe(&tr, "probe_tnodbg", "add__return");
	tr.retprobe = true;
	tr.nr_args = 1;
	tr.args[0] = (struct ember_probe_trace_arg){ NULL, "$retval", NULL };
	CHECK(ember_probe_trace__format(&tr, buf, sizeof(buf), NULL) > 0);
	CHECK_STR(buf, "r:probe_tnodbg/add__return /tmp/x/tnodbg:0x1149 $retval");

	/* too small a buffer */
	CHECK_EQ(ember_probe_trace__format(&tr, buf, 10, NULL), -ENAMETOOLONG);
}

TEST(probe_line_refused)
{
	struct ember_probe_trace tr;
	const char *why;
	char buf[256], name[80];

	uprobe(&tr, "g", "e");
	tr.target = "/tmp/a b";
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), &why), -EINVAL);
	CHECK(why && strstr(why, "path"));
	tr.target = "/tmp/a\np:g/e2 /bin/sh:0x0";
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), &why), -EINVAL);
	tr.target = "relative/path";
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), &why), -EINVAL);

	uprobe(&tr, "g", "e\np:g/e2");
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), &why), -EINVAL);
	CHECK(why && strstr(why, "event"));
	uprobe(&tr, "g x", "e");
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), &why), -EINVAL);

	/* 63 characters fit, 64 do not (perf's MAX_EVENT_NAME_LEN) */
	memset(name, 'e', 63);
	name[63] = '\0';
	uprobe(&tr, "g", name);
	CHECK(ember_probe_trace__format(&tr, buf, sizeof(buf), NULL) > 0);
	tr.event[63] = 'e';	/* no NUL left in the array: refused, not read past */
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), NULL), -EINVAL);

	/* arguments: a newline, a second definition, an unknown fetch, a bad type */
	const char *bad[] = {
		"%di\np:g/x /bin/sh:0x0", "%di p:g/x", "x", "", "+8(%si", "+8%si)", "@main",
		"$retval", "$foo", "%", "+(%di)", "+1(+2(+3(+4(+5(+6(+7(+8(+9(%di)))))))))",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uprobe(&tr, "g", "e");
		tr.nr_args = 1;
		tr.args[0] = (struct ember_probe_trace_arg){ NULL, bad[i], NULL };
		if (ember_probe_trace__format(&tr, buf, sizeof(buf), &why) != -EINVAL) {
			fprintf(stderr, "  accepted argument '%s'\n", bad[i]);
			t->failures++;
		}
	}
	const char *good[] = { "%di", "+8(%si)", "-8(%bp)", "+0(+8(%di))", "@0x1000", "@+0x10",
			       "$stack", "$stack3", "$comm", "\\42", "+1(+2(+3(+4(+5(+6(+7(+8(%di))))))))" };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		uprobe(&tr, "g", "e");
		tr.nr_args = 1;
		tr.args[0] = (struct ember_probe_trace_arg){ NULL, good[i], NULL };
		if (ember_probe_trace__format(&tr, buf, sizeof(buf), &why) <= 0) {
			fprintf(stderr, "  refused argument '%s': %s\n", good[i], why);
			t->failures++;
		}
	}
	uprobe(&tr, "g", "e");
	tr.nr_args = 1;
	tr.args[0] = (struct ember_probe_trace_arg){ "a b", "%di", NULL };
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), NULL), -EINVAL);
	tr.args[0] = (struct ember_probe_trace_arg){ NULL, "%di", "u64 x" };
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), NULL), -EINVAL);
	/* kprobes: @symbol and $argN are theirs */
	uprobe(&tr, "g", "e");
	tr.uprobe = false;
	tr.target = "do_sys_openat2";
	tr.offset = 0;
	tr.nr_args = 2;
	tr.args[0] = (struct ember_probe_trace_arg){ NULL, "@jiffies+8", NULL };
	tr.args[1] = (struct ember_probe_trace_arg){ NULL, "+0u(%si)", "string" };
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), NULL), -EINVAL);
	tr.args[1] = (struct ember_probe_trace_arg){ NULL, "+u0(%si)", "string" };
	CHECK(ember_probe_trace__format(&tr, buf, sizeof(buf), NULL) > 0);
	CHECK_STR(buf, "p:g/e do_sys_openat2+0 @jiffies+8 +u0(%si):string");
	tr.target = "tcp_sendmsg.cold";
	CHECK(ember_probe_trace__format(&tr, buf, sizeof(buf), NULL) > 0);
	tr.target = "a b";
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), NULL), -EINVAL);
	tr.target = "f\np:g/x";
	CHECK_EQ(ember_probe_trace__format(&tr, buf, sizeof(buf), NULL), -EINVAL);
}

TEST(probe_line_parse)
{
	struct ember_probe_trace tr;

	CHECK_EQ(ember_probe_trace__parse(&tr,
		"p:myg/myev /tmp/x/t:0x0000000000001149 arg1=%di:u64 arg2=+8(%si):x32 foo=+0(%di):string",
		true), 0);
	CHECK(!tr.retprobe);
	CHECK_STR(tr.group, "myg");
	CHECK_STR(tr.event, "myev");
	CHECK_STR(tr.target, "/tmp/x/t");
	CHECK_EQ(tr.offset, 0x1149);
	CHECK_EQ(tr.nr_args, 3);
	CHECK_STR(tr.args[0].name, "arg1");
	CHECK_STR(tr.args[0].value, "%di");
	CHECK_STR(tr.args[0].type, "u64");
	CHECK_STR(tr.args[2].name, "foo");
	CHECK_STR(tr.args[2].value, "+0(%di)");
	CHECK_STR(tr.args[2].type, "string");
	ember_probe_trace__exit(&tr);

	CHECK_EQ(ember_probe_trace__parse(&tr, "r:probe_t/add__return /t:0x10(0x2000) arg1=$retval",
					  true), 0);
	CHECK(tr.retprobe);
	CHECK_EQ(tr.ref_ctr_offset, 0x2000);
	CHECK(!tr.args[0].type);
	ember_probe_trace__exit(&tr);

	CHECK_EQ(ember_probe_trace__parse(&tr, "r16:kprobes/ev do_sys_open+4", false), 0);
	CHECK_EQ(tr.maxactive, 16);
	CHECK_STR(tr.target, "do_sys_open");
	CHECK_EQ(tr.offset, 4);
	ember_probe_trace__exit(&tr);

	CHECK_EQ(ember_probe_trace__parse(&tr, "", true), -EINVAL);
	CHECK_EQ(ember_probe_trace__parse(&tr, "x:g/e /t:0x0", true), -EINVAL);
	CHECK_EQ(ember_probe_trace__parse(&tr, "p:ge /t:0x0", true), -EINVAL);
	CHECK_EQ(ember_probe_trace__parse(&tr, "p:g/e", true), -EINVAL);
	CHECK_EQ(ember_probe_trace__parse(&tr, "p:g/e /t:0xzz", true), -EINVAL);
	CHECK_EQ(ember_probe_trace__parse(&tr, "p:g/e /t:0x1 =x", true), -EINVAL);
}

static bool taken(const char *name, void *arg)
{
	for (const char *const *n = arg; *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

TEST(probe_names)
{
	const char *names[] = { "add", "add_1", "add__return", "main", NULL };
	char buf[EMBER_PROBE_NAME_MAX];

	CHECK_EQ(ember_probe__exec_group("/tmp/x/tnodbg", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "probe_tnodbg");
	CHECK_EQ(ember_probe__exec_group("/usr/lib/x86_64-linux-gnu/libc.so.6", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "probe_libc");
	CHECK_EQ(ember_probe__exec_group("/bin/my-tool", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "probe_my");
	CHECK_EQ(ember_probe__exec_group("/x/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", buf,
					 sizeof(buf)), -ENAMETOOLONG);

	CHECK_EQ(ember_probe__event_name("take", false, false, taken, names, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "take");
	CHECK_EQ(ember_probe__event_name("add", false, false, taken, names, buf, sizeof(buf)), -EEXIST);
	CHECK_STR(buf, "add");
	CHECK_EQ(ember_probe__event_name("add", false, true, taken, names, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "add_2");
	/* a return probe's suffix goes on the bare name, as perf's does */
	CHECK_EQ(ember_probe__event_name("add", true, true, taken, names, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "add_2");
	CHECK_EQ(ember_probe__event_name("main", true, false, taken, names, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "main__return");
	CHECK_EQ(ember_probe__event_name("foo.isra.0", false, false, taken, names, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "foo");
	CHECK_EQ(ember_probe__event_name("malloc@GLIBC_2.2.5", false, false, taken, names, buf,
					 sizeof(buf)), 0);
	CHECK_STR(buf, "malloc");
	CHECK_EQ(ember_probe__event_name("_Z3fooi.cold", false, false, taken, names, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "_Z3fooi");
	CHECK_EQ(ember_probe__event_name("ns::f", false, false, taken, names, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ(ember_probe__event_name("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", true,
					 false, taken, names, buf, sizeof(buf)), -ENAMETOOLONG);
}
