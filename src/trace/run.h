/* SPDX-License-Identifier: GPL-2.0-only */
/* ember trace's run: the tracer loaded on the targets, events printed until the end. */
#ifndef EMBER_SRC_TRACE_RUN_H
#define EMBER_SRC_TRACE_RUN_H

#include "trace/options.h"

/* Trace as the options say; prints its own errors. Returns the exit code. */
int trace_run(struct trace_opts *o);

#endif
