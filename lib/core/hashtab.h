/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The one hash table: open addressing with linear probing over a
 * power-of-two array of slots. A slot starts with the item's full 64-bit
 * hash and a 64-bit value that names the item: a pointer, an index + 1,
 * or the key itself; value 0 marks an empty slot, so a value is never 0.
 * The owner may give slots a payload after those 16 bytes (stride), for
 * a key or an answer kept in the slot itself: a lookup then reads one
 * cache line and nothing else.
 *
 * The items are the owner's (an array, an arena, the key in the value or
 * the payload): the table only finds them. A probe compares stored
 * hashes and calls the owner's equality only when they match, so it
 * passes other items' slots without reading the items; growing moves
 * slots by their stored hash without hashing anything again; removal
 * shifts the probe run back (no tombstones).
 *
 * The probe is static inline and takes the equality as a function
 * pointer: called with a constant one (declare it static inline), gcc
 * inlines both, so a lookup is the loop a hand-written table would
 * have. Keys that a bijective hash decides (hash_mix64() of a 64-bit
 * key) need no equality at all: pass hashtab__eq_hash and keep the key in
 * the value or nowhere.
 *
 * The table keeps at most half of its slots full: lookups that miss
 * (every insert) stay short, and the biggest tables (millions of
 * entries) still cost 32 bytes an entry with 16-byte slots.
 *
 * Narrow slots (stride 8: the hash's low half and a 32-bit value) are
 * for the hottest tables of indices, looked up for every frame of every
 * sample: twice the slots a cache line, half the table to keep in the
 * cache and to move when it grows. The same table, growth, removal and
 * clearing serve both widths; only the probes are typed (hashtab32__*).
 *
 * Why not a library: uthash (Debian's uthash-dev) chains intrusive
 * nodes, a pointer chase per probe and a handle in every item; klib's
 * khash (not packaged on its own) generates a table per key type from
 * macros, keeps flags in a separate bitmap (another cache line per
 * probe) and stores no hashes, so it rehashes every key when growing
 * and compares keys on every probe; GLib's GHashTable calls its hash and
 * equality through pointers it cannot inline. None lets the items stay
 * where the owner keeps them (an arena, a dense array the output walks
 * in insertion order), which most of ember's tables need.
 */
#ifndef EMBER_CORE_HASHTAB_H
#define EMBER_CORE_HASHTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hashtab_slot {
	uint64_t hash;
	uint64_t val;		/* 0: empty */
	/* then the owner's payload, stride - 16 bytes */
};

/*
 * A narrow slot: the low half of the item's hash (its home is that &
 * mask, so a narrow table stays under 2^32 slots) and a 32-bit value, 0
 * marking an empty slot.
 */
struct hashtab_slot32 {
	uint32_t hash;
	uint32_t val;		/* 0: empty */
};

/*
 * A zeroed struct is an empty table of 16-byte slots; it allocates on the
 * first hashtab__reserve(). For a payload, set stride (a multiple of 8,
 * 16 and up) before that; for narrow slots, set it to 8.
 */
struct hashtab {
	unsigned char *slots;
	size_t mask;		/* number of slots - 1, 0 before the first reserve */
	size_t nr;		/* values held */
	size_t stride;		/* bytes a slot; 0 is 16 */
};

/* Whether the item of slot s (its hash already equal) is key. */
typedef bool (*hashtab_eq_fn)(const struct hashtab_slot *s, const void *key);

/* For keys whose hash is a bijection of the key: equal hashes are equal keys. */
static inline bool hashtab__eq_hash(const struct hashtab_slot *s, const void *key)
{
	return true;
}

/* Grows the table for `more` values beyond those held (see hashtab__reserve()). */
int hashtab__grow(struct hashtab *t, size_t more);

/*
 * Room for `more` values beyond those held, growing (doubling, at least
 * 16 slots) when they would fill more than half the slots. Slot pointers
 * are stale after a growth. 0, or -ENOMEM with the table unchanged.
 */
static inline int hashtab__reserve(struct hashtab *t, size_t more)
{
	if (t->slots && more <= t->mask && (t->nr + more) * 2 <= t->mask + 1)
		return 0;
	return hashtab__grow(t, more);
}

/* Forgets every value, keeping the slots. */
void hashtab__clear(struct hashtab *t);
/* Frees the slots (not the items); the table is empty and reusable (stride kept). */
void hashtab__exit(struct hashtab *t);
/*
 * Removes the value in slot s (from hashtab__slot() or hashtab32__slot());
 * later slots of its probe run move back, so slot pointers are stale
 * after it.
 */
void hashtab__remove(struct hashtab *t, void *s);

/* Slot i of the table (which has slots). */
static inline struct hashtab_slot *hashtab__at(const struct hashtab *t, size_t i)
{
	return (struct hashtab_slot *)(t->slots + i * t->stride);
}

/* The payload of slot s: the bytes after its hash and value. */
static inline void *hashtab__payload(const struct hashtab_slot *s)
{
	return (void *)(s + 1);
}

/* The slot where a probe for hash starts (the table has slots). */
static inline struct hashtab_slot *hashtab__home(const struct hashtab *t, uint64_t hash)
{
	return hashtab__at(t, hash & t->mask);
}

/* A lookup of hash is coming: ask for its home slot's cache line now. */
static inline void hashtab__prefetch(const struct hashtab *t, uint64_t hash)
{
	if (t->slots)
		__builtin_prefetch(hashtab__home(t, hash));
}

/*
 * The slot holding the item equal to key (hash is key's hash), or else
 * the empty slot where it belongs: fill that with hashtab__fill() after a
 * hashtab__reserve(t, 1) made before this call. The table must have
 * slots (a reserve was made once).
 */
__attribute__((always_inline))
static inline struct hashtab_slot *hashtab__slot(const struct hashtab *t, uint64_t hash,
						 hashtab_eq_fn eq, const void *key)
{
	size_t i = hash & t->mask;

	for (;;) {
		struct hashtab_slot *s = hashtab__at(t, i);

		if (!s->val || (s->hash == hash && eq(s, key)))
			return s;
		i = (i + 1) & t->mask;
	}
}

/* The slot of the item equal to key, NULL when there is none. */
__attribute__((always_inline))
static inline struct hashtab_slot *hashtab__find(const struct hashtab *t, uint64_t hash,
						 hashtab_eq_fn eq, const void *key)
{
	struct hashtab_slot *s;

	if (!t->slots)
		return NULL;
	s = hashtab__slot(t, hash, eq, key);
	return s->val ? s : NULL;
}

/* The value of the item equal to key, 0 when there is none. */
__attribute__((always_inline))
static inline uint64_t hashtab__get(const struct hashtab *t, uint64_t hash, hashtab_eq_fn eq,
				    const void *key)
{
	return t->slots ? hashtab__slot(t, hash, eq, key)->val : 0;
}

/*
 * Stores val (not 0) under hash in the empty slot s that hashtab__slot()
 * gave; the owner writes the payload, if any.
 */
static inline void hashtab__fill(struct hashtab *t, struct hashtab_slot *s, uint64_t hash,
				 uint64_t val)
{
	s->hash = hash;
	s->val = val;
	t->nr++;
}

/* The slot after s, NULL past the last (a helper of hashtab__for_each). */
static inline struct hashtab_slot *hashtab__after(const struct hashtab *t,
						  const struct hashtab_slot *s)
{
	const unsigned char *next = (const unsigned char *)s + t->stride;

	return next < t->slots + (t->mask + 1) * t->stride ? (struct hashtab_slot *)next : NULL;
}

/* Every full slot s of t (16-byte slots and up), in slot order (not insertion order). */
#define hashtab__for_each(t, s)							\
	for ((s) = (t)->slots ? hashtab__at((t), 0) : NULL; (s);			\
	     (s) = hashtab__after((t), (s)))					\
		if (!(s)->val) {						\
		} else

/* ---- narrow slots (stride 8): the same probes on struct hashtab_slot32 ---- */

/* Whether the item of narrow slot s (its half hash already equal) is key. */
typedef bool (*hashtab32_eq_fn)(const struct hashtab_slot32 *s, const void *key);

/*
 * For keys of 32 bits whose hash's low half is a bijection of the key
 * (hash_mix32()): equal halves are equal keys.
 */
static inline bool hashtab32__eq_hash(const struct hashtab_slot32 *s, const void *key)
{
	return true;
}

/* Slot i of a narrow table (which has slots). */
static inline struct hashtab_slot32 *hashtab32__at(const struct hashtab *t, size_t i)
{
	return (struct hashtab_slot32 *)t->slots + i;
}

/* As hashtab__slot(), in a narrow table: hash's low half is what the slot keeps. */
__attribute__((always_inline))
static inline struct hashtab_slot32 *hashtab32__slot(const struct hashtab *t, uint64_t hash,
						     hashtab32_eq_fn eq, const void *key)
{
	size_t i = hash & t->mask;

	for (;;) {
		struct hashtab_slot32 *s = hashtab32__at(t, i);

		if (!s->val || (s->hash == (uint32_t)hash && eq(s, key)))
			return s;
		i = (i + 1) & t->mask;
	}
}

/* The value of the item equal to key in a narrow table, 0 when there is none. */
__attribute__((always_inline))
static inline uint32_t hashtab32__get(const struct hashtab *t, uint64_t hash,
				      hashtab32_eq_fn eq, const void *key)
{
	return t->slots ? hashtab32__slot(t, hash, eq, key)->val : 0;
}

/* As hashtab__fill(): val (not 0) under hash in the empty narrow slot s. */
static inline void hashtab32__fill(struct hashtab *t, struct hashtab_slot32 *s, uint64_t hash,
				   uint32_t val)
{
	s->hash = (uint32_t)hash;
	s->val = val;
	t->nr++;
}

#endif
