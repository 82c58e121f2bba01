/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * From readings to printed lines: fold each counter's readings into its
 * slots and statistics and feed the metric totals (process), then turn
 * every slot of every event into a struct stat_row for the display (print).
 */
#ifndef EMBER_STAT_PRINT_H
#define EMBER_STAT_PRINT_H

#include <stdbool.h>
#include <time.h>
#include <ember/event.h>
#include "stat/stat-config.h"
#include "stat/stat-display.h"
#include "stat/stat-shadow.h"
#include "stat/stat-target.h"

/*
 * After a read: aggregate (deltas with -I), add one sample to each slot's
 * statistics and record the totals metrics divide by. With verbose > 0
 * prints perf's "name: val ena run" line per event on `out`.
 */
int stat_process__counters(struct ember_evlist *evlist, const struct stat_config *config,
			   struct stat_shadow *sh, bool delta, FILE *out);

struct stat_print_ctx {
	const struct stat_config *config;
	struct ember_evlist *evlist;
	const struct stat_shadow *shadow;
	const struct stat_display *display;
	const struct stat_target *target;
};

/*
 * Print every event's lines (one per slot) in list order, each prefixed
 * with the interval time when `interval` is set. Returns true when a
 * supported event was not counted (perf's NMI watchdog hint).
 */
bool stat_print__counters(const struct stat_print_ctx *p, const struct timespec *interval);

/* --metric-only: a line per slot (its columns; no software metric shows there in perf 6.1). */
void stat_print__metric_only(const struct stat_print_ctx *p, const struct timespec *interval);

#endif
