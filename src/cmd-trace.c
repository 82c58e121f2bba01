// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember trace: strace-like lines for each syscall of a command, processes,
 * threads, cpus or users, in perf trace's layout, from a BPF program on the
 * syscall tracepoints (lib/systrace). This file reads the options;
 * src/trace/ runs and prints.
 */
#include <stdarg.h>
#include <stdio.h>
#include <ember/common.h>
#include "builtin.h"
#include "trace/options.h"
#include "trace/record.h"
#include "trace/replay.h"
#include "trace/run.h"

/* -v: every diagnostic of the library (libbpf's and the verifier's among them). */
static int print_all(enum ember_log_level level, void *ctx, const char *fmt, va_list ap)
{
	return vfprintf(stderr, fmt, ap);
}

int cmd_trace(int argc, const char **argv)
{
	struct trace_opts o;
	struct ember_log old_log = { 0 };
	int ret = trace_opts__parse(&o, argc, argv);

	if (ret < 0) {
		if (o.verbose)
			old_log = ember_set_log(print_all, NULL);
		ret = o.record ? trace_record(o.argc - 1, o.argv + 1) :
		      o.input  ? trace_replay(&o) :
				 trace_run(&o);
		if (o.verbose)
			ember_set_log(old_log.fn, old_log.ctx);
	}
	trace_opts__exit(&o);
	return ret;
}
