// SPDX-License-Identifier: GPL-2.0-only
/* The events ember stat counts, and its state per event. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/event.h>
#include "stat/events.h"
#include "stat/options.h"

/* Event selection for ember stat: -e specs through the library parser, or the default set. */

int stat_events__parse(struct ember_evlist *evlist, const struct stat_config *config,
		       int *nr_after)
{
	for (int i = 0; i < config->nr_event_specs; i++) {
		const char *spec = config->event_specs[i];
		struct ember_parse_error perr = { 0 };
		/* as perf stat: terms that only make sense when sampling are refused */
		struct ember_parse_opts popts = { .sz = sizeof(popts), .counting = true };
		int err = ember_evlist__parse_events_opts(evlist, spec, &perr, &popts);

		if (!err) {
			if (nr_after)
				nr_after[i] = ember_evlist__nr_entries(evlist);
			continue;
		}
		if (err == -EINVAL && perr.msg) {
			fprintf(stderr, "ember stat: invalid event '%s': %s", spec, perr.msg);
			if (perr.str && *perr.str && strcmp(perr.str, spec))
				fprintf(stderr, " at '%s'", perr.str);
			else if (perr.pos > 0 && perr.pos < (int)strlen(spec))
				fprintf(stderr, " at '%s'", spec + perr.pos);
			if (perr.hint && *perr.hint)
				fprintf(stderr, " (%s)", perr.hint);
			fprintf(stderr, "; 'ember list' shows the events\n");
		} else if (err == -EACCES || err == -EPERM) {
			fprintf(stderr, "ember stat: cannot use event '%s': permission denied "
				"reading the tracing directory (/sys/kernel/tracing); run as "
				"root, or as root 'mount -o remount,mode=755 "
				"/sys/kernel/tracing'\n", spec);
		} else {
			fprintf(stderr, "ember stat: cannot use event '%s': %s\n", spec,
				strerror(-err));
		}
		ember_parse_error__exit(&perr);
		return err;
	}
	return 0;
}

