// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "collapse/table.h"
#include "core/array.h"

/* Past this much key text the frame cache stops growing. */
#define FRAME_CACHE_MAX_BYTES (64u << 20)

int id_vec_grow(struct id_vec *iv, size_t n)
{
	size_t alloc = iv->alloc ? iv->alloc : 64;
	uint32_t *v;

	while (alloc - iv->nr < n) {
		if (alloc > (size_t)-1 / 2 / sizeof(*v))
			return -ENOMEM;
		alloc *= 2;
	}
	v = realloc(iv->v, alloc * sizeof(*v));
	if (!v)
		return -ENOMEM;
	iv->v = v;
	iv->alloc = alloc;
	return 0;
}

void id_vec_free(struct id_vec *iv)
{
	free(iv->v);
	memset(iv, 0, sizeof(*iv));
}

struct name_probe {
	const struct name_table *t;
	const char *s;
	size_t n;
};

static bool name_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	const struct name_probe *k = key;
	const struct name_entry *e = &k->t->v[val - 1];

	return e->len == k->n && !memcmp(k->t->text.buf + e->off, k->s, k->n);
}

int name_table_intern(struct name_table *t, const char *str, size_t n, uint32_t *id)
{
	struct name_probe k = { t, str, n };
	uint64_t h = hash_bytes(str, n);
	struct hashtab_slot *s;

	if (t->nr >= UINT32_MAX - 1 || hashtab__reserve(&t->ix, 1))
		return -ENOMEM;
	s = hashtab__slot(&t->ix, h, name_eq, &k);
	if (s->val) {
		*id = s->val - 1;
		return 0;
	}
	if (array__reserve((void **)&t->v, &t->alloc, t->nr, sizeof(*t->v)))
		return -ENOMEM;
	t->v[t->nr] = (struct name_entry){ .off = t->text.len, .len = n };
	if (sbuf_add(&t->text, str, n))
		return -ENOMEM;
	*id = t->nr;
	hashtab__fill(&t->ix, s, h, ++t->nr);
	return 0;
}

int name_table_split(struct name_table *t, const char *s, size_t n, struct id_vec *ids)
{
	const char *end = s + n;

	for (;;) {
		const char *semi = memchr(s, ';', end - s);
		const char *ce = semi ? semi : end;
		uint32_t id;
		int err = name_table_intern(t, s, ce - s, &id);

		err = err ?: id_vec_add(ids, &id, 1);
		if (err)
			return err;
		if (!semi)
			return 0;
		s = semi + 1;
	}
}

void name_table_free(struct name_table *t)
{
	free(t->v);
	hashtab__exit(&t->ix);
	sbuf_free(&t->text);
	memset(t, 0, sizeof(*t));
}

int root_table_intern(struct root_table *rt, struct name_table *names, const char *s, size_t n,
		      uint32_t *id)
{
	int err = name_table_intern(&rt->whole, s, n, id);

	/*
	 * The components of each root not split yet: the new one, and any
	 * whose splitting failed before (out of memory), so that root i's
	 * place in at stays 2i.
	 */
	while (!err && rt->at.nr / 2 <= *id) {
		const struct name_entry *e = &rt->whole.v[rt->at.nr / 2];
		size_t off = rt->ids.nr;
		uint32_t at[2];

		err = name_table_split(names, rt->whole.text.buf + e->off, e->len, &rt->ids);
		if (!err && rt->ids.nr > UINT32_MAX)
			err = -ENOMEM;
		if (err) {
			rt->ids.nr = off;
			break;
		}
		at[0] = rt->ids.nr - off;
		at[1] = off;
		err = id_vec_add(&rt->at, at, 2);
	}
	return err;
}

void root_table_free(struct root_table *rt)
{
	name_table_free(&rt->whole);
	id_vec_free(&rt->ids);
	id_vec_free(&rt->at);
}

struct frame_probe {
	const struct frame_cache *fc;
	const char *key;
	size_t len;
	bool java;
};

static bool frame_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	const struct frame_probe *k = key;

	return frame_rec_is(frame_rec(k->fc, val), k->key, k->len, k->java);
}

uint32_t frame_cache_find(const struct frame_cache *fc, const char *key, size_t len, uint64_t hash,
			  bool java)
{
	struct frame_probe k = { fc, key, len, java };

	return hashtab__get(&fc->ix, hash, frame_eq, &k);
}

