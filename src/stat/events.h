/* SPDX-License-Identifier: GPL-2.0-only */
/* The events ember stat counts and what it keeps per event. */
#ifndef EMBER_STAT_EVENTS_H
#define EMBER_STAT_EVENTS_H

#include <stdbool.h>
#include <ember/event.h>
#include "stat/cgroup.h"
#include "stat/counts.h"
#include "stat/metrics.h"
#include "stat/options.h"
#include "stat/target.h"

/* The events ember stat counts: -e lists, or perf 6.1's default set and its -d additions. */

/*
 * Parse every -e spec into the list. On a bad spec prints one line
 * naming the event and the parser's hint, and returns -EINVAL; other
 * failures return -errno after printing why. When nr_after is not NULL,
 * nr_after[i] is the number of events in the list after spec i (-G
 * applies to the events before it).
 */
int stat_events__parse(struct ember_evlist *evlist, const struct stat_config *config,
		       int *nr_after);

/*
 * perf 6.1's default events: task-clock (cpu-clock when system-wide),
 * context-switches, cpu-migrations, page-faults, cycles, the stall
 * counters when the PMU has them, instructions, branches, branch-misses;
 * then the -d/-dd/-ddd cache events. Returns 0 or -ENOMEM.
 */
int stat_events__add_default(struct ember_evlist *evlist, int detailed, bool system_wide);

/*
 * What ember stat keeps per event (its ember_evsel__priv()): how its value is
 * printed (unit, scale), what it means for metrics, whether the tool
 * itself counts it (duration_time, user_time, system_time), and its
 * counter values.
 */

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

/*
 * The events of the command line into evlist: the -e specs (or perf's
 * default set), each --filter on its tracepoint, -G and --for-each-cgroup
 * (opening cgroups into cg, which must outlive the list), --group,
 * --all-user/--all-kernel; then every evsel's stat state. Sets
 * o->config's unit width and cgroups column. Returns 0 or an exit code
 * (message printed).
 */
int stat_events__setup(struct ember_evlist *evlist, struct stat_opts *o, struct stat_cgroups *cg);

#endif
