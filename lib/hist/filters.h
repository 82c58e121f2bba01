/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* perf report's filters, as the feed applies them to each sample. */
#ifndef EMBER_HIST_FILTERS_H
#define EMBER_HIST_FILTERS_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/hist.h>
#include <ember/perf-data.h>

struct str_set;

struct ember_hist_filters {
	struct str_set *comms, *dsos, *syms;
	int32_t *pids, *tids;
	size_t nr_pids, nr_tids;
	uint64_t *cpus;		/* bitmap, NULL: all */
	uint32_t max_cpu;
};

/* EMBER_HIST_FILTER_* bits for a sample resolved to al; f may be NULL (none). */
uint8_t hist_filters__mask(const struct ember_hist_filters *f,
			   const struct ember_addr_location *al);
/* True when the sample's cpu is outside the cpu list (perf drops such samples). */
bool hist_filters__skip_cpu(const struct ember_hist_filters *f, const struct ember_sample *s,
			    uint64_t sample_type);
/* True when a filter looks at the sample's dso or symbol. */
bool hist_filters__by_symbol(const struct ember_hist_filters *f);

#endif
