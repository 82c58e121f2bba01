// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Callchain entries folded before: (maps generation, cpumode and java
 * flag, ip) mapped to the frames the entry became (a run of the
 * collapse's interned ids). An entry seen before in the same maps folds
 * the same way, so it costs one probe here instead of a map search, a
 * symbol search and a name-cache probe (each a cache miss in a big
 * profile). Most entries repeat even where whole stacks do not: a
 * system-wide profile's stacks differ in one or two addresses.
 *
 * The table is direct mapped and small (128 KB, it stays in the cache): the
 * newest entry of a slot wins, hot addresses come back soon. A bigger one
 * kept more entries but missed the cache on most probes, which cost what
 * the hits saved (cachegrind on a 400,000-sample system-wide profile).
 */
#include <stdlib.h>

#include "flame-priv.h"

#define IP_SLOTS_LOG2 12
#define IP_SLOTS (1u << IP_SLOTS_LOG2)

struct ip_slot {
	uint64_t gen;
	uint64_t ip;
	uint32_t mode; /* 0: empty (flame_ipframes__find() never gets 0) */
	uint32_t first;
	uint32_t nr;
};

struct flame_ipframes {
	struct ip_slot *slots;
};

struct flame_ipframes *flame_ipframes__new(void)
{
	struct flame_ipframes *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->slots = calloc(IP_SLOTS, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	return t;
}

void flame_ipframes__delete(struct flame_ipframes *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t);
}

static struct ip_slot *slot_of(struct flame_ipframes *t, uint64_t gen, uint32_t mode, uint64_t ip)
{
	/*
	 * One multiply, its top bits: they depend on every bit of the key,
	 * and an ip's low bits (what tells apart the addresses of one
	 * function) most of all. A full mixer cost a third of the probe.
	 */
	uint64_t k = (ip ^ gen * 0x9e3779b97f4a7c15ULL ^ (uint64_t)mode << 56) * 0xff51afd7ed558ccdULL;

	return &t->slots[k >> (64 - IP_SLOTS_LOG2)];
}

bool flame_ipframes__find(struct flame_ipframes *t, uint64_t gen, uint32_t mode, uint64_t ip,
			  uint32_t *first, uint32_t *nr)
{
	const struct ip_slot *s = slot_of(t, gen, mode, ip);

	if (s->mode != mode || s->ip != ip || s->gen != gen)
		return false;
	*first = s->first;
	*nr = s->nr;
	return true;
}

void flame_ipframes__add(struct flame_ipframes *t, uint64_t gen, uint32_t mode, uint64_t ip,
			 uint32_t first, uint32_t nr)
{
	struct ip_slot *s = slot_of(t, gen, mode, ip);

	s->gen = gen;
	s->ip = ip;
	s->mode = mode;
	s->first = first;
	s->nr = nr;
}
