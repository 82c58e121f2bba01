// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Event selectors: construction, configuration and teardown. Opening lives in evsel-open.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "core/log.h"
#include "event/evsel.h"

struct ember_evsel *evsel__new(const struct perf_event_attr *attr, const char *name)
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
	/* The parser says more (PMU, tool events); an attr alone tells this much. */
	if (attr->type == PERF_TYPE_SOFTWARE)
		evsel->kind = EVSEL_SOFTWARE;
	else if (attr->type == PERF_TYPE_TRACEPOINT)
		evsel->kind = EVSEL_TRACEPOINT;
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
	struct ember_evsel *evsel = evsel__new(&orig->attr, orig->name);
	bool failed = false;

	if (!evsel)
		return NULL;
	evsel->pmu_name = dup_or_null(orig->pmu_name, &failed);
	evsel->tp_sys = dup_or_null(orig->tp_sys, &failed);
	evsel->tp_name = dup_or_null(orig->tp_name, &failed);
	evsel->filter = dup_or_null(orig->filter, &failed);
	evsel->kind = orig->kind;
	evsel->exclude_guest_default = orig->exclude_guest_default;
	evsel->precise_max = orig->precise_max;
	evsel->open_flags = orig->open_flags;
	if (orig->terms && !(evsel->terms = evsel_terms__clone(orig->terms)))
		failed = true;
	if (orig->own_cpus)
		evsel->own_cpus = ember_cpu_map__get(orig->own_cpus);
	if (orig->own_threads)
		evsel->own_threads = ember_thread_map__get(orig->own_threads);
	if (failed) {
		evsel__delete(evsel);
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

void evsel__delete(struct ember_evsel *evsel)
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
	evsel_terms__delete(evsel->terms);
	free(evsel);
}

bool ember_evsel__is_group_leader(const struct ember_evsel *evsel)
{
	return evsel->leader == evsel;
}

struct ember_evsel *ember_evsel__leader(const struct ember_evsel *evsel)
{
	return evsel->leader;
}

int ember_evsel__nr_members(const struct ember_evsel *evsel)
{
	return evsel->nr_members;
}

int ember_evsel__idx(const struct ember_evsel *evsel)
{
	return evsel->idx;
}

int ember_evsel__set_name(struct ember_evsel *evsel, const char *name)
{
	char *copy = strdup(name);

	if (!copy)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = copy;
	return 0;
}

bool ember_evsel__tracepoint(const struct ember_evsel *evsel, const char **sys, const char **name)
{
	if (evsel->kind != EVSEL_TRACEPOINT || !evsel->tp_sys || !evsel->tp_name)
		return false;
	if (sys)
		*sys = evsel->tp_sys;
	if (name)
		*name = evsel->tp_name;
	return true;
}

