// SPDX-License-Identifier: GPL-2.0-only
/* Folding readings into statistics and metric totals, and rows for the display. */
#include <inttypes.h>
#include <stdlib.h>
#include "stat/stat-evsel.h"
#include "stat/stat-print.h"

int stat_process__counters(struct ember_evlist *evlist, const struct stat_config *config,
			   struct stat_shadow *sh, bool delta, FILE *out)
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
			err = stat_shadow__update(sh, se->kind, se->ctx, s,
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

/* Fill the cpu, thread or topology columns of a slot's row. */
static void slot_identity(const struct stat_print_ctx *p, int slot, struct stat_row *row)
{
	const struct stat_target *t = p->target;

	switch (p->config->aggr_mode) {
	case STAT_AGGR_NONE:
		row->cpu = ember_cpu_map__cpu(t->cpus, slot);
		break;
	case STAT_AGGR_THREAD:
		row->tid = t->threads ? ember_thread_map__pid(t->threads, slot) : -1;
		row->comm = stat_target__comm(t, slot);
		break;
	case STAT_AGGR_SOCKET:
	case STAT_AGGR_DIE:
	case STAT_AGGR_CORE:
	case STAT_AGGR_NODE:
		if (slot < t->aggr.nr) {
			row->aggr_id = &t->aggr.ids[slot];
			row->aggr_nr = t->aggr.nr_cpus[slot];
		}
		break;
	default:
		break;
	}
}

/*
 * Print the line of `evsel`'s counter slot `slot`, labelled as the
 * aggregation slot `label_slot`. `absent`: the event does not count in
 * that slot at all (a tool event outside its one cpu): "<not counted>"
 * over 0 cpus, as perf prints it.
 */
static bool print_slot(const struct stat_print_ctx *p, struct ember_evsel *evsel, int slot,
		       int label_slot, bool absent, const struct timespec *interval)
{
	const struct stat_evsel *se = stat_evsel(evsel);
	const struct stat_slot *s = &se->counter->slots[slot];
	bool global = p->config->aggr_mode == STAT_AGGR_GLOBAL;
	double avg = stat_stats__avg(&s->res[0]);
	double ena = stat_stats__avg(&s->res[1]), run = stat_stats__avg(&s->res[2]);
	struct stat_row row = {
		.interval = interval,
		.unit = se->unit,
		.name = ember_evsel__name(evsel),
		.cgroup = se->cgroup,
		.integral = se->scale == (double)(long long)se->scale,
	};
	bool not_counted = false;

	/*
	 * perf 6.1 keeps the statistics over -r runs for the global count
	 * only: a line per cpu, thread or topology slot shows the last run,
	 * with no noise.
	 */
	if (!global) {
		avg = (double)s->counts.val;
		ena = (double)s->counts.ena;
		run = (double)s->counts.run;
	} else {
		row.noise_pct = stat_stats__rel_stddev(stat_stats__stddev(&s->res[0]), avg);
	}
	row.val = avg * se->scale;
	row.run = (uint64_t)run;
	row.ena = (uint64_t)ena;
	slot_identity(p, label_slot, &row);
	if (absent) {
		row.aggr_nr = 0;
		row.state = STAT_ROW_NOT_COUNTED;
		row.run = row.ena = 0;
	} else if (!se->supported && se->tool == EMBER_TOOL_NONE) {
		row.state = STAT_ROW_NOT_SUPPORTED;
		row.run = row.ena = 0;
	} else if (!run || !ena) {
		row.state = STAT_ROW_NOT_COUNTED;
		not_counted = true;
	} else {
		row.state = STAT_ROW_COUNTED;
		row.nr_metrics = stat_shadow__metrics(p->shadow, se->kind, se->ctx, slot, row.val,
						      se->scale, row.metrics);
	}
	if (se->tool != EMBER_TOOL_NONE && !global && !absent)
		row.aggr_nr = 1;
	stat_display__row(p->display, &row);
	return not_counted;
}

/* --per-socket and the like: slot by slot, every event in each, as perf orders them. */
static bool print_topology(const struct stat_print_ctx *p, const struct timespec *interval)
{
	const struct stat_aggr_map *aggr = &p->target->aggr;
	struct ember_evsel *pos;
	bool not_counted = false;
	/* A tool event counts once, on the first cpu: its slot shows it. */
	int tool_slot = aggr->nr_map_cpus ? aggr->cpu_slot[0] : 0;

	for (int s = 0; s < aggr->nr; s++) {
		ember_evlist__for_each(p->evlist, pos) {
			const struct stat_counter *c = stat_evsel(pos)->counter;

			if (c->nr_slots == aggr->nr)
				not_counted |= print_slot(p, pos, s, s, false, interval);
			else
				not_counted |= print_slot(p, pos, 0, s, s != tool_slot, interval);
		}
	}
	return not_counted;
}

static int cmp_slot_val(const void *a, const void *b, void *arg)
{
	const struct stat_counter *c = arg;
	int x = *(const int *)a, y = *(const int *)b;
	uint64_t vx = c->slots[x].counts.val, vy = c->slots[y].counts.val;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	return x - y;
}

/*
 * --per-thread: each event's threads by count, the largest first, as perf
 * sorts them; system-wide, threads that counted nothing are left out.
 */
static bool print_threads(const struct stat_print_ctx *p, const struct timespec *interval)
{
	struct ember_evsel *pos;
	bool not_counted = false;

	ember_evlist__for_each(p->evlist, pos) {
		struct stat_counter *c = stat_evsel(pos)->counter;
		int *order = malloc((c->nr_slots ? c->nr_slots : 1) * sizeof(*order));

		if (!order)
			return not_counted;
		for (int s = 0; s < c->nr_slots; s++)
			order[s] = s;
		if (c->nr_slots > 1)
			qsort_r(order, c->nr_slots, sizeof(*order), cmp_slot_val, c);
		for (int i = 0; i < c->nr_slots; i++) {
			if (p->target->all_threads && !c->slots[order[i]].counts.val)
				continue;
			not_counted |= print_slot(p, pos, order[i], order[i], false, interval);
		}
		free(order);
	}
	return not_counted;
}

bool stat_print__counters(const struct stat_print_ctx *p, const struct timespec *interval)
{
	struct ember_evsel *pos;
	bool not_counted = false;

	if (stat_aggr__is_topology(p->config->aggr_mode))
		return print_topology(p, interval);
	if (p->config->aggr_mode == STAT_AGGR_THREAD)
		return print_threads(p, interval);
	ember_evlist__for_each(p->evlist, pos) {
		const struct stat_counter *c = stat_evsel(pos)->counter;

		for (int s = 0; s < c->nr_slots; s++)
			not_counted |= print_slot(p, pos, s, s, false, interval);
	}
	return not_counted;
}

void stat_print__metric_only(const struct stat_print_ctx *p, const struct timespec *interval)
{
	const struct stat_target *t = p->target;
	int nr = 1;

	switch (p->config->aggr_mode) {
	case STAT_AGGR_NONE:
		nr = ember_cpu_map__nr(t->cpus);
		break;
	case STAT_AGGR_THREAD:
		nr = t->threads ? ember_thread_map__nr(t->threads) : 0;
		break;
	case STAT_AGGR_GLOBAL:
		break;
	default:
		nr = t->aggr.nr;
		break;
	}
	for (int s = 0; s < nr; s++) {
		struct stat_row row = { .interval = interval };

		slot_identity(p, s, &row);
		stat_display__metric_only_row(p->display, &row);
	}
}
