/* SPDX-License-Identifier: GPL-2.0-only */
/* The events ember stat counts: -e lists, or perf 6.1's default set and its -d additions. */
#ifndef EMBER_STAT_EVENTS_H
#define EMBER_STAT_EVENTS_H

#include <stdbool.h>
#include <ember/event.h>
#include "stat/stat-config.h"

/*
 * Parse every -e spec into the list. On a bad spec prints one line
 * naming the event and the parser's hint, and returns -EINVAL; other
 * failures return -errno after printing why. When nr_after is not NULL,
 * nr_after[i] is the number of events in the list after spec i (-G
 * applies to the events before it).
 */
int stat_events__parse(struct ember_evlist *evlist, const struct stat_config *config,
		       int *nr_after);

/*
 * perf 6.1's default events: task-clock (cpu-clock when system-wide),
 * context-switches, cpu-migrations, page-faults, cycles, the stall
 * counters when the PMU has them, instructions, branches, branch-misses;
 * then the -d/-dd/-ddd cache events. Returns 0 or -ENOMEM.
 */
int stat_events__add_default(struct ember_evlist *evlist, int detailed, bool system_wide);

#endif
