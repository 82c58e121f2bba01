/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Internal view of an event list. */
#ifndef EMBER_LIB_EVLIST_H
#define EMBER_LIB_EVLIST_H

#include <poll.h>
#include <ember/event.h>
#include <ember/mmap.h>
#include "event/evsel.h"

struct ember_evlist {
	struct ember_evsel *first, *last;
	int nr_entries;
	int nr_groups;
	struct ember_cpu_map *cpus;	/* reference held */
	struct ember_thread_map *threads;
	struct ember_evsel *failed;	/* the evsel whose open failed last */

	/* Ring buffers: one per cpu (or per thread for per-thread events). */
	struct ember_mmap **mmaps;
	int nr_mmaps;
	struct pollfd *pollfds;
	int nr_pollfds;
};

/* Unlink and free every evsel. */
void evlist__purge(struct ember_evlist *evlist);
/* The evsel that owns a sample id, or NULL. */
struct ember_evsel *evlist__id2evsel(const struct ember_evlist *evlist, uint64_t id);

#endif
