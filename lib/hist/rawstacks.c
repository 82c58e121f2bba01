// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Raw stacks: keys of 64-bit words in one pool, found through lib/core's
 * hash table. A system-wide profile looks up every sample here and stores
 * tens of thousands of keys that hardly repeat: a lookup costs a cache
 * miss on the table and one on the pool, so a slot holds only the key's
 * hash and where it is in the pool (another key's slot is passed without
 * reading the pool), and the key's length and value sit in the pool just
 * before its words, on the line the comparison reads anyway.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/hash.h"
#include "core/hashtab.h"
#include "hist/rawstacks.h"

/*
 * pool: each key as a header word (its length in words << 32 | its
 * value), then its words; table: hash_words() of the key, the offset of
 * its header in pool + 1.
 */
struct hist_raw {
	struct hashtab table;
	uint64_t *pool;
	size_t pool_len, pool_alloc;
	uint64_t lookups, hits;
	bool useless;
};

struct hist_raw *hist_raw__new(void)
{
	struct hist_raw *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	if (hashtab__reserve(&r->table, 2048)) {
		free(r);
		return NULL;
	}
	return r;
}

void hist_raw__delete(struct hist_raw *r)
{
	if (!r)
		return;
	hashtab__exit(&r->table);
	free(r->pool);
	free(r);
}

struct raw_probe {
	const uint64_t *pool, *key;
	size_t n;
};

static inline bool raw_eq(const struct hashtab_slot *s, const void *key)
{
	const struct raw_probe *p = key;
	const uint64_t *e = &p->pool[s->val - 1];

	return *e >> 32 == p->n && !memcmp(e + 1, p->key, p->n * sizeof(*p->key));
}

int64_t hist_raw__find(struct hist_raw *r, const uint64_t *key, size_t n)
{
	struct raw_probe p = { r->pool, key, n };
	const struct hashtab_slot *s;

	if (r->useless)
		return -1;
	s = hashtab__find(&r->table, hash_words(key, n), raw_eq, &p);
	if (!s)
		return -1;
	r->hits++;
	return (uint32_t)r->pool[s->val - 1];
}

bool hist_raw__useful(struct hist_raw *r)
{
	if (r->useless)
		return false;
	/*
	 * Checked every 8192 lookups, on those alone (the first ones find an
	 * empty table): at least three in four must have hit. A hit saves
	 * the chain's probes of the frame cache (frameids.h) and the fold,
	 * but a miss costs a probe here and a key kept, most of it cache
	 * misses and new pages: a system-wide profile whose stacks repeat
	 * 60% of the time is 13% faster without the table, one at 85% as
	 * fast, one at 99% (a busy loop) 15% slower.
	 */
	if (++r->lookups < 8192)
		return true;
	if (r->hits * 4 >= r->lookups * 3) {
		r->lookups = r->hits = 0;
		return true;
	}
	r->useless = true;
	hashtab__exit(&r->table);
	free(r->pool);
	r->pool = NULL;
	r->pool_len = r->pool_alloc = 0;
	return false;
}

int hist_raw__add(struct hist_raw *r, const uint64_t *key, size_t n, uint32_t value)
{
	struct raw_probe p = { r->pool, key, n };
	struct hashtab_slot *s;
	uint64_t h;

	if (r->useless)
		return 0;
	/* a length is kept in 32 bits: a key that long is not worth keeping */
	if (n > UINT32_MAX)
		return 0;
	if (r->pool_len + n + 1 > r->pool_alloc) {
		size_t alloc = (r->pool_alloc + n + 1) * 2;
		uint64_t *np = realloc(r->pool, alloc * sizeof(*np));

		if (!np)
			return -ENOMEM;
		r->pool = np;
		p.pool = np;
		r->pool_alloc = alloc;
	}
	if (hashtab__reserve(&r->table, 1))
		return -ENOMEM;
	h = hash_words(key, n);
	s = hashtab__slot(&r->table, h, raw_eq, &p);
	if (s->val)
		return 0;
	hashtab__fill(&r->table, s, h, r->pool_len + 1);
	r->pool[r->pool_len] = (uint64_t)n << 32 | value;
	memcpy(&r->pool[r->pool_len + 1], key, n * sizeof(*key));
	r->pool_len += n + 1;
	return 0;
}
