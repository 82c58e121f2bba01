// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember trace: strace-like lines for each syscall of a command, in perf
 * trace's layout, from a BPF program on the syscall tracepoints
 * (lib/systrace). This file reads the options; src/trace/ runs and prints.
 */
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "trace/run.h"
#include "util/parse-options.h"

static const char *const trace_usage[] = {
	"ember trace [<options>] [<command>]",
	"ember trace [<options>] -- <command> [<options>]",
	NULL,
};

int cmd_trace(int argc, const char **argv)
{
	struct trace_opts o = { 0 };
	const struct option options[] = {
		OPT_INCR('v', "verbose", &o.verbose, "be more verbose"),
		OPT_END()
	};
	int ret;

	argc = parse_options(argc, argv, options, trace_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if ((ret = parse_options_exit_code(argc)) >= 0)
		return ret;
	o.argc = argc;
	o.argv = argv;
	return trace_run(&o);
}
