// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Raw stacks: keys of 64-bit words in one pool, an open-addressing table
 * over them. A system-wide profile looks up every sample here and stores
 * tens of thousands of keys that hardly repeat: a lookup costs a cache
 * miss on the table and one on the pool, so slots are kept small (16
 * bytes, the key's length and the low half of its hash in them: another
 * key's slot is passed without reading the pool, and the table grows
 * without hashing the keys again) and the hash is cheap.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist/rawstacks.h"

struct raw_slot {
	uint32_t tag;		/* the hash's low half with the top bit set; 0: empty */
	uint32_t len;		/* of the key, in words */
	uint32_t off;		/* of the key in pool, in words */
	uint32_t value;
};

struct hist_raw {
	struct raw_slot *table;
	size_t mask, nr;
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
	r->mask = 4095;
	r->table = calloc(r->mask + 1, sizeof(*r->table));
	if (!r->table) {
		free(r);
		return NULL;
	}
	return r;
}

void hist_raw__delete(struct hist_raw *r)
{
	if (!r)
		return;
	free(r->table);
	free(r->pool);
	free(r);
}

/* 64 x 64 -> 128 multiply, folded: every bit of x and y reaches the result. */
static inline uint64_t mum(uint64_t x, uint64_t y)
{
	__uint128_t p = (__uint128_t)x * y;

	return (uint64_t)p ^ (uint64_t)(p >> 64);
}

/*
 * A hash of key[0, n): two chains of multiplies, each taking two words a
 * step, so a step's latency covers four words (a raw stack is 10 to 100
 * words, hashed for every sample). Chained, not summed: the same words in
 * another order hash apart.
 */
static uint64_t raw_hash(const uint64_t *w, size_t n)
{
	const uint64_t k0 = 0xa0761d6478bd642fULL, k1 = 0xe7037ed1a0b428dbULL,
		       k2 = 0x8ebc6af09c88c6e3ULL, k3 = 0x589965cc75374cc3ULL;
	uint64_t a = k0 ^ n, b = k1;
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		a = mum(a ^ w[i], w[i + 1] ^ k2);
		b = mum(b ^ w[i + 2], w[i + 3] ^ k3);
	}
	for (; i < n; i++)
		a = mum(a ^ w[i], k2 ^ i);
	return mum(a ^ k1, b ^ k3);
}

/*
 * A slot's home is h & mask, so the tag holds the bits a bigger table
 * needs, as long as it has fewer than 2^31 slots (hist_raw__add() stops
 * well before); the home's own bits repeat in every key near it, the
 * others tell keys apart.
 */
#define RAW_MAX_KEYS (1U << 28)

static inline uint32_t tag_of(uint64_t h)
{
	return (uint32_t)h | 1U << 31;
}

int64_t hist_raw__find(struct hist_raw *r, const uint64_t *key, size_t n)
{
	uint64_t h;
	uint32_t tag;
	size_t i;

	if (r->useless)
		return -1;
	h = raw_hash(key, n);
	tag = tag_of(h);
	for (i = h & r->mask; r->table[i].tag; i = (i + 1) & r->mask) {
		const struct raw_slot *s = &r->table[i];

		if (s->tag == tag && s->len == n &&
		    !memcmp(&r->pool[s->off], key, n * sizeof(*key))) {
			r->hits++;
			return s->value;
		}
	}
	return -1;
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
	free(r->table);
	free(r->pool);
	r->table = NULL;
	r->pool = NULL;
	r->mask = r->nr = r->pool_len = r->pool_alloc = 0;
	return false;
}

/* The slot of a key that hashed to h and is not in the table. */
static size_t free_slot(const struct raw_slot *table, size_t mask, uint64_t h)
{
	size_t i;

	for (i = h & mask; table[i].tag; i = (i + 1) & mask)
		;
	return i;
}

static int grow(struct hist_raw *r)
{
	size_t nmask = r->mask * 2 + 1;
	struct raw_slot *nt = calloc(nmask + 1, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (size_t i = 0; i <= r->mask; i++) {
		const struct raw_slot *s = &r->table[i];

		if (s->tag)
			nt[free_slot(nt, nmask, s->tag)] = *s;
	}
	free(r->table);
	r->table = nt;
	r->mask = nmask;
	return 0;
}

int hist_raw__add(struct hist_raw *r, const uint64_t *key, size_t n, uint32_t value)
{
	uint64_t h;

	if (r->useless)
		return 0;
	/* offsets and lengths are 32-bit, tags hold 31 bits of a slot: a table that big is full */
	if (n > UINT32_MAX || r->pool_len + n > UINT32_MAX || r->nr >= RAW_MAX_KEYS)
		return 0;
	if (r->pool_len + n > r->pool_alloc) {
		size_t alloc = (r->pool_alloc + n) * 2;
		uint64_t *p = realloc(r->pool, alloc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->pool = p;
		r->pool_alloc = alloc;
	}
	h = raw_hash(key, n);
	r->table[free_slot(r->table, r->mask, h)] = (struct raw_slot){
		.tag = tag_of(h), .len = n, .off = r->pool_len, .value = value,
	};
	memcpy(&r->pool[r->pool_len], key, n * sizeof(*key));
	r->pool_len += n;
	/* at 3/4 full, as the stacks' tables (stacks.c) */
	if (++r->nr * 4 > r->mask * 3)
		return grow(r);
	return 0;
}
