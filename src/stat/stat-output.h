/* SPDX-License-Identifier: GPL-2.0-only */
/* The two things ember stat prints: a block per -I interval, and the summary at the end. */
#ifndef EMBER_STAT_OUTPUT_H
#define EMBER_STAT_OUTPUT_H

#include <stdint.h>
#include "stat/stat-read.h"
#include "stat/stat-run.h"

/*
 * One interval: read the counters, take the deltas since the last
 * interval, and print them stamped with elapsed_ns (the time since
 * counting started); the column header every 25 intervals, as perf.
 */
void stat_output__interval(struct stat_run *r, const struct stat_tool_times *tools,
			   uint64_t elapsed_ns);
/*
 * The summary after the last run: "Performance counter stats for ..."
 * header, every counter's lines (means over the runs), and the footer
 * with elapsed time (+- noise with -r) and the command's user/sys times.
 */
void stat_output__summary(struct stat_run *r);
/*
 * --summary with -I: fold the counters' totals since the start (not the
 * last interval's deltas) into their statistics and the metric totals,
 * over elapsed_ns, for stat_output__summary().
 */
void stat_output__prepare_summary(struct stat_run *r, double elapsed_ns);
/*
 * Flush the display's stream; on the first failure keep its errno in
 * d->write_err (a full disk's ENOSPC) for the exit code. 0 or -errno.
 */
int stat_output__flush(struct stat_display *d);

#endif
