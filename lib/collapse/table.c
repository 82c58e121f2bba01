// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "collapse/table.h"

/* Past this much key text the frame cache stops growing. */
#define FRAME_CACHE_MAX_BYTES (64u << 20)

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint64_t load32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The 128-bit product folded to 64 bits: one multiply mixes 16 bytes. */
static inline uint64_t mum(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/*
 * Every input line's key is hashed, so the hash must cost a few cycles
 * per 16 bytes: the last block is read overlapping the one before instead
 * of byte by byte (the length, mixed in, keeps keys apart).
 */
uint64_t collapse_hash(const void *p, size_t len)
{
	const uint64_t k1 = 0xa0761d6478bd642full, k2 = 0xe7037ed1a0b428dbull,
		       k3 = 0x8ebc6af09c88c6e3ull;
	const unsigned char *s = p, *end = s + len;
	uint64_t h = 0x243f6a8885a308d3ull ^ len, x, y;

	if (len > 16) {
		for (size_t n = len; n > 16; n -= 16, s += 16)
			h = mum(load64(s) ^ k1, load64(s + 8) ^ h);
		x = load64(end - 16);
		y = load64(end - 8);
	} else if (len >= 8) {
		x = load64(s);
		y = load64(end - 8);
	} else if (len >= 4) {
		x = load32(s);
		y = load32(end - 4);
	} else {
		x = len ? (uint64_t)s[0] << 16 | (uint64_t)s[len / 2] << 8 | s[len - 1] : 0;
		y = 0;
	}
	h = mum(x ^ k1, y ^ h ^ k2);
	return mum(h ^ k3, len ^ k1);
}

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

/*
 * Makes room for one more entry in an index over nr entries (each
 * starting with its uint64_t hash, stride bytes apart), keeping the load
 * at most one half. 0 or -ENOMEM.
 */
static int hindex_reserve(struct hindex *ix, const void *entries, size_t stride, size_t nr)
{
	size_t nslots;
	struct hslot *slots;

	if (nr >= UINT32_MAX - 1)
		return -ENOMEM;
	if ((nr + 1) * 2 <= ix->nslots)
		return 0;
	nslots = ix->nslots ? ix->nslots * 2 : 1024;
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		uint64_t h;
		size_t s;

		memcpy(&h, (const char *)entries + i * stride, sizeof(h));
		for (s = h & (nslots - 1); slots[s].idx; s = (s + 1) & (nslots - 1))
			;
		slots[s] = (struct hslot){ (uint32_t)i + 1, (uint32_t)(h >> 32) };
	}
	free(ix->slots);
	ix->slots = slots;
	ix->nslots = nslots;
	return 0;
}

