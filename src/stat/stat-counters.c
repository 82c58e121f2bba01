// SPDX-License-Identifier: GPL-2.0-only
/* Aggregation, multiplex scaling, interval deltas and run statistics of counter readings. */
#include <stdlib.h>
#include <string.h>
#include "stat/stat-counters.h"

int stat_counter__nr_slots(enum stat_aggr_mode mode, int nr_cpus, int nr_threads)
{
	switch (mode) {
	case STAT_AGGR_NONE:
		return nr_cpus;
	case STAT_AGGR_THREAD:
		return nr_threads;
	default:
		return 1;
	}
}

static struct stat_counter *counter_new(int nr_slots, int nr_cpus, int nr_threads)
{
	struct stat_counter *c = calloc(1, sizeof(*c));
	size_t n = (size_t)nr_cpus * nr_threads;

	if (!c)
		return NULL;
	c->nr_cpus = nr_cpus;
	c->nr_threads = nr_threads;
	c->nr_slots = nr_slots;
	c->raw = calloc(n ? n : 1, sizeof(*c->raw));
	c->prev = calloc(n ? n : 1, sizeof(*c->prev));
	c->slots = calloc(c->nr_slots ? c->nr_slots : 1, sizeof(*c->slots));
	if (!c->raw || !c->prev || !c->slots) {
		stat_counter__delete(c);
		return NULL;
	}
	stat_counter__reset_stats(c);
	return c;
}

struct stat_counter *stat_counter__new(enum stat_aggr_mode mode, int nr_cpus, int nr_threads)
{
	return counter_new(stat_counter__nr_slots(mode, nr_cpus, nr_threads), nr_cpus,
			   nr_threads);
}

struct stat_counter *stat_counter__new_grouped(int nr_slots, const int *cpu_slot, int nr_cpus,
					       int nr_threads)
{
	struct stat_counter *c = counter_new(nr_slots, nr_cpus, nr_threads);

	if (c)
		c->cpu_slot = cpu_slot;
	return c;
}

void stat_counter__delete(struct stat_counter *c)
{
	if (!c)
		return;
	free(c->raw);
	free(c->prev);
	free(c->slots);
	free(c);
}

void stat_counter__reset_raw(struct stat_counter *c)
{
	size_t n = (size_t)c->nr_cpus * c->nr_threads;

	memset(c->raw, 0, n * sizeof(*c->raw));
	memset(c->prev, 0, n * sizeof(*c->prev));
}

void stat_counter__reset_stats(struct stat_counter *c)
{
	for (int s = 0; s < c->nr_slots; s++) {
		for (int i = 0; i < 3; i++)
			stat_stats__init(&c->slots[s].res[i]);
		c->slots[s].nr_counted = 0;
	}
}

static int slot_of(const struct stat_counter *c, enum stat_aggr_mode mode, int cpu, int thread)
{
	if (c->cpu_slot)
		return c->cpu_slot[cpu];
	switch (mode) {
	case STAT_AGGR_NONE:
		return cpu;
	case STAT_AGGR_THREAD:
		return thread;
	default:
		return 0;
	}
}

/* Counters only grow; a smaller reading (a reopened event) counts from zero. */
static uint64_t delta_of(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

void stat_counter__aggregate(struct stat_counter *c, enum stat_aggr_mode mode, bool delta,
			     bool scale)
{
	for (int s = 0; s < c->nr_slots; s++) {
		memset(&c->slots[s].counts, 0, sizeof(c->slots[s].counts));
		c->slots[s].counted = true;
	}

	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		for (int t = 0; t < c->nr_threads; t++) {
			int i = cpu * c->nr_threads + t;
			struct stat_slot *slot = &c->slots[slot_of(c, mode, cpu, t)];
			struct ember_counts *sum = &slot->counts, d = c->raw[i];
			const struct ember_counts *prev = &c->prev[i];

			if (delta) {
				d.val = delta_of(d.val, prev->val);
				d.ena = delta_of(d.ena, prev->ena);
				d.run = delta_of(d.run, prev->run);
				c->prev[i] = c->raw[i];
			}
			sum->val += d.val;
			sum->ena += d.ena;
			sum->run += d.run;
			/*
			 * perf 6.1's topology slots (--per-socket ...) count only
			 * when every cpu in them ran: a cgroup's counter idle on
			 * one core leaves its whole socket <not counted>.
			 */
			if (c->cpu_slot && (!d.ena || !d.run))
				slot->counted = false;
		}
	}

	for (int s = 0; s < c->nr_slots; s++) {
		struct stat_slot *slot = &c->slots[s];
		struct ember_counts *sum = &slot->counts;

		if (!slot->counted)
			sum->ena = sum->run = 0;
		slot->counted = sum->run > 0;
		if (!scale)
			continue;
		if (!sum->run)
			sum->val = 0;
		else if (sum->run < sum->ena)
			sum->val = (uint64_t)((double)sum->val * sum->ena / sum->run);
	}
}

void stat_counter__update_stats(struct stat_counter *c)
{
	for (int s = 0; s < c->nr_slots; s++) {
		struct stat_slot *slot = &c->slots[s];

		stat_stats__update(&slot->res[0], (double)slot->counts.val);
		stat_stats__update(&slot->res[1], (double)slot->counts.ena);
		stat_stats__update(&slot->res[2], (double)slot->counts.run);
		if (slot->counted)
			slot->nr_counted++;
	}
}