const char *ember_evsel__filter(const struct ember_evsel *evsel)
{
	return evsel->filter;
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

int ember_evsel__apply_filter(struct ember_evsel *evsel, const char *filter)
{
	int n = evsel->fds ? evsel->nr_fds_cpus * evsel->nr_fds_threads : 0;

	for (int i = 0; i < n; i++) {
		int err;

		if (evsel->fds[i] < 0 || !ioctl(evsel->fds[i], PERF_EVENT_IOC_SET_FILTER, filter))
			continue;
		err = -errno;
		pr_debug("%s: cannot set filter '%s': %s\n", ember_evsel__name(evsel), filter,
			 strerror(-err));
		return err;
	}
	return 0;
}

int ember_evsel__exclude_kernel(struct ember_evsel *evsel)
{
	const char *name = ember_evsel__name(evsel);
	/* after modifiers or a PMU's slash a bare "u" */
	const char *sep = strchr(name, '/') || strchr(name, ':') ? "" : ":";
	char *renamed;

	if (asprintf(&renamed, "%s%su", name, sep) < 0)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = renamed;
	evsel->attr.exclude_kernel = 1;
	evsel->attr.exclude_hv = 1;
	return 0;
}

void ember_evsel__set_precise_max(struct ember_evsel *evsel, bool on)
{
	evsel->precise_max = on;
}

const struct ember_evsel_terms *ember_evsel__terms(const struct ember_evsel *evsel)
{
	return evsel->terms;
}

/* The cgroup's directory fd stands in for the pid, with PERF_FLAG_PID_CGROUP. */
int ember_evsel__set_cgroup(struct ember_evsel *evsel, int cgroup_fd)
{
	struct ember_thread_map *t = ember_thread_map__new_pid(cgroup_fd);

	if (!t)
		return -ENOMEM;
	ember_thread_map__put(evsel->own_threads);
	evsel->own_threads = t;
	evsel->open_flags |= PERF_FLAG_PID_CGROUP;
	return 0;
}

int ember_evsel__cgroup_fd(const struct ember_evsel *evsel)
{
	if (!(evsel->open_flags & PERF_FLAG_PID_CGROUP) || !evsel->own_threads)
		return -1;
	return ember_thread_map__pid(evsel->own_threads, 0);
}

void *ember_evsel__priv(const struct ember_evsel *evsel)
{
	return evsel->priv;
}

void ember_evsel__set_priv(struct ember_evsel *evsel, void *priv)
{
	evsel->priv = priv;
}

struct perf_event_attr *ember_evsel__attr(const struct ember_evsel *evsel)
{
	return (struct perf_event_attr *)&evsel->attr;
}

const char *ember_evsel__name(const struct ember_evsel *evsel)
{
	return evsel->name ? evsel->name : "unknown";
}


int ember_evsel__nr_cpus(const struct ember_evsel *evsel)
{
	return evsel->fds ? evsel->nr_fds_cpus : 0;
}

int ember_evsel__nr_threads(const struct ember_evsel *evsel)
{
	return evsel->fds ? evsel->nr_fds_threads : 0;
}

struct ember_cpu_map *ember_evsel__cpus(const struct ember_evsel *evsel)
{
	return evsel->cpus;
}

struct ember_thread_map *ember_evsel__threads(const struct ember_evsel *evsel)
{
	return evsel->threads;
}

/* The position of (cpu_idx, thread_idx) in the fd and id arrays, or -1. */
static int fd_pos(const struct ember_evsel *evsel, int cpu_idx, int thread_idx)
{
	if (!evsel->fds || cpu_idx < 0 || thread_idx < 0 || cpu_idx >= evsel->nr_fds_cpus ||
	    thread_idx >= evsel->nr_fds_threads)
		return -1;
	return cpu_idx * evsel->nr_fds_threads + thread_idx;
}

int ember_evsel__fd(const struct ember_evsel *evsel, int cpu_idx, int thread_idx)
{
	int pos = fd_pos(evsel, cpu_idx, thread_idx);

	return pos < 0 ? -1 : evsel->fds[pos];
}

uint64_t ember_evsel__id(const struct ember_evsel *evsel, int cpu_idx, int thread_idx)
{
	int pos = fd_pos(evsel, cpu_idx, thread_idx);

	return pos < 0 || evsel->fds[pos] < 0 ? 0 : evsel->ids[pos];
}

int ember_evsel__take_fd(struct ember_evsel *evsel, int cpu_idx, int thread_idx)
{
	int pos = fd_pos(evsel, cpu_idx, thread_idx), fd;

	if (pos < 0)
		return -1;
	fd = evsel->fds[pos];
	evsel->fds[pos] = -1;
	return fd;
}

/* ioctl every fd of the evsel (no group flag: this evsel alone). 0 or the first -errno. */
static int evsel__ioctl(struct ember_evsel *evsel, unsigned long request)
{
	int ret = 0;

	for (int i = 0; evsel->fds && i < evsel->nr_fds_cpus * evsel->nr_fds_threads; i++)
		if (evsel->fds[i] >= 0 && ioctl(evsel->fds[i], request, 0) < 0 && !ret)
			ret = -errno;
	return ret;
}

int ember_evsel__enable(struct ember_evsel *evsel)
{
	return evsel__ioctl(evsel, PERF_EVENT_IOC_ENABLE);
}

int ember_evsel__disable(struct ember_evsel *evsel)
{
	return evsel__ioctl(evsel, PERF_EVENT_IOC_DISABLE);
}
