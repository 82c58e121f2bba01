/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Derived metrics, the text after '#' in perf stat's output: "CPUs
 * utilized", "K/sec", "insn per cycle", "of all branches", "GHz" ...
 * Every counter's total feeds a small store keyed by what it measures, its
 * exclude_* context and its aggregation slot (global, a cpu, a thread);
 * each printed line then looks up the totals its metric divides by.
 */
#ifndef EMBER_STAT_METRICS_H
#define EMBER_STAT_METRICS_H

#include <stdbool.h>
#include <linux/perf_event.h>
#include "stat/counts.h"

/* What a counter measures, as far as metrics care. */
enum stat_kind {
	STAT_KIND_OTHER,
	STAT_KIND_CLOCK,		/* task-clock, cpu-clock (ns) */
	STAT_KIND_CYCLES,
	STAT_KIND_INSTRUCTIONS,
	STAT_KIND_BRANCHES,
	STAT_KIND_BRANCH_MISSES,
	STAT_KIND_CACHE_REFS,
	STAT_KIND_CACHE_MISSES,
	STAT_KIND_STALLED_FRONT,
	STAT_KIND_STALLED_BACK,
	STAT_KIND_L1D_LOADS,
	STAT_KIND_L1D_LOAD_MISSES,
	STAT_KIND_L1I_LOADS,
	STAT_KIND_L1I_LOAD_MISSES,
	STAT_KIND_LL_LOADS,
	STAT_KIND_LL_LOAD_MISSES,
	STAT_KIND_DTLB_LOADS,
	STAT_KIND_DTLB_LOAD_MISSES,
	STAT_KIND_ITLB_LOADS,
	STAT_KIND_ITLB_LOAD_MISSES,
};

/* Classify an event by its attr. */
enum stat_kind stat_kind__of(const struct perf_event_attr *attr);
/* The exclude_* bits that must match for two counters to be related (perf's evsel_context). */
int stat_ctx__of(const struct perf_event_attr *attr);

/*
 * One metric: printf format and unit. fmt == NULL prints an empty metric
 * column (unit may still name it for JSON); unit == NULL means "no metric
 * at all". Strings are static or point into the store; valid until the
 * next call.
 */
struct stat_metric {
	const char *fmt;
	const char *unit;
	double val;
	char unit_buf[16];	/* backing store for units like "K/sec" */
};

struct stat_metrics_entry;

/* The totals. Initialise with stat_metrics__init(), free with __exit(). */
struct stat_metrics {
	struct stat_metrics_entry *entries;
	int nr, alloc;
	struct stat_stats walltime;	/* ns: elapsed time, or the interval length with -I */
};

void stat_metrics__init(struct stat_metrics *sh);
void stat_metrics__exit(struct stat_metrics *sh);
/* Forget every total (start of a new interval), keep the memory. */
void stat_metrics__reset(struct stat_metrics *sh);
/*
 * Record one counter total (already scaled for multiplexing, in the
 * event's own unit: ns for clocks). Returns 0 or -ENOMEM.
 */
int stat_metrics__update(struct stat_metrics *sh, enum stat_kind kind, int ctx, int slot,
			 double count);
/* Record the elapsed wall time of one run (or the interval length), ns. */
void stat_metrics__update_walltime(struct stat_metrics *sh, double ns);

/*
 * The metrics of one printed line: `avg` is the counter's value as
 * printed (clocks in msec, i.e. times `scale`). Fills m[0] and, for
 * instructions with stall counts, m[1]. Returns how many (1 or 2).
 */
int stat_metrics__metrics(const struct stat_metrics *sh, enum stat_kind kind, int ctx, int slot,
			  double avg, double scale, struct stat_metric m[2]);

#endif
