/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What ember stat keeps per event (its ember_evsel__priv()): how its value is
 * printed (unit, scale), what it means for metrics, whether the tool
 * itself counts it (duration_time, user_time, system_time), and its
 * counter values.
 */
#ifndef EMBER_STAT_EVSEL_H
#define EMBER_STAT_EVSEL_H

#include <stdbool.h>
#include <ember/event.h>
#include "stat/stat-aggr.h"
#include "stat/stat-counters.h"
#include "stat/stat-shadow.h"

struct stat_evsel {
	const char *unit;		/* "msec", "ns" or "" */
	double scale;			/* printed value = count * scale */
	enum stat_kind kind;
	int ctx;
	enum ember_tool_event tool;
	struct stat_counter *counter;	/* NULL until stat_evsel__setup_counters() */
	const char *cgroup;		/* -G/--for-each-cgroup: its cgroup's name, else NULL */
	bool supported;			/* false: the machine lacks it, "<not supported>" */
};

static inline struct stat_evsel *stat_evsel(const struct ember_evsel *evsel)
{
	return ember_evsel__priv(evsel);
}

/*
 * Give every evsel of the list its stat_evsel (unit, scale, kind, tool).
 * Returns 0 or -ENOMEM. Free with stat_evsel__exit_all().
 */
int stat_evsel__init_all(struct ember_evlist *evlist);
/* Refresh kind and context after an attr changed (a :u fallback). */
void stat_evsel__refresh(struct ember_evsel *evsel);
/*
 * (Re)create every evsel's counter for nr_cpus x nr_threads readings in
 * this aggregation mode. Returns 0 or -ENOMEM.
 */
int stat_evsel__setup_counters(struct ember_evlist *evlist, enum stat_aggr_mode mode,
			       int nr_cpus, int nr_threads, const struct stat_aggr_map *aggr);
/* Free what stat_evsel__init_all() and __setup_counters() allocated. */
void stat_evsel__exit_all(struct ember_evlist *evlist);
/* The widest unit of the list (at least 4: "msec"), perf's unit column width. */
int stat_evsel__unit_width(const struct ember_evlist *evlist);

#endif
