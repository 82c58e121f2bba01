/* SPDX-License-Identifier: GPL-2.0-only */
/* ember trace -s/-S: the syscalls counted in the kernel, printed as perf trace's summary. */
#ifndef EMBER_SRC_TRACE_SUMMARY_H
#define EMBER_SRC_TRACE_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>
#include <ember/systrace-summary.h>
#include "trace/state.h"

/*
 * The end of a -s/-S run (errno_summary: each failing syscall's errnos, as
 * perf's --errno-summary): sc stopped, its counts read and printed to out,
 * with the page faults of the threads of faults (-F; NULL: none). sc NULL:
 * no syscalls were counted.
 * Returns 0, or 1 after saying why the counts could not be read.
 */
int trace_summary__finish(struct ember_syscount *sc, FILE *out, bool errno_summary,
			  const struct trace_state *faults);
/* perf trace's " Summary of events:" and a table per thread, in its order; faults as above. */
void trace_summary__print(FILE *out, struct ember_syscall_summary *s, bool errno_summary,
			  const struct trace_state *faults);

#endif
