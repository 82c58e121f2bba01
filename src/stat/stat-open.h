/* SPDX-License-Identifier: GPL-2.0-only */
/* Opening ember stat's counters with perf stat's attr settings and fallbacks. */
#ifndef EMBER_STAT_OPEN_H
#define EMBER_STAT_OPEN_H

#include <stdbool.h>
#include <ember/event.h>
#include "stat/stat-config.h"

struct stat_open_opts {
	bool enable_on_exec;	/* a corked command: counting starts at its exec */
	bool inherit;		/* children of the task are counted too */
	bool scale;		/* ask for time enabled/running to scale multiplexed counts */
};

/*
 * Set every evsel's attr for counting and open it on the list's maps.
 * Events the kernel or machine lacks become <not supported>; with
 * perf_event_paranoid > 1 a refused event falls back to user space only
 * (its name gains ":u"), as perf does. Any other failure prints one line
 * naming the event and what to do, closes everything and returns -errno.
 */
int stat_open__counters(struct ember_evlist *evlist, const struct stat_open_opts *opts,
			int verbose);

#endif
