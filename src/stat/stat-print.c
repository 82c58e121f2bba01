// SPDX-License-Identifier: GPL-2.0-only
/* Folding readings into statistics and metric totals, and rows for the display. */
#include <inttypes.h>
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

		if (!pos->supported && !tool)
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

/* Fill the cpu or thread columns of a slot's row. */
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
	default:
		break;
	}
}

static bool print_slot(const struct stat_print_ctx *p, struct ember_evsel *evsel, int slot,
		       const struct timespec *interval)
{
	const struct stat_evsel *se = stat_evsel(evsel);
	const struct stat_slot *s = &se->counter->slots[slot];
	double avg = stat_stats__avg(&s->res[0]);
	double ena = stat_stats__avg(&s->res[1]), run = stat_stats__avg(&s->res[2]);
	struct stat_row row = {
		.interval = interval,
		.unit = se->unit,
		.name = ember_evsel__name(evsel),
		.integral = se->scale == (double)(long long)se->scale,
		.val = avg * se->scale,
		.run = (uint64_t)run,
		.ena = (uint64_t)ena,
	};
	bool not_counted = false;

	slot_identity(p, slot, &row);
	row.noise_pct = stat_stats__rel_stddev(stat_stats__stddev(&s->res[0]), avg);
	if (!evsel->supported && se->tool == EMBER_TOOL_NONE) {
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
	stat_display__row(p->display, &row);
	return not_counted;
}

bool stat_print__counters(const struct stat_print_ctx *p, const struct timespec *interval)
{
	struct ember_evsel *pos;
	bool not_counted = false;

	ember_evlist__for_each(p->evlist, pos) {
		const struct stat_counter *c = stat_evsel(pos)->counter;

		for (int s = 0; s < c->nr_slots; s++)
			not_counted |= print_slot(p, pos, s, interval);
	}
	return not_counted;
}
