/* SPDX-License-Identifier: GPL-2.0-only */
/* perf report's trace key: a tracepoint sample's fields as text, one copy per distinct text. */
#ifndef EMBER_REPORT_TRACEKEY_H
#define EMBER_REPORT_TRACEKEY_H

#include <stddef.h>
#include <ember/trace.h>

struct rep_traces;

/* An empty set; NULL on ENOMEM. */
struct rep_traces *rep_traces__new(void);
/* Frees the set and its strings; NULL is fine. */
void rep_traces__delete(struct rep_traces *tr);

/*
 * The sample's fields as perf report prints them under "Trace output"
 * (tep_print_event's INFO, as perf script): one string per distinct text,
 * owned by tr; NULL on ENOMEM. An event ember cannot print gives "".
 */
const char *rep_traces__get(struct rep_traces *tr, struct ember_trace *t, int cpu,
			    const void *raw, size_t raw_size);

#endif
