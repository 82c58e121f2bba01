/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Internal view of an event selector: the library's own; programs use <ember/event.h>. */
#ifndef EMBER_LIB_EVSEL_H
#define EMBER_LIB_EVSEL_H

#include <ember/event.h>
#include "event/evsel-terms.h"

enum evsel_kind {
	EVSEL_HARDWARE,	/* PERF_TYPE_HARDWARE, HW_CACHE, RAW, or a core PMU */
	EVSEL_SOFTWARE,
	EVSEL_TRACEPOINT,
	EVSEL_PMU,	/* a named dynamic PMU other than the core one */
};

struct ember_evsel {
	struct perf_event_attr attr;
	char *name;			/* as perf prints it; owned */
	char *pmu_name;			/* "cpu", "software", "tracepoint", ...; owned, may be NULL */
	char *tp_sys, *tp_name;		/* tracepoints only; owned */
	char *filter;			/* tracepoint filter (PERF_EVENT_IOC_SET_FILTER); owned */
	enum evsel_kind kind;
	int idx;			/* position in the list */

	/* Groups: leader points at itself outside a group. */
	struct ember_evsel *leader;
	int nr_members;			/* leader only: members including itself */
	int group_idx;			/* position inside its group */

	/* Modifier bookkeeping, for printing and fallbacks. */
	bool exclude_guest_default;	/* no :G/:H given */
	bool precise_max;		/* :P */
	struct ember_evsel_terms *terms; /* per-event terms ("/call-graph=fp/"); owned, may be NULL */

	/* Set per evsel to override the list's maps (NULL: the list's). */
	struct ember_cpu_map *own_cpus;
	struct ember_thread_map *own_threads;
	/* More perf_event_open() flags: PERF_FLAG_PID_CGROUP makes own_threads' "pid" a cgroup fd. */
	unsigned long open_flags;

	/* Open state: fds[cpu_idx * nr_threads + thread_idx]; -1 when not open. */
	struct ember_cpu_map *cpus;	/* reference held while open */
	struct ember_thread_map *threads;
	int *fds;
	uint64_t *ids;			/* PERF_EVENT_IOC_ID per fd */
	int nr_fds_cpus, nr_fds_threads;
	int open_err;			/* last -errno from open, 0 on success */
	bool supported;

	struct ember_evlist *evlist;	/* back pointer, not owned */
	struct ember_evsel *next;	/* list link */
	void *priv;			/* the caller's (ember_evsel__priv) */
};

/* A new evsel with a copy of attr and name (may be NULL). Free with __delete. */
struct ember_evsel *evsel__new(const struct perf_event_attr *attr, const char *name);
/* Closes and frees. Accepts NULL. */
void evsel__delete(struct ember_evsel *evsel);

#endif
