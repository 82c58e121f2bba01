/* SPDX-License-Identifier: GPL-2.0-only */
/* A page fault's sample as perf trace describes it, live (-F) or from a file (-i). */
#ifndef EMBER_SRC_TRACE_FAULT_TEXT_H
#define EMBER_SRC_TRACE_FAULT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <ember/machine.h>
#include <ember/perf-data.h>
#include "trace/perf-events.h"

/*
 * Fault sample s (major or minor) described on machine m, its maps as of
 * the sample: f filled, its "majfault [ip's place] => address's place (d.)"
 * in text (size bytes), and, when chain is given and s has a callchain,
 * a line per frame in chain (chain_size bytes). f points into both.
 * Returns 0 or -ENOMEM.
 */
int trace_fault__describe(struct ember_machine *m, const struct ember_sample *s, bool major,
			  char *text, size_t size, char *chain, size_t chain_size,
			  struct trace_fault *f);

#endif
