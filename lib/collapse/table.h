/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The collapser's hash tables, lib/core's hash table over arenas:
 *
 * names   each distinct name component (text without ';') gets an id;
 * frames  each distinct frame line (the text after its address) maps to
 *         the component ids of the names it gives, so a line seen before
 *         is neither parsed nor tidied again;
 * stacks  distinct stacks keyed by their component ids, with their counts.
 *
 * A stack's text is its components joined by ';'. Since no component
 * holds a ';', two id sequences are equal exactly when their texts are,
 * so counting by ids counts as Perl's hash of joined strings does; the
 * texts are built once, for the output.
 */
#ifndef EMBER_LIB_COLLAPSE_TABLE_H
#define EMBER_LIB_COLLAPSE_TABLE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "collapse/count.h"
#include "core/hash.h"
#include "core/hashtab.h"
#include "collapse/sbuf.h"

/* A growable array of ids. */
struct id_vec {
	uint32_t *v;
	size_t nr, alloc;
};

/* Room for n more ids. 0 or -ENOMEM. */
int id_vec_grow(struct id_vec *iv, size_t n);

/*
 * Appends n ids. 0 or -ENOMEM. Inline: it runs for every frame line,
 * mostly with one id, where a call (and one to memcpy) cost more than
 * the copy.
 */
static inline int id_vec_add(struct id_vec *iv, const uint32_t *ids, size_t n)
{
	if (n > iv->alloc - iv->nr && id_vec_grow(iv, n))
		return -ENOMEM;
	if (n == 1)
		iv->v[iv->nr] = ids[0];
	else if (n)
		memcpy(iv->v + iv->nr, ids, n * sizeof(*ids));
	iv->nr += n;
	return 0;
}
void id_vec_free(struct id_vec *iv);

struct name_entry {
	size_t off, len;	/* the text in the arena */
};

struct name_table {
	struct name_entry *v;
	size_t nr, alloc;
	struct hashtab ix;	/* id + 1 by hash_bytes() of the text */
	struct sbuf text;
};

/* The id of the component [s, s+n) (no ';' in it), added if new. 0 or -ENOMEM. */
int name_table_intern(struct name_table *t, const char *s, size_t n, uint32_t *id);
/*
 * Appends the ids of the components of [s, s+n), split at every ';'
 * (empty components included: "a;;b" has three), to ids. 0 or -ENOMEM.
 */
int name_table_split(struct name_table *t, const char *s, size_t n, struct id_vec *ids);
void name_table_free(struct name_table *t);

/*
 * The roots (process names) seen, whole, each with the ids of its
 * components in the names: a profile has few processes and many samples,
 * so a header's root is looked up whole in this small table, which stays
 * in the cache, instead of split and looked up a component at a time.
 */
struct root_table {
	struct name_table whole;	/* the texts; a root's id is its id here */
	struct id_vec ids;		/* the components, root after root */
	struct id_vec at;		/* root i's ids: at.v[2i] from ids.v[at.v[2i + 1]] */
};

/* The id of the root [s, s+n) (added if new, its components to names). 0 or -ENOMEM. */
int root_table_intern(struct root_table *rt, struct name_table *names, const char *s, size_t n,
		      uint32_t *id);

static inline const uint32_t *root_table_ids(const struct root_table *rt, uint32_t id, size_t *n)
{
	*n = rt->at.v[2 * id];
	return rt->ids.v + rt->at.v[2 * id + 1];
}

void root_table_free(struct root_table *rt);

/*
 * A cached frame line, in the cache's arena: this header, the key (the
 * line's text after its address), then its component ids at the next
 * multiple of 4. One record is one or two cache lines, all a hit needs.
 */
struct frame_rec {
	uint32_t key_len;
	uint32_t nids;		/* FRAME_REC_JAVA | the number of ids; 0 ids: no frame */
	/*
	 * The record (ref) of the frame line that came right after this one
	 * last time, 0 for none: callers repeat, so the next line is tried
	 * against it before it is hashed and looked up.
	 */
	uint32_t next;
	uint32_t next2;		/* the record of the line after that, last time, 0 for none */
	/*
	 * The one that came after this one before next did, 0 for none: a
	 * function called from two places alternates between two callers,
	 * and a second guess costs less than the lookup.
	 */
	uint32_t alt;
	char key[];
};

#define FRAME_REC_JAVA 0x80000000u

/* Records are named by refs: their offset in the arena + 1 (0 is none). */
struct frame_cache {
	struct sbuf arena;
	size_t nr;
	struct hashtab ix;	/* refs by hash_bytes() of the key */
	uint32_t first;		/* as next, for the first frame line of a sample */
};

static inline struct frame_rec *frame_rec(const struct frame_cache *fc, uint32_t ref)
{
	return (struct frame_rec *)(fc->arena.buf + ref - 1);
}

