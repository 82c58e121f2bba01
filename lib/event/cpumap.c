// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Cpu maps: sorted sets of cpu numbers parsed from lists like "0,2-3",
 * checked against /sys/devices/system/cpu/online. Shared and refcounted.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/event.h>
#include "core/log.h"

#define ONLINE_PATH "/sys/devices/system/cpu/online"

struct ember_cpu_map {
	int refcnt;
	int nr;
	int cpu[];
};

struct cpu_range {
	int lo, hi;
};

static struct ember_cpu_map *cpu_map__alloc(int nr)
{
	struct ember_cpu_map *map = malloc(sizeof(*map) + (size_t)nr * sizeof(int));

	if (!map)
		return NULL;
	map->refcnt = 1;
	map->nr = nr;
	return map;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* A new map of the given cpus, sorted and deduplicated; NULL on ENOMEM. Put to free. */
struct ember_cpu_map *ember_cpu_map__from_array(const int *cpus, int nr)
{
	struct ember_cpu_map *map = cpu_map__alloc(nr);
	int n = 0;

	if (!map)
		return NULL;
	memcpy(map->cpu, cpus, (size_t)nr * sizeof(int));
	qsort(map->cpu, (size_t)nr, sizeof(int), cmp_int);
	for (int i = 0; i < nr; i++)
		if (n == 0 || map->cpu[n - 1] != map->cpu[i])
			map->cpu[n++] = map->cpu[i];
	map->nr = n;
	return map;
}

static int parse_num(const char **p, int *out)
{
	unsigned long v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (unsigned long)(*s++ - '0');
		if (v > INT_MAX)
			return -EINVAL;
	}
	*p = s;
	*out = (int)v;
	return 0;
}

/*
 * Parse "0,2-3" into ranges; a trailing newline (as sysfs writes) is
 * accepted. Returns the number of ranges (*out malloc'ed) or -EINVAL.
 */
static int parse_ranges(const char *list, struct cpu_range **out)
{
	struct cpu_range *r = NULL;
	int nr = 0, alloc = 0;
	const char *p = list;

	for (;;) {
		struct cpu_range cur;

		if (parse_num(&p, &cur.lo))
			goto inval;
		cur.hi = cur.lo;
		if (*p == '-') {
			p++;
			if (parse_num(&p, &cur.hi) || cur.hi < cur.lo)
				goto inval;
		}
		if (nr == alloc) {
			struct cpu_range *tmp;

			alloc = alloc ? alloc * 2 : 8;
			tmp = realloc(r, (size_t)alloc * sizeof(*r));
			if (!tmp) {
				free(r);
				return -ENOMEM;
			}
			r = tmp;
		}
		r[nr++] = cur;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n')
			p++;
		if (*p)
			goto inval;
		break;
	}
	*out = r;
	return nr;
inval:
	free(r);
	return -EINVAL;
}

/* Expand ranges into a map; the caller has bounded their size. */
static struct ember_cpu_map *expand_ranges(const struct cpu_range *r, int nr_ranges)
{
	struct ember_cpu_map *map;
	long total = 0;
	int *cpus, n = 0;

	for (int i = 0; i < nr_ranges; i++)
		total += (long)r[i].hi - r[i].lo + 1;
	cpus = malloc((size_t)total * sizeof(int));
	if (!cpus)
		return NULL;
	for (int i = 0; i < nr_ranges; i++)
		for (int c = r[i].lo; c <= r[i].hi; c++)
			cpus[n++] = c;
	map = ember_cpu_map__from_array(cpus, n);
	free(cpus);
	return map;
}

/* The online cpus, from sysfs; sysconf() when sysfs is not readable. */
static struct ember_cpu_map *online_cpus(void)
{
	struct cpu_range *r = NULL, fallback;
	struct ember_cpu_map *map;
	char buf[4096];
	size_t len = 0;
	int nr = -1;
	FILE *f = fopen(ONLINE_PATH, "re");

	if (f) {
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[len] = '\0';
		nr = parse_ranges(buf, &r);
		if (nr == -ENOMEM) {
			errno = ENOMEM;
			return NULL;
		}
	}
	if (nr <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		pr_debug("cpumap: cannot parse %s, using sysconf\n", ONLINE_PATH);
		fallback.lo = 0;
		fallback.hi = n > 0 ? (int)n - 1 : 0;
		return expand_ranges(&fallback, 1);
	}
	map = expand_ranges(r, nr);
	free(r);
	return map;
}

/* Parse a cpu list (NULL: online cpus) into a new map; NULL with errno EINVAL/ENODEV/ENOMEM. */
struct ember_cpu_map *ember_cpu_map__new(const char *list)
{
	struct ember_cpu_map *online, *map = NULL;
	struct cpu_range *r;
	int nr, err = 0;

	online = online_cpus();
	if (!online || !list)
		return online;

	nr = parse_ranges(list, &r);
	if (nr < 0) {
		ember_cpu_map__put(online);
		errno = -nr;
		return NULL;
	}
	/* Check before expanding, so "0-2000000000" fails fast instead of allocating. */
	for (int i = 0; i < nr && !err; i++) {
		if (r[i].hi > online->cpu[online->nr - 1])
			err = ENODEV;
		for (int c = r[i].lo; c <= r[i].hi && !err; c++)
			if (ember_cpu_map__idx(online, c) < 0)
				err = ENODEV;
	}
	if (err)
		pr_debug("cpumap: '%s' names a cpu that is not online\n", list);
	else
		map = expand_ranges(r, nr);
	free(r);
	ember_cpu_map__put(online);
	if (err)
		errno = err;
	return map;
}

/* The map {-1}: any cpu, for per-thread events. Put to free. */
struct ember_cpu_map *ember_cpu_map__new_any(void)
{
	int any = -1;

	return ember_cpu_map__from_array(&any, 1);
}

/* Take a reference; returns map (NULL passes through). */
struct ember_cpu_map *ember_cpu_map__get(struct ember_cpu_map *map)
{
	if (map)
		__atomic_fetch_add(&map->refcnt, 1, __ATOMIC_RELAXED);
	return map;
}

/* Drop a reference, freeing the map with the last one. Accepts NULL. */
void ember_cpu_map__put(struct ember_cpu_map *map)
{
	if (map && __atomic_sub_fetch(&map->refcnt, 1, __ATOMIC_ACQ_REL) == 0)
		free(map);
}

/* Number of entries (0 for NULL). */
int ember_cpu_map__nr(const struct ember_cpu_map *map)
{
	return map ? map->nr : 0;
}

/* The cpu at idx, or -1 when idx is out of range. */
int ember_cpu_map__cpu(const struct ember_cpu_map *map, int idx)
{
	if (!map || idx < 0 || idx >= map->nr)
		return -1;
	return map->cpu[idx];
}

/* True for the map {-1}. */
bool ember_cpu_map__is_any(const struct ember_cpu_map *map)
{
	return map && map->nr == 1 && map->cpu[0] == -1;
}

/* Binary search: the index of cpu, or -1. */
int ember_cpu_map__idx(const struct ember_cpu_map *map, int cpu)
{
	int lo = 0, hi = map ? map->nr - 1 : -1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (map->cpu[mid] == cpu)
			return mid;
		if (map->cpu[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}
