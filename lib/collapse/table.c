// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "collapse/table.h"

/* A word-at-a-time multiplicative hash: stacks are long, so bytewise hashing would dominate. */
static uint64_t hash_bytes(const char *p, size_t n)
{
	const uint64_t m = 0x9e3779b97f4a7c15ull;
	uint64_t h = 0x243f6a8885a308d3ull ^ (n * m);

	while (n >= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		h = (h ^ w) * m;
		h ^= h >> 29;
		p += 8;
		n -= 8;
	}
	if (n) {
		uint64_t w = 0;

		memcpy(&w, p, n);
		h = (h ^ w) * m;
		h ^= h >> 29;
	}
	h *= m;
	return h ^ (h >> 32);
}

static int grow_slots(struct stack_table *t)
{
	size_t nslots = t->nslots ? t->nslots * 2 : 1024;
	uint32_t *slots;

	if (nslots > UINT32_MAX)
		return -ENOMEM;
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++) {
		size_t s = t->v[i].hash & (nslots - 1);

		while (slots[s])
			s = (s + 1) & (nslots - 1);
		slots[s] = i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

int stack_table_add(struct stack_table *t, const char *key, size_t len, const struct pnum *count)
{
	uint64_t h = hash_bytes(key, len);
	struct stack_entry *e;
	size_t s;

	if ((t->nr + 1) * 4 > t->nslots * 3 && grow_slots(t))
		return -ENOMEM;
	for (s = h & (t->nslots - 1); t->slots[s]; s = (s + 1) & (t->nslots - 1)) {
		e = &t->v[t->slots[s] - 1];
		if (e->hash == h && e->len == len && !memcmp(t->keys.buf + e->off, key, len)) {
			pnum_add(&e->count, count);
			return 0;
		}
	}
	if (t->nr == t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : 256;
		struct stack_entry *v = realloc(t->v, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->alloc = alloc;
	}
	e = &t->v[t->nr];
	*e = (struct stack_entry){ .hash = h, .off = t->keys.len, .len = len };
	if (sbuf_add(&t->keys, key, len))
		return -ENOMEM;
	pnum_add(&e->count, count);
	t->slots[s] = ++t->nr;
	return 0;
}

static int cmp_keys(const void *a, const void *b, void *arg)
{
	const struct stack_table *t = arg;
	const struct stack_entry *x = &t->v[*(const size_t *)a], *y = &t->v[*(const size_t *)b];
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(t->keys.buf + x->off, t->keys.buf + y->off, n);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

size_t *stack_table_sorted(const struct stack_table *t)
{
	size_t *idx;

	errno = 0;
	if (!t->nr)
		return NULL;
	idx = malloc(t->nr * sizeof(*idx));
	if (!idx)
		return NULL;
	for (size_t i = 0; i < t->nr; i++)
		idx[i] = i;
	qsort_r(idx, t->nr, sizeof(*idx), cmp_keys, (void *)t);
	return idx;
}

void stack_table_free(struct stack_table *t)
{
	free(t->v);
	free(t->slots);
	sbuf_free(&t->keys);
	memset(t, 0, sizeof(*t));
}
