/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* perf report's trace key: a tracepoint sample's fields as text, one copy per distinct text. */
#ifndef EMBER_HIST_TRACEKEY_H
#define EMBER_HIST_TRACEKEY_H

#include <stddef.h>
#include <ember/trace.h>

struct hist_traces;

/* An empty set; NULL on ENOMEM. */
struct hist_traces *hist_traces__new(void);
/* Frees the set and its strings; NULL is fine. */
void hist_traces__delete(struct hist_traces *tr);

/*
 * The sample's fields as perf report prints them under "Trace output"
 * (tep_print_event's INFO, as perf script): one string per distinct text,
 * owned by tr; NULL on ENOMEM. An event ember cannot print gives "".
 */
const char *hist_traces__get(struct hist_traces *tr, struct ember_trace *t, int cpu,
			     const void *raw, size_t raw_size);

#endif
