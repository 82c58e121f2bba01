/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Maps: an address range of a process (or of the kernel) backed by a dso,
 * and the sorted, non-overlapping set of them one process's threads
 * share. Inserting a map cuts away whatever it overlaps, as the kernel
 * does and as perf's maps__fixup_overlappings() replays it. Replaced maps
 * are not freed but handed to a graveyard, so pointers given out earlier
 * stay valid until the machine goes.
 */
#ifndef EMBER_LIB_MAP_H
#define EMBER_LIB_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ember/machine.h>

struct ember_map {
	uint64_t start;
	uint64_t end;		/* exclusive */
	uint64_t pgoff;
	struct ember_dso *dso;
	uint32_t prot;
	uint32_t flags;
	bool identity;		/* map_ip(ip) == ip: anonymous/JIT and kernel maps */
};

/* Where removed maps wait for the machine's end. */
struct map_graveyard {
	struct ember_map **maps;
	size_t nr, alloc;
	uint64_t gen;		/* the last maps generation handed out (one machine, one sequence) */
};

struct maps {
	struct ember_map **entries;	/* sorted by start, non-overlapping */
	size_t nr, alloc;
	int refcnt;			/* threads of one process share one */
	struct map_graveyard *graveyard;
	uint64_t gen;			/* new at creation and at each change, unique in the machine */
};

/* A new map; NULL on ENOMEM. The caller inserts it (maps own their maps). */
struct ember_map *map__new(uint64_t start, uint64_t end, uint64_t pgoff, struct ember_dso *dso);
/* ip → dso address space (perf's map__map_ip). */
static inline uint64_t map__map_ip(const struct ember_map *map, uint64_t ip)
{
	return map->identity ? ip : ip - map->start + map->pgoff;
}

/* A new, empty set with one reference; NULL on ENOMEM. */
struct maps *maps__new(struct map_graveyard *graveyard);
struct maps *maps__get(struct maps *maps);
/* Drops a reference; the last one sends the maps to the graveyard and frees the set. */
void maps__put(struct maps *maps);
/*
 * Inserts map, first removing or trimming the maps it overlaps (their
 * uncovered parts become new maps). Takes ownership of map, even on
 * failure. Returns 0 or -ENOMEM.
 */
int maps__insert(struct maps *maps, struct ember_map *map);
/* Removes exactly this map (to the graveyard). */
void maps__remove(struct maps *maps, struct ember_map *map);
/* The map holding ip, or NULL. O(log n), no allocation. */
struct ember_map *maps__find(const struct maps *maps, uint64_t ip);
/* Copies every map of src into dst (a forked process). 0 or -ENOMEM. */
int maps__clone(struct maps *dst, const struct maps *src);

/* Frees every map in the graveyard. */
void map_graveyard__exit(struct map_graveyard *g);

#endif
