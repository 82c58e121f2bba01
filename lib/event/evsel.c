// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Event selectors: construction, configuration and teardown. Opening lives in evsel-open.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "event/evsel.h"

struct ember_evsel *ember_evsel__new(const struct perf_event_attr *attr, const char *name)
{
	struct ember_evsel *evsel = calloc(1, sizeof(*evsel));

	if (!evsel)
		return NULL;
	evsel->attr = *attr;
	if (!evsel->attr.size)
		evsel->attr.size = sizeof(evsel->attr);
	if (name && !(evsel->name = strdup(name))) {
		free(evsel);
		errno = ENOMEM;
		return NULL;
	}
	evsel->leader = evsel;
	evsel->nr_members = 1;
	evsel->supported = true;
	return evsel;
}

static char *dup_or_null(const char *s, bool *failed)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*failed = true;
	return d;
}

struct ember_evsel *ember_evsel__clone(const struct ember_evsel *orig)
{
	struct ember_evsel *evsel = ember_evsel__new(&orig->attr, orig->name);
	bool failed = false;

	if (!evsel)
		return NULL;
	evsel->pmu_name = dup_or_null(orig->pmu_name, &failed);
	evsel->tp_sys = dup_or_null(orig->tp_sys, &failed);
	evsel->tp_name = dup_or_null(orig->tp_name, &failed);
	evsel->filter = dup_or_null(orig->filter, &failed);
	evsel->modifiers = dup_or_null(orig->modifiers, &failed);
	evsel->kind = orig->kind;
	evsel->exclude_guest_default = orig->exclude_guest_default;
	evsel->precise_max = orig->precise_max;
	evsel->open_flags = orig->open_flags;
	if (orig->terms && !(evsel->terms = ember_evsel_terms__clone(orig->terms)))
		failed = true;
	if (orig->own_cpus)
		evsel->own_cpus = ember_cpu_map__get(orig->own_cpus);
	if (orig->own_threads)
		evsel->own_threads = ember_thread_map__get(orig->own_threads);
	if (failed) {
		ember_evsel__delete(evsel);
		errno = ENOMEM;
		return NULL;
	}
	return evsel;
}

void ember_evsel__close(struct ember_evsel *evsel)
{
	int n;

	if (!evsel || !evsel->fds)
		return;
	n = evsel->nr_fds_cpus * evsel->nr_fds_threads;
	for (int i = 0; i < n; i++)
		if (evsel->fds[i] >= 0)
			close(evsel->fds[i]);
	free(evsel->fds);
	free(evsel->ids);
	evsel->fds = NULL;
	evsel->ids = NULL;
	evsel->nr_fds_cpus = evsel->nr_fds_threads = 0;
	ember_cpu_map__put(evsel->cpus);
	ember_thread_map__put(evsel->threads);
	evsel->cpus = NULL;
	evsel->threads = NULL;
}

void ember_evsel__delete(struct ember_evsel *evsel)
{
	if (!evsel)
		return;
	ember_evsel__close(evsel);
	ember_cpu_map__put(evsel->own_cpus);
	ember_thread_map__put(evsel->own_threads);
	free(evsel->name);
	free(evsel->pmu_name);
	free(evsel->tp_sys);
	free(evsel->tp_name);
	free(evsel->filter);
	free(evsel->modifiers);
	ember_evsel_terms__delete(evsel->terms);
	free(evsel);
}

bool ember_evsel__is_group_leader(const struct ember_evsel *evsel)
{
	return evsel->leader == evsel;
}

int ember_evsel__set_filter(struct ember_evsel *evsel, const char *filter)
{
	char *copy = filter ? strdup(filter) : NULL;

	if (filter && !copy)
		return -ENOMEM;
	free(evsel->filter);
	evsel->filter = copy;
	return 0;
}

struct perf_event_attr *ember_evsel__attr(struct ember_evsel *evsel)
{
	return &evsel->attr;
}

const char *ember_evsel__name(const struct ember_evsel *evsel)
{
	return evsel->name ? evsel->name : "unknown";
}

int ember_evsel__fd(const struct ember_evsel *evsel, int cpu_idx, int thread_idx)
{
	if (!evsel->fds || cpu_idx < 0 || thread_idx < 0 || cpu_idx >= evsel->nr_fds_cpus ||
	    thread_idx >= evsel->nr_fds_threads)
		return -1;
	return evsel->fds[cpu_idx * evsel->nr_fds_threads + thread_idx];
}
