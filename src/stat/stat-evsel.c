// SPDX-License-Identifier: GPL-2.0-only
/* Per-event stat state: unit, scale, metric kind, tool events and counters. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "stat/stat-evsel.h"

static void classify(struct ember_evsel *evsel, struct stat_evsel *se)
{
	se->kind = stat_kind__of(ember_evsel__attr(evsel));
	se->ctx = stat_ctx__of(ember_evsel__attr(evsel));
	se->tool = ember_tool_event__from_evsel(evsel);
	se->unit = "";
	se->scale = 1.0;
	if (se->tool != EMBER_TOOL_NONE) {
		/* The tool times itself, in ns; such an event is no clock for metrics. */
		se->unit = "ns";
		se->kind = STAT_KIND_OTHER;
	} else if (se->kind == STAT_KIND_CLOCK) {
		se->unit = "msec";
		se->scale = 1e-6;
	}
}

int stat_evsel__init_all(struct ember_evlist *evlist)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos) {
		struct stat_evsel *se = calloc(1, sizeof(*se));

		if (!se)
			return -ENOMEM;
		classify(pos, se);
		se->supported = true;
		ember_evsel__set_priv(pos, se);
	}
	return 0;
}

void stat_evsel__refresh(struct ember_evsel *evsel)
{
	struct stat_evsel *se = stat_evsel(evsel);
	struct stat_counter *counter = se->counter;

	classify(evsel, se);
	se->counter = counter;
}

int stat_evsel__setup_counters(struct ember_evlist *evlist, enum stat_aggr_mode mode,
			       int nr_cpus, int nr_threads, const struct stat_aggr_map *aggr)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos) {
		struct stat_evsel *se = stat_evsel(pos);
		bool tool = se->tool != EMBER_TOOL_NONE;

		stat_counter__delete(se->counter);
		if (!tool && stat_aggr__is_topology(mode)) {
			se->counter = stat_counter__new_grouped(aggr->nr, aggr->cpu_slot, nr_cpus,
								nr_threads);
			if (!se->counter)
				return -ENOMEM;
			continue;
		}
		/* Tool events have one value, whatever the cpus and threads. */
		se->counter = stat_counter__new(tool ? STAT_AGGR_GLOBAL : mode, tool ? 1 : nr_cpus,
						tool ? 1 : nr_threads);
		if (!se->counter)
			return -ENOMEM;
	}
	return 0;
}

void stat_evsel__exit_all(struct ember_evlist *evlist)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos) {
		struct stat_evsel *se = stat_evsel(pos);

		if (!se)
			continue;
		stat_counter__delete(se->counter);
		free(se);
		ember_evsel__set_priv(pos, NULL);
	}
}

int stat_evsel__unit_width(const struct ember_evlist *evlist)
{
	struct ember_evsel *pos;
	int width = 4;

	ember_evlist__for_each(evlist, pos) {
		int len = (int)strlen(stat_evsel(pos)->unit);

		if (len > width)
			width = len;
	}
	return width;
}
