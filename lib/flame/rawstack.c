// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Raw stacks: a sample's recorded words (thread, comm, maps generation,
 * ip, callchain) mapped to the leaf node its folded stack ended in. A
 * stack seen before in the same maps folds the same way: it then costs
 * one hash of its words instead of a resolution, a name lookup and a
 * tree probe per frame. Keys live back to back in one pool.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flame-priv.h"

struct raw_slot {
	uint64_t hash;
	size_t off;		/* of the key in the pool, its length first */
	uint32_t node;
	uint32_t used;
};

struct flame_rawstacks {
	struct raw_slot *table;
	size_t mask, nr;
	uint64_t *pool;
	size_t pool_len, pool_alloc;
	uint64_t lookups, hits;
	bool useless;
};

struct flame_rawstacks *flame_rawstacks__new(void)
{
	struct flame_rawstacks *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->mask = 4095;
	r->table = calloc(r->mask + 1, sizeof(*r->table));
	if (!r->table) {
		free(r);
		return NULL;
	}
	return r;
}

void flame_rawstacks__delete(struct flame_rawstacks *r)
{
	if (!r)
		return;
	free(r->table);
	free(r->pool);
	free(r);
}

static uint64_t key_hash(const uint64_t *key, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;

	for (size_t i = 0; i < n; i++) {
		h ^= key[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

bool flame_rawstacks__useful(struct flame_rawstacks *r)
{
	if (r->useless)
		return false;
	/*
	 * A miss costs a hash and a copy of the key, small next to folding
	 * the stack; but a file of stacks that never repeat would only fill
	 * memory: checked every 16384 lookups, 1 in 8 must hit.
	 */
	if (++r->lookups % 16384)
		return true;
	if (r->hits * 8 >= r->lookups)
		return true;
	r->useless = true;
	free(r->table);
	free(r->pool);
	r->table = NULL;
	r->pool = NULL;
	r->mask = r->nr = r->pool_len = r->pool_alloc = 0;
	return false;
}

int64_t flame_rawstacks__find(struct flame_rawstacks *r, const uint64_t *key, size_t n)
{
	uint64_t h;

	if (r->useless)
		return -1;
	h = key_hash(key, n);
	for (size_t i = h & r->mask; r->table[i].used; i = (i + 1) & r->mask) {
		const struct raw_slot *s = &r->table[i];

		if (s->hash == h && r->pool[s->off] == n &&
		    !memcmp(&r->pool[s->off + 1], key, n * sizeof(*key))) {
			r->hits++;
			return s->node;
		}
	}
	return -1;
}

static int grow(struct flame_rawstacks *r)
{
	size_t nmask = r->mask * 2 + 1;
	struct raw_slot *nt = calloc(nmask + 1, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (size_t i = 0; i <= r->mask; i++) {
		size_t j;

		if (!r->table[i].used)
			continue;
		for (j = r->table[i].hash & nmask; nt[j].used; j = (j + 1) & nmask)
			;
		nt[j] = r->table[i];
	}
	free(r->table);
	r->table = nt;
	r->mask = nmask;
	return 0;
}

int flame_rawstacks__add(struct flame_rawstacks *r, const uint64_t *key, size_t n, uint32_t node)
{
	uint64_t h;
	size_t i;

	if (r->useless)
		return 0;
	if (r->pool_len + n + 1 > r->pool_alloc) {
		size_t alloc = (r->pool_alloc + n + 1) * 2;
		uint64_t *p = realloc(r->pool, alloc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->pool = p;
		r->pool_alloc = alloc;
	}
	h = key_hash(key, n);
	for (i = h & r->mask; r->table[i].used; i = (i + 1) & r->mask)
		;
	r->table[i] = (struct raw_slot){ .hash = h, .off = r->pool_len, .node = node, .used = 1 };
	r->pool[r->pool_len] = n;
	memcpy(&r->pool[r->pool_len + 1], key, n * sizeof(*key));
	r->pool_len += n + 1;
	if (++r->nr * 2 > r->mask)
		return grow(r);
	return 0;
}
