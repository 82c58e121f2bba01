// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "machine/map.h"

struct ember_map *map__new(uint64_t start, uint64_t end, uint64_t pgoff, struct ember_dso *dso)
{
	struct ember_map *map = calloc(1, sizeof(*map));

	if (!map)
		return NULL;
	map->start = start;
	map->end = end;
	map->pgoff = pgoff;
	map->dso = dso;
	return map;
}

static struct ember_map *map__clone(const struct ember_map *map)
{
	struct ember_map *m = malloc(sizeof(*m));

	if (m)
		*m = *map;
	return m;
}

/* Buries map; if even that fails, the map leaks rather than dangles. */
static void map_graveyard__add(struct map_graveyard *g, struct ember_map *map)
{
	if (g->nr == g->alloc) {
		size_t alloc = g->alloc ? g->alloc * 2 : 64;
		struct ember_map **m = realloc(g->maps, alloc * sizeof(*m));

		if (!m)
			return;
		g->maps = m;
		g->alloc = alloc;
	}
	g->maps[g->nr++] = map;
}

void map_graveyard__exit(struct map_graveyard *g)
{
	for (size_t i = 0; i < g->nr; i++)
		free(g->maps[i]);
	free(g->maps);
	memset(g, 0, sizeof(*g));
}

/* A generation no other maps of the machine has had: what resolved under the old one may not hold. */
static void maps__touch(struct maps *maps)
{
	maps->gen = maps->graveyard ? ++maps->graveyard->gen : maps->gen + 1;
}

struct maps *maps__new(struct map_graveyard *graveyard)
{
	struct maps *maps = calloc(1, sizeof(*maps));

	if (!maps)
		return NULL;
	maps->refcnt = 1;
	maps->graveyard = graveyard;
	maps__touch(maps);
	return maps;
}

struct maps *maps__get(struct maps *maps)
{
	if (maps)
		maps->refcnt++;
	return maps;
}

void maps__put(struct maps *maps)
{
	if (!maps || --maps->refcnt > 0)
		return;
	for (size_t i = 0; i < maps->nr; i++)
		map_graveyard__add(maps->graveyard, maps->entries[i]);
	free(maps->entries);
	free(maps);
}

static int maps__reserve(struct maps *maps, size_t extra)
{
	size_t alloc;
	struct ember_map **e;

	if (maps->nr + extra <= maps->alloc)
		return 0;
	alloc = maps->alloc ? maps->alloc * 2 : 32;
	while (alloc < maps->nr + extra)
		alloc *= 2;
	e = realloc(maps->entries, alloc * sizeof(*e));
	if (!e)
		return -ENOMEM;
	maps->entries = e;
	maps->alloc = alloc;
	return 0;
}

/* Index of the first map whose end is above addr (the kernel's find_vma()). */
static size_t maps__first_ending_after(const struct maps *maps, uint64_t addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->entries[mid]->end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

int maps__insert(struct maps *maps, struct ember_map *map)
{
	struct ember_map *repl[3], *first, *last;
	size_t i, j, nr_repl = 0;

	maps__touch(maps);
	if (maps__reserve(maps, 3)) {
		map_graveyard__add(maps->graveyard, map);
		return -ENOMEM;
	}
	/* entries[i, j) overlap the new map. */
	i = maps__first_ending_after(maps, map->start);
	for (j = i; j < maps->nr && maps->entries[j]->start < map->end; j++)
		;
	if (i < j) {
		first = maps->entries[i];
		last = maps->entries[j - 1];
		if (first->start < map->start) {
			struct ember_map *before = map__clone(first);

			if (!before)
				goto nomem;
			before->end = map->start;
			repl[nr_repl++] = before;
		}
		repl[nr_repl++] = map;
		if (last->end > map->end) {
			struct ember_map *after = map__clone(last);

			if (!after) {
				if (nr_repl == 2)
					free(repl[0]);
				goto nomem;
			}
			after->start = map->end;
			if (!after->identity)
				after->pgoff += map->end - last->start;
			repl[nr_repl++] = after;
		}
		for (size_t k = i; k < j; k++)
			map_graveyard__add(maps->graveyard, maps->entries[k]);
	} else {
		repl[nr_repl++] = map;
	}
	memmove(&maps->entries[i + nr_repl], &maps->entries[j],
		(maps->nr - j) * sizeof(*maps->entries));
	memcpy(&maps->entries[i], repl, nr_repl * sizeof(*repl));
	maps->nr = maps->nr - (j - i) + nr_repl;
	return 0;

nomem:
	map_graveyard__add(maps->graveyard, map);
	return -ENOMEM;
}

void maps__remove(struct maps *maps, struct ember_map *map)
{
	maps__touch(maps);
	for (size_t i = 0; i < maps->nr; i++) {
		if (maps->entries[i] != map)
			continue;
		memmove(&maps->entries[i], &maps->entries[i + 1],
			(maps->nr - i - 1) * sizeof(*maps->entries));
		maps->nr--;
		map_graveyard__add(maps->graveyard, map);
		return;
	}
}

struct ember_map *maps__find(const struct maps *maps, uint64_t ip)
{
	size_t i = maps__first_ending_after(maps, ip);

	if (i < maps->nr && maps->entries[i]->start <= ip)
		return maps->entries[i];
	return NULL;
}

int maps__clone(struct maps *dst, const struct maps *src)
{
	for (size_t i = 0; i < src->nr; i++) {
		struct ember_map *m = map__clone(src->entries[i]);
		int err;

		if (!m)
			return -ENOMEM;
		err = maps__insert(dst, m);
		if (err)
			return err;
	}
	return 0;
}

uint64_t ember_map__start(const struct ember_map *map)
{
	return map->start;
}

uint64_t ember_map__end(const struct ember_map *map)
{
	return map->end;
}

uint64_t ember_map__pgoff(const struct ember_map *map)
{
	return map->pgoff;
}

struct ember_dso *ember_map__dso(const struct ember_map *map)
{
	return map->dso;
}

uint64_t ember_map__map_ip(const struct ember_map *map, uint64_t ip)
{
	return map__map_ip(map, ip);
}
