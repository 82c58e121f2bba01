// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Event lists: membership, groups and maps. Opening and ring buffers live in evlist-open.c. */
#include <errno.h>
#include <stdlib.h>
#include "event/evlist.h"

struct ember_evlist *ember_evlist__new(void)
{
	return calloc(1, sizeof(struct ember_evlist));
}

void ember_evlist__add(struct ember_evlist *evlist, struct ember_evsel *evsel)
{
	evsel->idx = evlist->nr_entries++;
	evsel->evlist = evlist;
	evsel->next = NULL;
	if (evlist->last)
		evlist->last->next = evsel;
	else
		evlist->first = evsel;
	evlist->last = evsel;
}

struct ember_evsel *ember_evlist__add_attr(struct ember_evlist *evlist,
					   const struct perf_event_attr *attr, const char *name)
{
	struct ember_evsel *evsel = evsel__new(attr, name);

	if (evsel)
		ember_evlist__add(evlist, evsel);
	return evsel;
}

void evlist__purge(struct ember_evlist *evlist)
{
	struct ember_evsel *pos = evlist->first, *next;

	for (; pos; pos = next) {
		next = pos->next;
		evsel__delete(pos);
	}
	evlist->first = evlist->last = NULL;
	evlist->nr_entries = 0;
	evlist->nr_groups = 0;
}

void ember_evlist__delete(struct ember_evlist *evlist)
{
	if (!evlist)
		return;
	ember_evlist__munmap(evlist);
	ember_evlist__close(evlist);
	evlist__purge(evlist);
	ember_cpu_map__put(evlist->cpus);
	ember_thread_map__put(evlist->threads);
	free(evlist);
}

/* The leader and every evsel after it form one group. */
void ember_evlist__make_group(struct ember_evlist *evlist, struct ember_evsel *leader)
{
	int n = 0;

	for (struct ember_evsel *pos = leader; pos; pos = pos->next) {
		pos->leader = leader;
		pos->group_idx = n++;
	}
	leader->nr_members = n;
	if (n > 1)
		evlist->nr_groups++;
}

int ember_evlist__nr_entries(const struct ember_evlist *evlist)
{
	return evlist->nr_entries;
}

int ember_evlist__nr_groups(const struct ember_evlist *evlist)
{
	return evlist->nr_groups;
}

struct ember_evsel *ember_evlist__next(const struct ember_evlist *evlist,
				       const struct ember_evsel *prev)
{
	return prev ? prev->next : evlist->first;
}

void ember_evlist__set_maps(struct ember_evlist *evlist, struct ember_cpu_map *cpus,
			    struct ember_thread_map *threads)
{
	if (cpus != evlist->cpus) {
		ember_cpu_map__put(evlist->cpus);
		evlist->cpus = cpus ? ember_cpu_map__get(cpus) : NULL;
	}
	if (threads != evlist->threads) {
		ember_thread_map__put(evlist->threads);
		evlist->threads = threads ? ember_thread_map__get(threads) : NULL;
	}
}

struct ember_evsel *ember_evlist__failed(const struct ember_evlist *evlist)
{
	return evlist->failed;
}