void frame_cache_prefetch(const struct frame_cache *fc, uint64_t hash, int stage)
{
	const struct hashtab_slot *sl;

	if (!fc->ix.slots)
		return;
	sl = hashtab__home(&fc->ix, hash);
	if (stage == 1)
		__builtin_prefetch(sl);
	else if (sl->val && sl->hash == hash)
		__builtin_prefetch(frame_rec(fc, sl->val));
}

int frame_cache_add(struct frame_cache *fc, const char *key, size_t len, uint64_t hash, bool java,
		    const uint32_t *ids, uint32_t nids, uint32_t *ref)
{
	struct frame_rec hdr = { .key_len = len, .nids = nids | (java ? FRAME_REC_JAVA : 0) };
	struct frame_probe k = { fc, key, len, java };
	static const char pad[4];
	size_t off = fc->arena.len;
	struct hashtab_slot *s;

	*ref = 0;
	if (off + len > FRAME_CACHE_MAX_BYTES || nids >= FRAME_REC_JAVA)
		return 0;
	if (fc->nr >= UINT32_MAX - 1 || hashtab__reserve(&fc->ix, 1))
		return -ENOMEM;
	s = hashtab__slot(&fc->ix, hash, frame_eq, &k);
	if (sbuf_add(&fc->arena, &hdr, sizeof(hdr)) || sbuf_add(&fc->arena, key, len) ||
	    sbuf_add(&fc->arena, pad, -len & 3) ||
	    sbuf_add(&fc->arena, ids, nids * sizeof(*ids))) {
		fc->arena.len = off;
		return -ENOMEM;
	}
	hashtab__fill(&fc->ix, s, hash, off + 1);
	fc->nr++;
	*ref = off + 1;
	return 0;
}

void frame_cache_free(struct frame_cache *fc)
{
	sbuf_free(&fc->arena);
	hashtab__exit(&fc->ix);
	memset(fc, 0, sizeof(*fc));
}

static struct stack_rec *stack_rec_at(const struct stack_table *t, uint32_t idx)
{
	return (struct stack_rec *)(t->arena.buf + (size_t)(idx - 1) * 8);
}

void stack_table_prefetch(const struct stack_table *t, uint64_t hash, int stage)
{
	const struct hashtab_slot *sl;

	if (!t->ix.slots)
		return;
	sl = hashtab__home(&t->ix, hash);
	if (stage == 1) {
		__builtin_prefetch(sl);
	} else if (sl->val && sl->hash == hash) {
		const char *r = (const char *)stack_rec_at(t, sl->val);

		/* the header and the first dozen ids: most stacks */
		__builtin_prefetch(r);
		__builtin_prefetch(r + 64);
	}
}

struct stack_probe {
	const struct stack_table *t;
	const uint32_t *ids;
	size_t n;
};

static bool stack_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	const struct stack_probe *k = key;
	const struct stack_rec *r = stack_rec_at(k->t, val);

	return r->len == k->n && !memcmp(r->ids, k->ids, k->n * sizeof(*k->ids));
}

bool stack_table_has(const struct stack_table *t, const uint32_t *ids, size_t n, uint64_t hash)
{
	struct stack_probe k = { t, ids, n };

	return hashtab__get(&t->ix, hash, stack_eq, &k);
}

int stack_table_add(struct stack_table *t, const uint32_t *ids, size_t n, uint64_t hash,
		    const struct pnum *count)
{
	struct stack_rec hdr = { .len = n };
	size_t off = t->arena.len, hsz = offsetof(struct stack_rec, ids);
	size_t size = hsz + n * sizeof(*ids);
	struct stack_probe k = { t, ids, n };
	static const char pad[8];
	struct hashtab_slot *s;
	struct stack_rec *r;

	if (hashtab__reserve(&t->ix, 1))
		return -ENOMEM;
	s = hashtab__slot(&t->ix, hash, stack_eq, &k);
	if (s->val) {
		pnum_add(&stack_rec_at(t, s->val)->count, count);
		return 0;
	}
	/* a record is named by its offset / 8, in 32 bits */
	if (off / 8 >= UINT32_MAX - 1 || n >= UINT32_MAX ||
	    array__reserve((void **)&t->offs, &t->alloc, t->nr, sizeof(*t->offs)))
		return -ENOMEM;
	if (sbuf_add(&t->arena, &hdr, hsz) || sbuf_add(&t->arena, ids, n * sizeof(*ids)) ||
	    sbuf_add(&t->arena, pad, -size & 7)) {
		t->arena.len = off;
		return -ENOMEM;
	}
	r = (struct stack_rec *)(t->arena.buf + off);
	pnum_add(&r->count, count);
	t->offs[t->nr++] = off;
	t->nids += n;
	hashtab__fill(&t->ix, s, hash, off / 8 + 1);
	return 0;
}

