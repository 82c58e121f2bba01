// SPDX-License-Identifier: GPL-2.0-only
/* ember trace's options: -e's lists (names, globs, '!', tracepoints), targets, bad input. */
#include <stdlib.h>
#include <sys/syscall.h>
#include "test.h"
#include "trace/options.h"
#include "trace/perf-events.h"

/* Parse a NULL-ended argv (argv[0] "trace"); returns trace_opts__parse's value. */
#define PARSE(o, ...)								\
	trace_opts__parse((o), (int)(sizeof((const char *[]){ "trace", __VA_ARGS__ }) /	\
				     sizeof(const char *)) - 1,			\
			  (const char *[]){ "trace", __VA_ARGS__ })

static bool has(const int *v, int n, int nr)
{
	for (int i = 0; i < n; i++)
		if (v[i] == nr)
			return true;
	return false;
}

TEST(trace_options_syscalls)
{
	struct trace_opts o;
	int *v, n;

	CHECK_EQ(PARSE(&o, "-e", "open*,close", "--", "true", NULL), -1);
	CHECK(o.have_qualifier && !o.negate);
	CHECK_EQ(o.argc, 1);
	v = trace_opts__syscalls(&o, &n);
	CHECK(v && has(v, n, SYS_openat) && has(v, n, SYS_open) && has(v, n, SYS_close));
	CHECK(v && !has(v, n, SYS_read));
	free(v);
	trace_opts__exit(&o);

	/* '!' chooses all but the list */
	CHECK_EQ(PARSE(&o, "--expr", "!read,write", "true", NULL), -1);
	v = trace_opts__syscalls(&o, &n);
	CHECK(v && !has(v, n, SYS_read) && !has(v, n, SYS_write) && has(v, n, SYS_openat));
	free(v);
	trace_opts__exit(&o);

	/* no -e: every syscall (NULL) */
	CHECK_EQ(PARSE(&o, "true", NULL), -1);
	CHECK(trace_opts__syscalls(&o, &n) == NULL && n == 0);
	CHECK(o.syscalls && o.comm);
	trace_opts__exit(&o);
}

TEST(trace_options_tracepoints)
{
	struct trace_opts o;

	/* tracepoints alone trace no syscalls, as perf */
	CHECK_EQ(PARSE(&o, "-e", "sched:sched_process_exec", "true", NULL), -1);
	CHECK_EQ(o.nr_tp_specs, 1);
	CHECK(!o.syscalls);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-e", "sched:sched_switch,getppid", "true", NULL), -1);
	CHECK(o.syscalls && o.nr_tp_specs == 1 && o.nr_syscalls == 1);
	trace_opts__exit(&o);
	/* --no-syscalls needs tracepoints */
	CHECK_EQ(PARSE(&o, "--no-syscalls", "true", NULL), 2);
	trace_opts__exit(&o);
	/* probe events are tracepoints to -e (tracefs says later whether they exist) */
	CHECK_EQ(PARSE(&o, "-e", "probe_x:f", "true", NULL), -1);
	CHECK(o.nr_tp_specs == 1 && !strcmp(o.tp_specs[0], "probe_x:f") && !o.syscalls);
	trace_opts__exit(&o);
}

TEST(trace_options_page_faults)
{
	struct trace_opts o;

	/* -F alone traces the faults only, as perf */
	CHECK_EQ(PARSE(&o, "-F", "all", "true", NULL), -1);
	CHECK(o.pf_kinds == (TRACE_PF_MAJ | TRACE_PF_MIN) && !o.syscalls);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--pf=maj", "true", NULL), -1);
	CHECK(o.pf_kinds == TRACE_PF_MAJ && !o.syscalls);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-Fmin", "true", NULL), -1);
	CHECK(o.pf_kinds == TRACE_PF_MIN);
	trace_opts__exit(&o);
	/* syscalls too when asked for, or named */
	CHECK_EQ(PARSE(&o, "-F", "min", "--syscalls", "true", NULL), -1);
	CHECK(o.syscalls);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-F", "min", "-e", "openat", "true", NULL), -1);
	CHECK(o.syscalls && o.nr_syscalls == 1);
	trace_opts__exit(&o);
	/* faults are something to trace with --no-syscalls */
	CHECK_EQ(PARSE(&o, "--no-syscalls", "-F", "all", "true", NULL), -1);
	CHECK(!o.syscalls && o.pf_kinds);
	trace_opts__exit(&o);
	/* perf's three words only, and one is needed */
	CHECK_EQ(PARSE(&o, "--pf=bogus", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-F", "", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--pf", NULL), 2);
	trace_opts__exit(&o);
}

TEST(trace_options_bad)
{
	struct trace_opts o;

	CHECK_EQ(PARSE(&o, "-e", "opnat", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-e", "", "true", NULL), -1);	/* an empty list: nothing chosen */
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--duration", "abc", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--duration", "-1", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--duration", "0.5", "true", NULL), -1);
	CHECK(o.duration > 0.49 && o.duration < 0.51);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, NULL), -1);			/* no target: the whole system, as perf */
	CHECK(o.all_cpus);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-p", "1", "true", NULL), 2);	/* two targets */
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-a", "-p", "1", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-C", "0", "true", NULL), -1);	/* -C narrows a command */
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-u", "no-such-user-here", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-u", "0", "true", NULL), -1);
	CHECK(o.filter_uid && o.uid == 0);
	trace_opts__exit(&o);
	/* dwarf: perf's default stack copy, its sizes rounded to 8, its bounds */
	CHECK_EQ(PARSE(&o, "--call-graph", "dwarf", "true", NULL), -1);
	CHECK(!o.call_graph && o.dwarf_stack == 8192);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--call-graph", "dwarf,100", "true", NULL), -1);
	CHECK_EQ(o.dwarf_stack, 104);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--call-graph", "dwarf,65528", "true", NULL), -1);
	CHECK_EQ(o.dwarf_stack, 65528);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--call-graph", "dwarf,0", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--call-graph", "dwarf,65529", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--call-graph", "dwarf,abc", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--call-graph", "lbr", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--call-graph", "foo", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--call-graph", "fp", "true", NULL), -1);
	CHECK(o.call_graph && !o.dwarf_stack);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-m", "3", "true", NULL), -1);	/* 3 pages: 4 */
	CHECK_EQ(o.buffer_size, 16384);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-m", "1M", "true", NULL), -1);
	CHECK_EQ(o.buffer_size, 1 << 20);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-m", "0", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "-m", "3X", "true", NULL), 2);
	trace_opts__exit(&o);
	CHECK_EQ(PARSE(&o, "--nosuch", "true", NULL), 2);
	trace_opts__exit(&o);
}
