/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Counter values: the kernel's readings per (cpu, thread), their
 * aggregation into printed slots, multiplex scaling, interval deltas,
 * and the statistics over -r runs.
 */
#ifndef EMBER_STAT_COUNTS_H
#define EMBER_STAT_COUNTS_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/event.h>
#include "stat/options.h"

/*
 * Running mean and variance (Welford) of a value over -r runs, as perf
 * keeps them: the noise column is the standard error of the mean relative
 * to the mean.
 */

struct stat_stats {
	double n, mean, M2;
};

/* Reset to no samples. */
void stat_stats__init(struct stat_stats *s);
/* Add one sample. */
void stat_stats__update(struct stat_stats *s, double val);
/* The mean, 0 without samples. */
double stat_stats__avg(const struct stat_stats *s);
/* The standard error of the mean (stddev / sqrt(n)), 0 with fewer than 2 samples. */
double stat_stats__stddev(const struct stat_stats *s);
/* 100 * stddev / avg, or 0 when avg is 0: the "( +- x.xx% )" figure. */
double stat_stats__rel_stddev(double stddev, double avg);

/*
 * Counter values of one event: the raw readings per (cpu, thread), their
 * aggregation into printed slots (the whole event, a cpu, or a thread),
 * multiplex scaling (val * ena / run), interval deltas and the statistics
 * over -r runs. The arithmetic is kernel-free.
 */

/* One printed slot's figures. */
struct stat_slot {
	struct ember_counts counts;	/* this reading (a delta with -I), val scaled */
	bool counted;			/* run > 0 in this reading */
	struct stat_stats res[3];	/* val, ena, run over the runs */
	int nr_counted;			/* readings that ran */
};

struct stat_counter {
	int nr_cpus, nr_threads;
	struct ember_counts *raw;	/* [cpu * nr_threads + thread]: the latest reading */
	struct ember_counts *prev;	/* the reading the last interval ended at */
	int nr_slots;
	struct stat_slot *slots;
	const int *cpu_slot;		/* topology modes: [cpu index] -> slot, borrowed */
};

/* How many slots an event with these maps prints in an aggregation mode. */
int stat_counter__nr_slots(enum stat_aggr_mode mode, int nr_cpus, int nr_threads);

/* A zeroed counter for nr_cpus x nr_threads readings. NULL on ENOMEM; free with __delete. */
struct stat_counter *stat_counter__new(enum stat_aggr_mode mode, int nr_cpus, int nr_threads);
/*
 * A counter whose readings fold by cpu into nr_slots slots through
 * cpu_slot[cpu index] (--per-socket and the like); cpu_slot is borrowed
 * and must outlive the counter. NULL on ENOMEM.
 */
struct stat_counter *stat_counter__new_grouped(int nr_slots, const int *cpu_slot, int nr_cpus,
					       int nr_threads);
void stat_counter__delete(struct stat_counter *c);

/* Zero the raw and previous readings (a new run re-opens the event). */
void stat_counter__reset_raw(struct stat_counter *c);
/* Forget the statistics over runs (every interval starts afresh). */
void stat_counter__reset_stats(struct stat_counter *c);

/*
 * Fold the raw readings into slots: sum val/ena/run per slot (deltas
 * since the previous call when `delta`), then scale a slot that ran part
 * of the time by ena/run (when `scale`). A slot that never ran reads 0
 * and is not counted. With `delta` the raw readings become the previous.
 */
void stat_counter__aggregate(struct stat_counter *c, enum stat_aggr_mode mode, bool delta,
			     bool scale);
/* Add every slot's counts to its statistics (one sample per run or interval). */
void stat_counter__update_stats(struct stat_counter *c);

/* Reading ember stat's counters from the kernel (and the tool's own clocks). */

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
int stat_counts__read(struct ember_evlist *evlist, const struct stat_tool_times *tools);

struct stat_metrics;

/*
 * After a read: aggregate (deltas with -I), add one sample to each slot's
 * statistics and record the totals metrics divide by. With verbose > 0
 * prints perf's "name: val ena run" line per event on `out`.
 */
int stat_counts__process(struct ember_evlist *evlist, const struct stat_config *config,
			 struct stat_metrics *sh, bool delta, FILE *out);

#endif