static inline const uint32_t *frame_rec_ids(const struct frame_rec *r)
{
	return (const uint32_t *)(r->key + ((r->key_len + 3) & ~3u));
}

#ifdef __SSE2__
/* The bytes equal among the 16 at a and at b. */
static inline __m128i eq16(const char *a, const char *b)
{
	return _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)a),
			      _mm_loadu_si128((const __m128i *)b));
}
#endif

/* Whether the record's key is [key, key+len) with the java flag given. */
static inline bool frame_rec_is(const struct frame_rec *r, const char *key, size_t len, bool java)
{
	uint64_t x, y;
	size_t i;

	if (r->key_len != len || !(r->nids & FRAME_REC_JAVA) != !java)
		return false;
	if (len < 8)
		return !memcmp(r->key, key, len);
	/*
	 * 16 (else 8) bytes at a time, the last block overlapping: keys are
	 * some 45 bytes, a call to memcmp costs more.
	 */
#ifdef __SSE2__
	if (len >= 16) {
		__m128i eq = _mm_and_si128(eq16(r->key, key),
					   eq16(r->key + len - 16, key + len - 16));

		for (i = 16; i + 16 < len; i += 16)
			eq = _mm_and_si128(eq, eq16(r->key + i, key + i));
		return _mm_movemask_epi8(eq) == 0xffff;
	}
#endif
	for (i = 0; i + 8 < len; i += 8) {
		memcpy(&x, r->key + i, 8);
		memcpy(&y, key + i, 8);
		if (x != y)
			return false;
	}
	memcpy(&x, r->key + len - 8, 8);
	memcpy(&y, key + len - 8, 8);
	return x == y;
}

/* The record for key (its hash given, from hash_bytes()) and java flag, or 0. */
uint32_t frame_cache_find(const struct frame_cache *fc, const char *key, size_t len, uint64_t hash,
			  bool java);
/*
 * A lookup of the key whose hash is given is coming: stage 1 asks for
 * its slot, stage 2 (once the slot has come) for the record it names.
 */
void frame_cache_prefetch(const struct frame_cache *fc, uint64_t hash, int stage);
/*
 * Adds a line not found by frame_cache_find(): it gives the components
 * ids[0..nids). *ref is set to the new record, or 0 when past a size
 * bound the cache no longer grows (hostile input with endless distinct
 * lines costs time, not memory). 0 or -ENOMEM.
 */
int frame_cache_add(struct frame_cache *fc, const char *key, size_t len, uint64_t hash, bool java,
		    const uint32_t *ids, uint32_t nids, uint32_t *ref);
void frame_cache_free(struct frame_cache *fc);

/*
 * A stack's record in the table's arena: this header, then its ids. A
 * lookup touches the slot and the one record, a cache line or two, and
 * both can be asked for ahead of time (see stack_table_prefetch()).
 */
struct stack_rec {
	struct pnum count;
	uint32_t len;
	uint32_t ids[];
};

struct stack_table {
	struct sbuf arena;	/* records, each at a multiple of 8 bytes */
	size_t *offs;		/* each record's offset in the arena, in insertion order */
	size_t nr, alloc;
	size_t nids;		/* the ids of all records */
	struct hashtab ix;	/* a record's offset / 8 + 1 by its hash */
};

static inline const struct stack_rec *stack_table_rec(const struct stack_table *t, size_t i)
{
	return (const struct stack_rec *)(t->arena.buf + t->offs[i]);
}

static inline uint64_t stack_table_hash(const uint32_t *ids, size_t n)
{
	return hash_bytes(ids, n * sizeof(*ids));
}

/*
 * A lookup of the stack whose hash is given is coming: stage 1 asks for
 * its slot, stage 2 (once the slot has come) for the record the slot
 * names. Hints only: the lookup itself is stack_table_add().
 */
void stack_table_prefetch(const struct stack_table *t, uint64_t hash, int stage);
/* Adds count to the stack ids[0..n)'s total (a new stack starts at 0). 0 or -ENOMEM. */
int stack_table_add(struct stack_table *t, const uint32_t *ids, size_t n, uint64_t hash,
		    const struct pnum *count);
/* Whether the stack ids[0..n) is in the table. */
bool stack_table_has(const struct stack_table *t, const uint32_t *ids, size_t n, uint64_t hash);

/*
 * The stacks in the order of their texts (components joined by ';') by
 * bytes, as Perl's sort { $a cmp $b }: a malloc'd array of t->nr indexes
 * for stack_table_rec() (the caller frees it), NULL with errno set on
 * failure (or when empty, with errno 0). The texts are not built to be
 * compared.
 */
size_t *stack_table_sorted(const struct stack_table *t, const struct name_table *names);
/* Appends the text of stack i to out. 0 or -ENOMEM. */
int stack_table_text(const struct stack_table *t, const struct name_table *names, size_t i,
		     struct sbuf *out);
void stack_table_free(struct stack_table *t);

#endif