/*
 * Sorting stacks without their texts. Between two texts the first
 * difference lies in the first component where they differ, compared
 * together with the byte after it: ';' when more follows, the end of the
 * text otherwise (lower than any byte). A component holds no ';', so
 * "name;" and "name<end>" strings, one of each per name, sort into ranks
 * that compare as the texts would; a stack becomes its ranks, compared as
 * numbers.
 */
struct name_key {
	const char *s;
	size_t len;
	uint32_t id;
	bool last;	/* ends the text, else ';' follows */
};

static int cmp_name_keys(const void *pa, const void *pb)
{
	const struct name_key *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = n ? memcmp(a->s, b->s, n) : 0;
	/* the byte after the common part: the end is -1, below every byte */
	int ca, cb;

	if (c)
		return c;
	ca = a->len > n ? (unsigned char)a->s[n] : a->last ? -1 : ';';
	cb = b->len > n ? (unsigned char)b->s[n] : b->last ? -1 : ';';
	return (ca > cb) - (ca < cb);
}

struct rank_sort {
	const uint32_t *ranks;	/* stack i's ranks: ranks[start[i]..start[i + 1]) */
	const size_t *start;
};

static int cmp_stacks(const void *pa, const void *pb, void *arg)
{
	const struct rank_sort *rs = arg;
	size_t i = *(const size_t *)pa, j = *(const size_t *)pb;
	/* the lengths from start[], not the records: those are all over the arena */
	size_t la = rs->start[i + 1] - rs->start[i], lb = rs->start[j + 1] - rs->start[j];
	const uint32_t *a = rs->ranks + rs->start[i], *b = rs->ranks + rs->start[j];
	size_t n = la < lb ? la : lb;

	for (size_t k = 0; k < n; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return la < lb ? -1 : la > lb;
}

size_t *stack_table_sorted(const struct stack_table *t, const struct name_table *names)
{
	struct name_key *keys = NULL;
	uint32_t *rank = NULL, *ranks = NULL;
	size_t *idx = NULL, *start = NULL;
	size_t nk = 2 * names->nr, at = 0;

	errno = 0;
	if (!t->nr)
		return NULL;
	keys = malloc(nk * sizeof(*keys));
	rank = malloc(nk * sizeof(*rank));
	ranks = malloc((t->nids ? t->nids : 1) * sizeof(*ranks));
	start = malloc((t->nr + 1) * sizeof(*start));
	idx = malloc(t->nr * sizeof(*idx));
	if (!keys || !rank || !ranks || !start || !idx) {
		free(idx);
		idx = NULL;
		errno = ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nk; i++) {
		const struct name_entry *e = &names->v[i / 2];

		keys[i] = (struct name_key){ names->text.buf + e->off, e->len, i / 2, i & 1 };
	}
	qsort(keys, nk, sizeof(*keys), cmp_name_keys);
	for (size_t i = 0; i < nk; i++)
		rank[2 * keys[i].id + keys[i].last] = i;
	for (size_t i = 0; i < t->nr; i++) {
		const struct stack_rec *r = stack_table_rec(t, i);

		start[i] = at;
		for (size_t j = 0; j < r->len; j++)
			ranks[at++] = rank[2 * r->ids[j] + (j + 1 == r->len)];
		idx[i] = i;
	}
	start[t->nr] = at;
	qsort_r(idx, t->nr, sizeof(*idx), cmp_stacks,
		&(struct rank_sort){ .ranks = ranks, .start = start });
out:
	free(keys);
	free(rank);
	free(ranks);
	free(start);
	return idx;
}

int stack_table_text(const struct stack_table *t, const struct name_table *names, size_t i,
		     struct sbuf *out)
{
	const struct stack_rec *r = stack_table_rec(t, i);

	for (size_t j = 0; j < r->len; j++) {
		const struct name_entry *ne = &names->v[r->ids[j]];

		if ((j && sbuf_addc(out, ';')) || sbuf_add(out, names->text.buf + ne->off, ne->len))
			return -ENOMEM;
	}
	return 0;
}

void stack_table_free(struct stack_table *t)
{
	sbuf_free(&t->arena);
	free(t->offs);
	hashtab__exit(&t->ix);
	memset(t, 0, sizeof(*t));
}