#define HW(cfg)		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_##cfg }
#define SW(cfg)		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##cfg }
#define CACHE(c, op, res) \
	{ PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_##c | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
			      (PERF_COUNT_HW_CACHE_RESULT_##res << 16) }

struct default_event {
	const char *name;
	struct {
		unsigned int type;
		unsigned long long config;
	} ev;
};

/* After the clock, in perf 6.1's order. */
static const struct default_event defaults_sw[] = {
	{ "context-switches", SW(CONTEXT_SWITCHES) },
	{ "cpu-migrations", SW(CPU_MIGRATIONS) },
	{ "page-faults", SW(PAGE_FAULTS) },
	{ "cycles", HW(CPU_CYCLES) },
};

static const struct default_event defaults_stalls[] = {
	{ "stalled-cycles-frontend", HW(STALLED_CYCLES_FRONTEND) },
	{ "stalled-cycles-backend", HW(STALLED_CYCLES_BACKEND) },
};

static const struct default_event defaults_hw[] = {
	{ "instructions", HW(INSTRUCTIONS) },
	{ "branches", HW(BRANCH_INSTRUCTIONS) },
	{ "branch-misses", HW(BRANCH_MISSES) },
};

static const struct default_event detailed1[] = {
	{ "L1-dcache-loads", CACHE(L1D, READ, ACCESS) },
	{ "L1-dcache-load-misses", CACHE(L1D, READ, MISS) },
	{ "LLC-loads", CACHE(LL, READ, ACCESS) },
	{ "LLC-load-misses", CACHE(LL, READ, MISS) },
};

static const struct default_event detailed2[] = {
	{ "L1-icache-loads", CACHE(L1I, READ, ACCESS) },
	{ "L1-icache-load-misses", CACHE(L1I, READ, MISS) },
	{ "dTLB-loads", CACHE(DTLB, READ, ACCESS) },
	{ "dTLB-load-misses", CACHE(DTLB, READ, MISS) },
	{ "iTLB-loads", CACHE(ITLB, READ, ACCESS) },
	{ "iTLB-load-misses", CACHE(ITLB, READ, MISS) },
};

static const struct default_event detailed3[] = {
	{ "L1-dcache-prefetches", CACHE(L1D, PREFETCH, ACCESS) },
	{ "L1-dcache-prefetch-misses", CACHE(L1D, PREFETCH, MISS) },
};

static int add_events(struct ember_evlist *evlist, const struct default_event *evs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct perf_event_attr attr = {
			.size = sizeof(attr),
			.type = evs[i].ev.type,
			.config = evs[i].ev.config,
		};


		if (!ember_evlist__add_attr(evlist, &attr, evs[i].name))
			return -ENOMEM;
	}
	return 0;
}

#define ADD(evlist, arr) add_events(evlist, arr, sizeof(arr) / sizeof(arr[0]))

/* perf adds the stall counters only where the core PMU advertises them. */
static bool pmu_has_stalls(void)
{
	static const char path[] =
		"/sys/bus/event_source/devices/cpu/events/stalled-cycles-frontend";

	return access(path, F_OK) == 0;
}

int stat_events__add_default(struct ember_evlist *evlist, int detailed, bool system_wide)
{
	static const struct default_event task_clock = { "task-clock", SW(TASK_CLOCK) };
	static const struct default_event cpu_clock = { "cpu-clock", SW(CPU_CLOCK) };
	int err;

	err = add_events(evlist, system_wide ? &cpu_clock : &task_clock, 1);
	if (!err)
		err = ADD(evlist, defaults_sw);
	if (!err && pmu_has_stalls())
		err = ADD(evlist, defaults_stalls);
	if (!err)
		err = ADD(evlist, defaults_hw);
	if (!err && detailed >= 1)
		err = ADD(evlist, detailed1);
	if (!err && detailed >= 2)
		err = ADD(evlist, detailed2);
	if (!err && detailed >= 3)
		err = ADD(evlist, detailed3);
	return err;
}

/* Per-event stat state: unit, scale, metric kind, tool events and counters. */

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

/* ---- from the command line to the event list ---- */

/* Each --filter goes to the last event of the -e before it, which must be a tracepoint. */
static int setup_filters(struct ember_evlist *evlist, const struct stat_opts *o,
			 const int *nr_after)
{
	for (int i = 0; i < o->nr_filters; i++) {
		int n = nr_after[o->filters[i].nr_specs - 1];
		struct ember_evsel *pos, *last = NULL;

		ember_evlist__for_each(evlist, pos)
			if (ember_evsel__idx(pos) == n - 1)
				last = pos;
		if (!last || !ember_evsel__tracepoint(last, NULL, NULL))
			return stat_options__usage_error("--filter must follow a -e tracepoint");
		if (ember_evsel__set_filter(last, o->filters[i].list)) {
			fprintf(stderr, "ember stat: out of memory\n");
			return 1;
		}
	}
	return 0;
}

/* -G per its place among the -e options (nr_after per spec), then --for-each-cgroup. */
static int setup_cgroups(struct ember_evlist *evlist, const struct stat_opts *o,
			 struct stat_cgroups *cg, const int *nr_after)
{
	int err = 0;

	for (int i = 0; i < o->nr_cgroup_opts && !err; i++) {
		int n = o->cgroup_opts[i].nr_specs;

		err = stat_cgroups__assign(cg, evlist, o->cgroup_opts[i].list,
					   n && nr_after ? nr_after[n - 1] : 0);
		if (err == -ENOENT && !n)
			return stat_options__usage_error("-G/--cgroup needs events: give -e "
							 "before it");
		if (err == -E2BIG)
			return stat_options__usage_error("-G/--cgroup names more cgroups than "
							 "there are events before it");
	}
	if (!err && o->for_each_cgroup)
		err = stat_cgroups__expand(cg, evlist, o->for_each_cgroup);
	if (err == -ENOMEM) {
		fprintf(stderr, "ember stat: out of memory\n");
		return 1;
	}
	if (err) {
		fprintf(stderr, "ember stat: no access to cgroup %s: %s\n",
			stat_cgroups__path(cg), strerror(-err));
		return 2;
	}
	return 0;
}

int stat_events__setup(struct ember_evlist *evlist, struct stat_opts *o, struct stat_cgroups *cg)
{
	struct stat_config *c = &o->config;
	struct ember_evsel *pos;
	int err = 0;

	if (c->null_run)
		return 0;
	if (c->nr_event_specs) {
		int *nr_after = calloc(c->nr_event_specs, sizeof(*nr_after));

		if (!nr_after) {
			fprintf(stderr, "ember stat: out of memory\n");
			return 1;
		}
		err = stat_events__parse(evlist, c, nr_after);
		if (!err)
			err = setup_filters(evlist, o, nr_after);
		if (!err)
			err = setup_cgroups(evlist, o, cg, nr_after);
		free(nr_after);
		if (err)
			return err == -EINVAL ? 2 : err > 0 ? err : 1;
	} else if (o->nr_cgroup_opts) {
		return stat_options__usage_error("-G/--cgroup needs events: give -e before it");
	} else {
		err = stat_events__add_default(evlist, c->detailed,
					       c->system_wide || c->cpu_list);
		if (err) {
			fprintf(stderr, "ember stat: out of memory\n");
			return 1;
		}
	}
	if (o->group && ember_evlist__nr_entries(evlist))
		ember_evlist__make_group(evlist, ember_evlist__next(evlist, NULL));
	ember_evlist__for_each(evlist, pos) {
		struct perf_event_attr *a = ember_evsel__attr(pos);

		if (o->all_user)
			a->exclude_kernel = a->exclude_hv = 1;
		if (o->all_kernel)
			a->exclude_user = 1;
	}
	if (!err && o->for_each_cgroup && !c->nr_event_specs)
		err = setup_cgroups(evlist, o, cg, NULL);
	if (err)
		return err;
	if (stat_evsel__init_all(evlist)) {
		fprintf(stderr, "ember stat: out of memory\n");
		return 1;
	}
	ember_evlist__for_each(evlist, pos) {
		int idx = stat_cgroups__idx_of(cg, pos);

		if (idx < 0)
			continue;
		/* Metrics relate counters of one cgroup only. */
		stat_evsel(pos)->cgroup = cg->v[idx].name;
		stat_evsel(pos)->ctx |= (idx + 1) << 8;
		c->cgroups = true;
	}
	c->unit_width = stat_evsel__unit_width(evlist);
	return 0;
}
