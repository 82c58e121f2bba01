// SPDX-License-Identifier: GPL-2.0-only
/* Counter values: reading them, folding them into slots, statistics. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stat/counts.h"
#include "stat/events.h"
#include "stat/metrics.h"

/* Welford's running mean and variance, for the -r noise column. */

void stat_stats__init(struct stat_stats *s)
{
	s->n = s->mean = s->M2 = 0.0;
}

void stat_stats__update(struct stat_stats *s, double val)
{
	double delta;

	s->n++;
	delta = val - s->mean;
	s->mean += delta / s->n;
	s->M2 += delta * (val - s->mean);
}

double stat_stats__avg(const struct stat_stats *s)
{
	return s->mean;
}

double stat_stats__stddev(const struct stat_stats *s)
{
	double variance;

	if (s->n < 2)
		return 0.0;
	variance = s->M2 / (s->n - 1);
	/* perf prints the error of the mean, not the spread of the samples. */
	return sqrt(variance / s->n);
}

double stat_stats__rel_stddev(double stddev, double avg)
{
	return avg ? 100.0 * stddev / avg : 0.0;
}

/* Aggregation, multiplex scaling, interval deltas and run statistics of counter readings. */

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

/* Counter reads: every (cpu, thread) fd into the raw readings of its stat_counter. */

/* Tool events read as perf's do: enabled = running = value, so 0 is <not counted>. */
static void read_tool(struct stat_counter *c, enum ember_tool_event tool,
		      const struct stat_tool_times *t)
{
	uint64_t val = 0;

	switch (tool) {
	case EMBER_TOOL_DURATION_TIME:
		val = t->duration_ns;
		break;
	case EMBER_TOOL_USER_TIME:
		val = t->user_ns;
		break;
	case EMBER_TOOL_SYSTEM_TIME:
		val = t->system_ns;
		break;
	default:
		break;
	}
	c->raw[0].val = c->raw[0].ena = c->raw[0].run = val;
}

int stat_counts__read(struct ember_evlist *evlist, const struct stat_tool_times *tools)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos) {
		struct stat_evsel *se = stat_evsel(pos);
		struct stat_counter *c = se->counter;
		int nr_cpus = ember_evsel__nr_cpus(pos), nr_threads = ember_evsel__nr_threads(pos);

		if (se->tool != EMBER_TOOL_NONE) {
			read_tool(c, se->tool, tools);
			continue;
		}
		for (int cpu = 0; cpu < c->nr_cpus && cpu < nr_cpus; cpu++) {
			for (int t = 0; t < c->nr_threads && t < nr_threads; t++) {
				struct ember_counts *raw = &c->raw[cpu * c->nr_threads + t];

				if (ember_evsel__read(pos, cpu, t, raw))
					*raw = (struct ember_counts){ 0 };
			}
		}
	}
	return 0;
}

int stat_counts__process(struct ember_evlist *evlist, const struct stat_config *config,
			 struct stat_metrics *sh, bool delta, FILE *out)
{
	struct ember_evsel *pos;
	int err = 0;

	ember_evlist__for_each(evlist, pos) {
		struct stat_evsel *se = stat_evsel(pos);
		struct stat_counter *c = se->counter;
		bool tool = se->tool != EMBER_TOOL_NONE;
		enum stat_aggr_mode mode = tool ? STAT_AGGR_GLOBAL : config->aggr_mode;

		if (!se->supported && !tool)
			continue;
		stat_counter__aggregate(c, mode, delta && !tool, config->scale);
		stat_counter__update_stats(c);
		for (int s = 0; s < c->nr_slots && !err; s++)
			err = stat_metrics__update(sh, se->kind, se->ctx, s,
						   (double)c->slots[s].counts.val);
		if (config->verbose > 0 && out) {
			for (int s = 0; s < c->nr_slots; s++) {
				const struct ember_counts *v = &c->slots[s].counts;

				if (mode == STAT_AGGR_GLOBAL)
					fprintf(out, "%s: %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
						ember_evsel__name(pos), v->val, v->ena, v->run);
				else
					fprintf(out, "%s: %d: %" PRIu64 " %" PRIu64 " %" PRIu64
						"\n", ember_evsel__name(pos), s, v->val, v->ena,
						v->run);
			}
		}
	}
	return err;
}
