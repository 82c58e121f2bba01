// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Thread maps: the tasks an event follows. A pid list expands to every
 * thread of each process (/proc/PID/task); a tid list is taken as given.
 * Shared and refcounted.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/event.h>
#include "core/log.h"

struct ember_thread_map {
	int refcnt;
	int nr;
	pid_t pid[];
};

/* A growable array of pids while a map is being built. */
struct pid_vec {
	pid_t *v;
	int nr, alloc;
};

static int pid_vec__push(struct pid_vec *pv, pid_t pid)
{
	if (pv->nr == pv->alloc) {
		int alloc = pv->alloc ? pv->alloc * 2 : 16;
		pid_t *tmp = realloc(pv->v, (size_t)alloc * sizeof(pid_t));

		if (!tmp)
			return -ENOMEM;
		pv->v = tmp;
		pv->alloc = alloc;
	}
	pv->v[pv->nr++] = pid;
	return 0;
}

static struct ember_thread_map *thread_map__from(const pid_t *pids, int nr)
{
	struct ember_thread_map *map = malloc(sizeof(*map) + (size_t)nr * sizeof(pid_t));

	if (!map)
		return NULL;
	map->refcnt = 1;
	map->nr = nr;
	memcpy(map->pid, pids, (size_t)nr * sizeof(pid_t));
	return map;
}

struct ember_thread_map *ember_thread_map__from_array(const pid_t *tids, int nr)
{
	struct ember_thread_map *map = thread_map__from(tids, nr);

	if (!map)
		errno = ENOMEM;
	return map;
}

/* Parse "1234,5678" into pids (positive, no duplicates). Returns 0 or -EINVAL/-ENOMEM. */
static int parse_pid_list(const char *list, struct pid_vec *pv)
{
	const char *p = list;

	if (!list)
		return -EINVAL;
	for (;;) {
		unsigned long v = 0;
		int err;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		while (isdigit((unsigned char)*p)) {
			v = v * 10 + (unsigned long)(*p++ - '0');
			if (v > INT_MAX)
				return -EINVAL;
		}
		if (v == 0)
			return -EINVAL;
		for (int i = 0; i < pv->nr; i++)
			if (pv->v[i] == (pid_t)v)
				goto next;
		err = pid_vec__push(pv, (pid_t)v);
		if (err)
			return err;
next:
		if (*p == ',') {
			p++;
			continue;
		}
		return *p ? -EINVAL : 0;
	}
}

static int task_filter(const struct dirent *d)
{
	return isdigit((unsigned char)d->d_name[0]);
}

static int task_cmp(const struct dirent **a, const struct dirent **b)
{
	long x = strtol((*a)->d_name, NULL, 10), y = strtol((*b)->d_name, NULL, 10);

	return (x > y) - (x < y);
}

/* Append every thread of pid, in tid order. Returns 0, -ESRCH for a dead pid, or -errno. */
static int add_tasks(struct pid_vec *out, pid_t pid)
{
	struct dirent **names;
	char path[64];
	int n, err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	n = scandir(path, &names, task_filter, task_cmp);
	if (n < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	for (int i = 0; i < n; i++) {
		if (!err)
			err = pid_vec__push(out, (pid_t)strtol(names[i]->d_name, NULL, 10));
		free(names[i]);
	}
	free(names);
	/* A zombie's task directory is empty: nothing left to follow. */
	if (!err && n == 0)
		err = -ESRCH;
	return err;
}

/* Every thread of each process in pid_list; NULL with errno EINVAL/ESRCH/ENOMEM. Put to free. */
struct ember_thread_map *ember_thread_map__new_pids(const char *pid_list)
{
	struct pid_vec pids = { 0 }, tids = { 0 };
	struct ember_thread_map *map = NULL;
	int err = parse_pid_list(pid_list, &pids);

	for (int i = 0; i < pids.nr && !err; i++) {
		err = add_tasks(&tids, pids.v[i]);
		if (err == -ESRCH)
			pr_debug("threadmap: no process %d\n", (int)pids.v[i]);
	}
	if (!err && !(map = thread_map__from(tids.v, tids.nr)))
		err = -ENOMEM;
	free(pids.v);
	free(tids.v);
	if (err)
		errno = -err;
	return map;
}

/* Exactly the threads in tid_list; NULL with errno EINVAL/ENOMEM. Put to free. */
struct ember_thread_map *ember_thread_map__new_tids(const char *tid_list)
{
	struct pid_vec tids = { 0 };
	struct ember_thread_map *map = NULL;
	int err = parse_pid_list(tid_list, &tids);

	if (!err && !(map = thread_map__from(tids.v, tids.nr)))
		err = -ENOMEM;
	free(tids.v);
	if (err)
		errno = -err;
	return map;
}

/* The map {pid}; 0 means the calling thread, as for perf_event_open(). Put to free. */
struct ember_thread_map *ember_thread_map__new_pid(pid_t pid)
{
	return thread_map__from(&pid, 1);
}

/* The map {-1}: every thread, for cpu-wide events. Put to free. */
struct ember_thread_map *ember_thread_map__new_any(void)
{
	pid_t any = -1;

	return thread_map__from(&any, 1);
}

/* Take a reference; returns map (NULL passes through). */
struct ember_thread_map *ember_thread_map__get(struct ember_thread_map *map)
{
	if (map)
		__atomic_fetch_add(&map->refcnt, 1, __ATOMIC_RELAXED);
	return map;
}

/* Drop a reference, freeing the map with the last one. Accepts NULL. */
void ember_thread_map__put(struct ember_thread_map *map)
{
	if (map && __atomic_sub_fetch(&map->refcnt, 1, __ATOMIC_ACQ_REL) == 0)
		free(map);
}

/* Number of entries (0 for NULL). */
int ember_thread_map__nr(const struct ember_thread_map *map)
{
	return map ? map->nr : 0;
}

/* The pid at idx, or -1 when idx is out of range. */
pid_t ember_thread_map__pid(const struct ember_thread_map *map, int idx)
{
	if (!map || idx < 0 || idx >= map->nr)
		return -1;
	return map->pid[idx];
}

/* True for the map {-1}. */
bool ember_thread_map__is_any(const struct ember_thread_map *map)
{
	return map && map->nr == 1 && map->pid[0] == -1;
}
