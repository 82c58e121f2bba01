// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember trace: strace-like lines for each syscall of a command, processes,
 * threads, cpus or users, in perf trace's layout, from a BPF program on the
 * syscall tracepoints (lib/systrace). This file reads the options;
 * src/trace/ runs and prints.
 */
#include "builtin.h"
#include "trace/options.h"
#include "trace/run.h"

int cmd_trace(int argc, const char **argv)
{
	struct trace_opts o;
	int ret = trace_opts__parse(&o, argc, argv);

	if (ret < 0)
		ret = trace_run(&o);
	trace_opts__exit(&o);
	return ret;
}