/* Room for one more entry in *v (of *alloc, each size bytes). 0 or -ENOMEM. */
static int reserve_entry(void **v, size_t *alloc, size_t nr, size_t size)
{
	size_t n;
	void *p;

	if (nr < *alloc)
		return 0;
	n = *alloc ? *alloc * 2 : 256;
	if (n > (size_t)-1 / size)
		return -ENOMEM;
	p = realloc(*v, n * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*alloc = n;
	return 0;
}

int name_table_intern(struct name_table *t, const char *str, size_t n, uint32_t *id)
{
	uint64_t h = collapse_hash(str, n);
	uint32_t tag = h >> 32;
	size_t s, mask;

	if (hindex_reserve(&t->ix, t->v, sizeof(*t->v), t->nr))
		return -ENOMEM;
	mask = t->ix.nslots - 1;
	for (s = h & mask; t->ix.slots[s].idx; s = (s + 1) & mask) {
		const struct hslot *sl = &t->ix.slots[s];
		const struct name_entry *e = &t->v[sl->idx - 1];

		if (sl->tag == tag && e->len == n && !memcmp(t->text.buf + e->off, str, n)) {
			*id = sl->idx - 1;
			return 0;
		}
	}
	if (reserve_entry((void **)&t->v, &t->alloc, t->nr, sizeof(*t->v)))
		return -ENOMEM;
	t->v[t->nr] = (struct name_entry){ .hash = h, .off = t->text.len, .len = n };
	if (sbuf_add(&t->text, str, n))
		return -ENOMEM;
	*id = t->nr;
	t->ix.slots[s] = (struct hslot){ (uint32_t)++t->nr, tag };
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
	free(t->ix.slots);
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

static size_t frame_rec_size(const struct frame_rec *r)
{
	return sizeof(*r) + ((r->key_len + 3) & ~3u) + (r->nids & ~FRAME_REC_JAVA) * sizeof(uint32_t);
}

/* As hindex_reserve(), for the records of the arena (their hashes computed again). */
static int frame_cache_reserve(struct frame_cache *fc)
{
	struct hindex ix = { 0 };
	size_t mask;

	if (fc->nr >= UINT32_MAX - 1)
		return -ENOMEM;
	if ((fc->nr + 1) * 2 <= fc->ix.nslots)
		return 0;
	ix.nslots = fc->ix.nslots ? fc->ix.nslots * 2 : 1024;
	ix.slots = calloc(ix.nslots, sizeof(*ix.slots));
	if (!ix.slots)
		return -ENOMEM;
	mask = ix.nslots - 1;
	for (size_t off = 0; off < fc->arena.len;) {
		const struct frame_rec *r = frame_rec(fc, off + 1);
		uint64_t h = collapse_hash(r->key, r->key_len);
		size_t s;

		for (s = h & mask; ix.slots[s].idx; s = (s + 1) & mask)
			;
		ix.slots[s] = (struct hslot){ (uint32_t)off + 1, (uint32_t)(h >> 32) };
		off += frame_rec_size(r);
	}
	free(fc->ix.slots);
	fc->ix = ix;
	return 0;
}

uint32_t frame_cache_find(const struct frame_cache *fc, const char *key, size_t len, uint64_t hash,
			  bool java)
{
	uint32_t tag = hash >> 32;
	size_t mask, s;

	if (!fc->ix.nslots)
		return 0;
	mask = fc->ix.nslots - 1;
	for (s = hash & mask; fc->ix.slots[s].idx; s = (s + 1) & mask) {
		const struct hslot *sl = &fc->ix.slots[s];

		if (sl->tag == tag && frame_rec_is(frame_rec(fc, sl->idx), key, len, java))
			return sl->idx;
	}
	return 0;
}

void frame_cache_prefetch(const struct frame_cache *fc, uint64_t hash, int stage)
{
	const struct hslot *sl;

	if (!fc->ix.nslots)
		return;
	sl = &fc->ix.slots[hash & (fc->ix.nslots - 1)];
	if (stage == 1)
		__builtin_prefetch(sl);
	else if (sl->idx && sl->tag == (uint32_t)(hash >> 32))
		__builtin_prefetch(frame_rec(fc, sl->idx));
}

int frame_cache_add(struct frame_cache *fc, const char *key, size_t len, uint64_t hash, bool java,
		    const uint32_t *ids, uint32_t nids, uint32_t *ref)
{
	struct frame_rec hdr = { .key_len = len, .nids = nids | (java ? FRAME_REC_JAVA : 0) };
	static const char pad[4];
	size_t mask, s, off = fc->arena.len;

	*ref = 0;
	if (off + len > FRAME_CACHE_MAX_BYTES || nids >= FRAME_REC_JAVA)
		return 0;
	if (frame_cache_reserve(fc))
		return -ENOMEM;
	mask = fc->ix.nslots - 1;
	for (s = hash & mask; fc->ix.slots[s].idx; s = (s + 1) & mask)
		;
	if (sbuf_add(&fc->arena, &hdr, sizeof(hdr)) || sbuf_add(&fc->arena, key, len) ||
	    sbuf_add(&fc->arena, pad, -len & 3) ||
	    sbuf_add(&fc->arena, ids, nids * sizeof(*ids))) {
		fc->arena.len = off;
		return -ENOMEM;
	}
	fc->ix.slots[s] = (struct hslot){ (uint32_t)off + 1, (uint32_t)(hash >> 32) };
	fc->nr++;
	*ref = off + 1;
	return 0;
}

void frame_cache_free(struct frame_cache *fc)
{
	sbuf_free(&fc->arena);
	free(fc->ix.slots);
	memset(fc, 0, sizeof(*fc));
}

static struct stack_rec *stack_rec_at(const struct stack_table *t, uint32_t idx)
{
	return (struct stack_rec *)(t->arena.buf + (size_t)(idx - 1) * 8);
}

/* As hindex_reserve(), for the records of the arena. */
static int stack_table_reserve(struct stack_table *t)
{
	struct hindex ix = { 0 };
	size_t mask;

	if ((t->nr + 1) * 2 <= t->ix.nslots)
		return 0;
	ix.nslots = t->ix.nslots ? t->ix.nslots * 2 : 1024;
	ix.slots = calloc(ix.nslots, sizeof(*ix.slots));
	if (!ix.slots)
		return -ENOMEM;
	mask = ix.nslots - 1;
	for (size_t i = 0; i < t->nr; i++) {
		uint64_t h = stack_table_rec(t, i)->hash;
		size_t s;

		for (s = h & mask; ix.slots[s].idx; s = (s + 1) & mask)
			;
		ix.slots[s] = (struct hslot){ (uint32_t)(t->offs[i] / 8 + 1), (uint32_t)(h >> 32) };
	}
	free(t->ix.slots);
	t->ix = ix;
	return 0;
}

void stack_table_prefetch(const struct stack_table *t, uint64_t hash, int stage)
{
	const struct hslot *sl;

	if (!t->ix.nslots)
		return;
	sl = &t->ix.slots[hash & (t->ix.nslots - 1)];
	if (stage == 1) {
		__builtin_prefetch(sl);
	} else if (sl->idx && sl->tag == (uint32_t)(hash >> 32)) {
		const char *r = (const char *)stack_rec_at(t, sl->idx);

		/* the header and the first dozen ids: most stacks */
		__builtin_prefetch(r);
		__builtin_prefetch(r + 64);
	}
}

/* The slot of the stack ids[0..n): its record's, or the empty one it would take. */
static size_t stack_table_slot(const struct stack_table *t, const uint32_t *ids, size_t n,
			       uint64_t hash)
{
	uint32_t tag = hash >> 32;
	size_t s, mask = t->ix.nslots - 1;

	for (s = hash & mask; t->ix.slots[s].idx; s = (s + 1) & mask) {
		const struct hslot *sl = &t->ix.slots[s];
		const struct stack_rec *r = stack_rec_at(t, sl->idx);

		if (sl->tag == tag && r->len == n && !memcmp(r->ids, ids, n * sizeof(*ids)))
			break;
	}
	return s;
}

bool stack_table_has(const struct stack_table *t, const uint32_t *ids, size_t n, uint64_t hash)
{
	return t->ix.nslots && t->ix.slots[stack_table_slot(t, ids, n, hash)].idx;
}

int stack_table_add(struct stack_table *t, const uint32_t *ids, size_t n, uint64_t hash,
		    const struct pnum *count)
{
	struct stack_rec hdr = { .hash = hash, .len = n };
	size_t s, off = t->arena.len, hsz = offsetof(struct stack_rec, ids);
	size_t size = hsz + n * sizeof(*ids);
	static const char pad[8];
	struct stack_rec *r;

	if (stack_table_reserve(t))
		return -ENOMEM;
	s = stack_table_slot(t, ids, n, hash);
	if (t->ix.slots[s].idx) {
		pnum_add(&stack_rec_at(t, t->ix.slots[s].idx)->count, count);
		return 0;
	}
	/* a slot names a record by a 32-bit offset / 8 */
	if (off / 8 >= UINT32_MAX - 1 || n >= UINT32_MAX ||
	    reserve_entry((void **)&t->offs, &t->alloc, t->nr, sizeof(*t->offs)))
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
	t->ix.slots[s] = (struct hslot){ (uint32_t)(off / 8 + 1), (uint32_t)(hash >> 32) };
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
	free(t->ix.slots);
	memset(t, 0, sizeof(*t));
}
