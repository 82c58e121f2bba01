/* SPDX-License-Identifier: GPL-2.0-only */
/* ember trace's options, and the run that feeds the printer. */
#ifndef EMBER_SRC_TRACE_RUN_H
#define EMBER_SRC_TRACE_RUN_H

#include <stdbool.h>

struct trace_opts {
	int argc;			/* the command to run, if any */
	const char **argv;
	int verbose;
};

/* Trace as the options say; prints its own errors. Returns the exit code. */
int trace_run(struct trace_opts *o);

#endif
