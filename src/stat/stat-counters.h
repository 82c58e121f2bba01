/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Counter values of one event: the raw readings per (cpu, thread), their
 * aggregation into printed slots (the whole event, a cpu, or a thread),
 * multiplex scaling (val * ena / run), interval deltas and the statistics
 * over -r runs. The arithmetic is kernel-free; reading lives in stat-read.c.
 */
#ifndef EMBER_STAT_COUNTERS_H
#define EMBER_STAT_COUNTERS_H

#include <stdbool.h>
#include <ember/event.h>
#include "stat/stat-config.h"
#include "stat/stat-stats.h"

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

#endif
