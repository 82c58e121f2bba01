/* SPDX-License-Identifier: GPL-2.0-only */
/* ember trace's lines, in perf trace's layout. */
#ifndef EMBER_SRC_TRACE_PRINT_H
#define EMBER_SRC_TRACE_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <ember/systrace.h>

/* What the printer keeps between events. */
struct trace_printer {
	FILE *out;
	uint64_t base_time;		/* the first event's time: timestamps are relative to it */
	bool have_base;
};

void trace_printer__init(struct trace_printer *p, FILE *out);
/* An ember_systrace_fn: one line per finished syscall. */
int trace_printer__event(void *ctx, const struct ember_syscall_rec *enter,
			 const struct ember_syscall_rec *exit);

#endif
