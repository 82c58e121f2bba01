/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The one hash table: open addressing with linear probing over a
 * power-of-two array of 16-byte slots, each the item's full 64-bit hash
 * and a 64-bit value that names the item: a pointer, an index + 1, or the
 * key itself. Value 0 marks an empty slot, so a value is never 0.
 *
 * The items are the caller's (an array, an arena, the key in the value):
 * the table only finds them. A probe compares stored hashes and calls the
 * caller's equality only when they match, so it passes other items'
 * slots without reading the items (one cache line holds four slots);
 * growing moves slots by their stored hash without hashing anything
 * again; removal shifts the probe run back (no tombstones).
 *
 * The probe is static inline and takes the equality as a function
 * pointer: called with a constant one, gcc inlines both, so a lookup is
 * the loop a hand-written table would have. Keys that a bijective hash
 * decides (hash_mix64() of a 64-bit key) need no equality at all: pass
 * hashtab__eq_hash and keep the key in the value or nowhere.
 *
 * The table keeps at most half of its slots full: lookups that miss
 * (every insert) stay short, and the biggest tables (millions of
 * entries) still cost 32 bytes an entry.
 *
 * Why not a library: uthash (Debian's uthash-dev) chains intrusive
 * nodes, a pointer chase per probe and a handle in every item; klib's
 * khash (not packaged on its own) generates a table per key type from
 * macros, keeps flags in a separate bitmap (another cache line per
 * probe) and stores no hashes, so it rehashes every key when growing
 * and compares keys on every probe; GLib's GHashTable calls its hash and
 * equality through pointers it cannot inline. None lets the items stay
 * where the caller keeps them (an arena, a dense array the output walks
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
};

/* A zeroed struct is an empty table; it allocates on the first hashtab__reserve(). */
struct hashtab {
	struct hashtab_slot *slots;
	size_t mask;		/* number of slots - 1, 0 before the first reserve */
	size_t nr;		/* values held */
};

/* Whether the item named by val equals key (hashes already equal). */
typedef bool (*hashtab_eq_fn)(uint64_t val, const void *key);

/* For keys whose hash is a bijection of the key: equal hashes are equal keys. */
static inline bool hashtab__eq_hash(uint64_t val, const void *key)
{
	return true;
}

/*
 * Room for `more` values beyond those held, growing (doubling, at least
 * 16 slots) when they would fill more than half the slots. Slot pointers
 * are stale after it. 0, or -ENOMEM with the table unchanged.
 */
int hashtab__reserve(struct hashtab *t, size_t more);
/* Forgets every value, keeping the slots. */
void hashtab__clear(struct hashtab *t);
/* Frees the slots (not the items); the table is empty and reusable. */
void hashtab__exit(struct hashtab *t);
/*
 * Removes the value in slot s (from hashtab__slot()); later slots of its
 * probe run move back, so slot pointers are stale after it.
 */
void hashtab__remove(struct hashtab *t, struct hashtab_slot *s);

/* The slot where a probe for hash starts (the table has slots). */
static inline struct hashtab_slot *hashtab__home(const struct hashtab *t, uint64_t hash)
{
	return &t->slots[hash & t->mask];
}

/* A lookup of hash is coming: ask for its home slot's cache line now. */
static inline void hashtab__prefetch(const struct hashtab *t, uint64_t hash)
{
	if (t->slots)
		__builtin_prefetch(hashtab__home(t, hash));
}

/*
 * The slot holding the value whose item equals key (hash is key's hash),
 * or else the empty slot where it belongs: fill that with hashtab__fill()
 * after a hashtab__reserve(t, 1) made before this call. The table must
 * have slots (a reserve was made once).
 */
__attribute__((always_inline))
static inline struct hashtab_slot *hashtab__slot(const struct hashtab *t, uint64_t hash,
						 hashtab_eq_fn eq, const void *key)
{
	size_t i = hash & t->mask;

	for (;;) {
		struct hashtab_slot *s = &t->slots[i];

		if (!s->val || (s->hash == hash && eq(s->val, key)))
			return s;
		i = (i + 1) & t->mask;
	}
}

/* The value whose item equals key, 0 when there is none. */
__attribute__((always_inline))
static inline uint64_t hashtab__get(const struct hashtab *t, uint64_t hash, hashtab_eq_fn eq,
				    const void *key)
{
	return t->slots ? hashtab__slot(t, hash, eq, key)->val : 0;
}

/* Stores val (not 0) under hash in the empty slot s that hashtab__slot() gave. */
static inline void hashtab__fill(struct hashtab *t, struct hashtab_slot *s, uint64_t hash,
				 uint64_t val)
{
	s->hash = hash;
	s->val = val;
	t->nr++;
}

/* Every full slot s of t, in slot order (not insertion order). */
#define hashtab__for_each(t, s)							\
	for ((s) = (t)->slots; (s) && (s) <= (t)->slots + (t)->mask; (s)++)	\
		if (!(s)->val) {						\
		} else

#endif
