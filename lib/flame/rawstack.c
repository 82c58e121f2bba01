// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Raw stacks: a sample's recorded words (root, thread, maps generation,
 * ip, callchain) mapped to the leaf node its folded stack ended in. A
 * stack seen before in the same maps folds the same way: it then costs
 * one hash of its words instead of a resolution, a name lookup and a
 * tree probe per frame.
 *
 * The table is small, direct mapped and of short keys only: what repeats
 * is a hot loop's few stacks, and a table of every stack of a system-wide
 * profile (mostly seen once) cost as much in cache misses and memory as
 * the hits saved.
 *
 * The slots' hashes also sit in an array of their own (32 KB, cache
 * resident): in a system-wide profile most lookups miss, and a miss is
 * then told by that array alone, without touching the slot's key (a cache
 * miss in a table of 800 KB, which was most of the lookup's cost).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "flame-priv.h"

#define RAW_SLOTS 4096		/* a power of two */

struct raw_slot {
	uint32_t node;
	uint32_t len;		/* 0: empty */
	uint64_t key[FLAME_RAW_KEY_MAX];
};

struct flame_rawstacks {
	uint64_t *hashes;	/* slots[i]'s hash; meaningful where slots[i].len != 0 */
	struct raw_slot *slots;
};

struct flame_rawstacks *flame_rawstacks__new(void)
{
	struct flame_rawstacks *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->hashes = calloc(RAW_SLOTS, sizeof(*r->hashes));
	r->slots = calloc(RAW_SLOTS, sizeof(*r->slots));
	if (!r->hashes || !r->slots) {
		flame_rawstacks__delete(r);
		return NULL;
	}
	return r;
}

void flame_rawstacks__delete(struct flame_rawstacks *r)
{
	if (!r)
		return;
	free(r->hashes);
	free(r->slots);
	free(r);
}

int64_t flame_rawstacks__find(struct flame_rawstacks *r, const uint64_t *key, size_t n,
			      uint64_t hash)
{
	size_t i = hash & (RAW_SLOTS - 1);
	const struct raw_slot *s;

	if (r->hashes[i] != hash)
		return -1;
	s = &r->slots[i];
	if (s->len == n && !memcmp(s->key, key, n * sizeof(*key)))
		return s->node;
	return -1;
}

void flame_rawstacks__add(struct flame_rawstacks *r, const uint64_t *key, size_t n,
			  uint64_t hash, uint32_t node)
{
	size_t i = hash & (RAW_SLOTS - 1);
	struct raw_slot *s = &r->slots[i];

	if (!n || n > FLAME_RAW_KEY_MAX)
		return;
	/* The last stack of a slot wins: a hot one comes back soon. */
	r->hashes[i] = hash;
	s->node = node;
	s->len = n;
	memcpy(s->key, key, n * sizeof(*key));
}
