// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Start/end matching by key: lib/core's hash table of key -> start time
 * (a block device reuses sectors, a thread enters syscalls again and
 * again, so keys come and go all the time: an end removes its key, and
 * its entry is reused by a later start).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ember/heatmap.h>
#include "core/hash.h"
#include "core/hashtab.h"

#define MAX_KEYS 8

struct ember_heatmap_pairs {
	unsigned int nr_keys;
	struct hashtab index;	/* entry + 1 by hash_words() of the key */
	/* entries of 1 + nr_keys words: the start time, then the key */
	uint64_t *pool;
	size_t nr_pool, alloc_pool;
	size_t free_head;	/* a free entry + 1, 0: none; its time word holds the next */
};

struct ember_heatmap_pairs *ember_heatmap_pairs__new(unsigned int nr_keys)
{
	struct ember_heatmap_pairs *pp;

	if (!nr_keys || nr_keys > MAX_KEYS) {
		errno = EINVAL;
		return NULL;
	}
	pp = calloc(1, sizeof(*pp));
	if (!pp || hashtab__reserve(&pp->index, 512)) {
		free(pp);
		errno = ENOMEM;
		return NULL;
	}
	pp->nr_keys = nr_keys;
	return pp;
}

void ember_heatmap_pairs__delete(struct ember_heatmap_pairs *pp)
{
	if (!pp)
		return;
	hashtab__exit(&pp->index);
	free(pp->pool);
	free(pp);
}

static uint64_t *entry(const struct ember_heatmap_pairs *pp, uint64_t val)
{
	return &pp->pool[(val - 1) * (1 + pp->nr_keys)];
}

struct key_probe {
	const struct ember_heatmap_pairs *pp;
	const uint64_t *key;
};

static bool key_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	const struct key_probe *k = key;

	return !memcmp(entry(k->pp, val) + 1, k->key, k->pp->nr_keys * sizeof(*k->key));
}

/* A free entry + 1 (taken from the free list or the pool's end), 0 on ENOMEM. */
static uint64_t entry_new(struct ember_heatmap_pairs *pp)
{
	size_t stride = 1 + pp->nr_keys;

	if (pp->free_head) {
		uint64_t val = pp->free_head;

		pp->free_head = entry(pp, val)[0];
		return val;
	}
	if (pp->nr_pool == pp->alloc_pool) {
		size_t alloc = pp->alloc_pool ? pp->alloc_pool * 2 : 256;
		uint64_t *p = realloc(pp->pool, alloc * stride * sizeof(*p));

		if (!p)
			return 0;
		pp->pool = p;
		pp->alloc_pool = alloc;
	}
	return ++pp->nr_pool;
}

int ember_heatmap_pairs__start(struct ember_heatmap_pairs *pp, const uint64_t *key, uint64_t time)
{
	struct key_probe k = { pp, key };
	uint64_t h = hash_words(key, pp->nr_keys), val;
	struct hashtab_slot *s;

	if (hashtab__reserve(&pp->index, 1))
		return -ENOMEM;
	s = hashtab__slot(&pp->index, h, key_eq, &k);
	if (!s->val) {
		val = entry_new(pp);
		if (!val)
			return -ENOMEM;
		memcpy(entry(pp, val) + 1, key, pp->nr_keys * sizeof(*key));
		hashtab__fill(&pp->index, s, h, val);
	}
	entry(pp, s->val)[0] = time;
	return 0;
}

int ember_heatmap_pairs__end(struct ember_heatmap_pairs *pp, const uint64_t *key,
			     uint64_t *start_time)
{
	struct key_probe k = { pp, key };
	uint64_t h = hash_words(key, pp->nr_keys), val;
	struct hashtab_slot *s = hashtab__slot(&pp->index, h, key_eq, &k);

	if (!s->val)
		return 0;
	val = s->val;
	*start_time = entry(pp, val)[0];
	hashtab__remove(&pp->index, s);
	entry(pp, val)[0] = pp->free_head;
	pp->free_head = val;
	return 1;
}

size_t ember_heatmap_pairs__pending(const struct ember_heatmap_pairs *pp)
{
	return pp->index.nr;
}
