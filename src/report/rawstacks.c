// SPDX-License-Identifier: GPL-2.0-only
/* Raw stacks: keys of 64-bit words in one pool, an open-addressing table over them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/hash.h"
#include "report/rawstacks.h"

struct raw_slot {
	uint64_t hash;
	size_t off;		/* of the key in pool; its length first */
	uint32_t value;
	uint32_t used;
};

struct rep_raw {
	struct raw_slot *table;
	size_t mask, nr;
	uint64_t *pool;
	size_t pool_len, pool_alloc;
	uint64_t lookups, hits;
	bool useless;
};

struct rep_raw *rep_raw__new(void)
{
	struct rep_raw *r = calloc(1, sizeof(*r));

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

void rep_raw__delete(struct rep_raw *r)
{
	if (!r)
		return;
	free(r->table);
	free(r->pool);
	free(r);
}

int64_t rep_raw__find(struct rep_raw *r, const uint64_t *key, size_t n)
{
	uint64_t h = hash_words(key, n);
	size_t i = h & r->mask;

	if (r->useless)
		return -1;
	for (; r->table[i].used; i = (i + 1) & r->mask) {
		const struct raw_slot *s = &r->table[i];

		if (s->hash == h && r->pool[s->off] == n &&
		    !memcmp(&r->pool[s->off + 1], key, n * sizeof(*key))) {
			r->hits++;
			return s->value;
		}
	}
	return -1;
}

bool rep_raw__useful(struct rep_raw *r)
{
	if (r->useless)
		return false;
	/* checked every 8192 lookups: at least 3 in 4 must hit */
	if (++r->lookups % 8192)
		return true;
	if (r->hits * 4 >= r->lookups * 3)
		return true;
	r->useless = true;
	free(r->table);
	free(r->pool);
	r->table = NULL;
	r->pool = NULL;
	r->mask = r->nr = r->pool_len = r->pool_alloc = 0;
	return false;
}

static int grow(struct rep_raw *r)
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

int rep_raw__add(struct rep_raw *r, const uint64_t *key, size_t n, uint32_t value)
{
	uint64_t h = hash_words(key, n);
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
	for (i = h & r->mask; r->table[i].used; i = (i + 1) & r->mask)
		;
	r->table[i] = (struct raw_slot){ .hash = h, .off = r->pool_len, .value = value, .used = 1 };
	r->pool[r->pool_len] = n;
	memcpy(&r->pool[r->pool_len + 1], key, n * sizeof(*key));
	r->pool_len += n + 1;
	if (++r->nr * 2 > r->mask)
		return grow(r);
	return 0;
}
