/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading ember stat's counters from the kernel (and the tool's own clocks). */
#ifndef EMBER_STAT_READ_H
#define EMBER_STAT_READ_H

#include <stdint.h>
#include <ember/event.h>

/* The tool events' values at the time of a read, ns. */
struct stat_tool_times {
	uint64_t duration_ns;
	uint64_t user_ns, system_ns;
};

/*
 * Read every open counter into its stat_counter's raw readings (a
 * position whose read fails reads as zero), and fill tool events from
 * `tools`. Returns 0; verbose > 0 prints "name: val ena run" per event
 * as perf -v does.
 */
int stat_read__counters(struct ember_evlist *evlist, const struct stat_tool_times *tools);

#endif
