/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What ember stat prints: counters to rows for the display, a block per
 * -I interval, and the summary at the end.
 */
#ifndef EMBER_STAT_PRINT_H
#define EMBER_STAT_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <ember/event.h>
#include "stat/counts.h"
#include "stat/display.h"
#include "stat/metrics.h"
#include "stat/options.h"
#include "stat/run.h"
#include "stat/target.h"

/* Every slot of every event into a struct stat_row for the display. */
struct stat_print_ctx {
	const struct stat_config *config;
	struct ember_evlist *evlist;
	const struct stat_metrics *metrics;
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

/*
 * One interval: read the counters, take the deltas since the last
 * interval, and print them stamped with elapsed_ns (the time since
 * counting started); the column header every 25 intervals, as perf.
 */
void stat_print__interval(struct stat_run *r, const struct stat_tool_times *tools,
			  uint64_t elapsed_ns);
/*
 * The summary after the last run: "Performance counter stats for ..."
 * header, every counter's lines (means over the runs), and the footer
 * with elapsed time (+- noise with -r) and the command's user/sys times.
 */
void stat_print__summary(struct stat_run *r);
/*
 * --summary with -I: fold the counters' totals since the start (not the
 * last interval's deltas) into their statistics and the metric totals,
 * over elapsed_ns, for stat_print__summary().
 */
void stat_print__prepare_summary(struct stat_run *r, double elapsed_ns);
/*
 * Flush the display's stream; on the first failure keep its errno in
 * d->write_err (a full disk's ENOSPC) for the exit code. 0 or -errno.
 */
int stat_print__flush(struct stat_display *d);

/*
 * Where the counts go: stderr, -o FILE (after perf's "# started on" line)
 * or --log-fd; sets c->out and *close_out. Returns 0 or 1 (message printed).
 */
int stat_print__open_output(struct stat_config *c, bool *close_out);
/*
 * Close the counts' stream. Counts lost on a full disk (-o FILE, --log-fd)
 * are a failure, said in one line; ret is the exit code so far, returned
 * unless that happened (1 then).
 */
int stat_print__close_output(struct stat_config *c, const struct stat_display *d, bool close_out,
			     int ret);

#endif
