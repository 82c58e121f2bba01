// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/core's hash table: lookups and inserts against a plain array,
 * through growth, with colliding hashes (equality decides), removal in
 * the middle of probe runs, iteration, clear, and keys a bijective hash
 * decides without an equality.
 */
#include <stdlib.h>
#include <string.h>
#include "core/hash.h"
#include "core/hashtab.h"
#include "test.h"

struct word_key {
	const char *const *words;
	const char *s;
};

static bool word_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	const struct word_key *k = key;

	return !strcmp(k->words[val - 1], k->s);
}

TEST(core_hashtab_words)
{
	static const char *words[4000];
	static char text[4000][8];
	struct hashtab tab = { 0 };
	struct hashtab_slot *s;
	size_t nr = 0, seen = 0;
	int bad = 0;

	CHECK_EQ(hashtab__get(&tab, 1, word_eq, NULL), 0);	/* no slots yet */
	for (int i = 0; i < 4000; i++) {
		snprintf(text[i], sizeof(text[i]), "w%d", i % 3000);
		struct word_key k = { words, text[i] };
		uint64_t h = hash_str(text[i]);

		CHECK_EQ(hashtab__reserve(&tab, 1), 0);
		s = hashtab__slot(&tab, h, word_eq, &k);
		if (i < 3000) {
			bad += s->val != 0;
			words[nr++] = text[i];
			hashtab__fill(&tab, s, h, nr);
		} else {
			bad += s->val != (uint64_t)(i % 3000) + 1;
		}
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(tab.nr, 3000);
	/* at most half full, a power of two */
	CHECK(tab.nr * 2 <= tab.mask + 1);
	CHECK_EQ((tab.mask + 1) & tab.mask, 0);
	hashtab__for_each(&tab, s)
		seen++;
	CHECK_EQ(seen, 3000);
	struct word_key miss = { words, "nope" };
	CHECK_EQ(hashtab__get(&tab, hash_str("nope"), word_eq, &miss), 0);
	hashtab__clear(&tab);
	CHECK_EQ(tab.nr, 0);
	struct word_key w1 = { words, "w1" };
	CHECK_EQ(hashtab__get(&tab, hash_str("w1"), word_eq, &w1), 0);
	hashtab__exit(&tab);
	CHECK(tab.slots == NULL);
	hashtab__exit(&tab);
}

/* Items whose hash is only their low bits: long runs, equality decides. */
static bool int_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	return val == *(const uint64_t *)key;
}

static bool present(const struct hashtab *h, uint64_t v)
{
	return hashtab__get(h, v % 7, int_eq, &v) == v;
}

TEST(core_hashtab_collisions_and_remove)
{
	struct hashtab tab = { 0 };
	static bool in[600];
	unsigned int seed = 7;
	int bad = 0;

	for (uint64_t v = 1; v < 600; v++) {
		struct hashtab_slot *s;

		CHECK_EQ(hashtab__reserve(&tab, 1), 0);
		s = hashtab__slot(&tab, v % 7, int_eq, &v);
		bad += s->val != 0;
		hashtab__fill(&tab, s, v % 7, v);
		in[v] = true;
	}
	/* Remove at random: the rest must still be found, across wrapped runs. */
	for (int i = 0; i < 400; i++) {
		uint64_t v = 1 + rand_r(&seed) % 599;
		struct hashtab_slot *s;

		if (!in[v])
			continue;
		s = hashtab__slot(&tab, v % 7, int_eq, &v);
		bad += s->val != v;
		hashtab__remove(&tab, s);
		in[v] = false;
		if (i % 50 == 0)
			for (uint64_t w = 1; w < 600; w++)
				bad += present(&tab, w) != in[w];
	}
	for (uint64_t w = 1; w < 600; w++)
		bad += present(&tab, w) != in[w];
	CHECK_EQ(bad, 0);
	hashtab__exit(&tab);
}

TEST(core_hashtab_remove_wraps)
{
	struct hashtab tab = { 0 };
	uint64_t v;
	int bad = 0;

	CHECK_EQ(hashtab__reserve(&tab, 4), 0);
	CHECK_EQ(tab.mask, 15);
	/* Three items homed at the last slot: two wrap to slots 0 and 1; one homed at 0. */
	for (v = 1; v <= 3; v++)
		hashtab__fill(&tab, hashtab__slot(&tab, 15, int_eq, &v), 15, v);
	v = 4;
	hashtab__fill(&tab, hashtab__slot(&tab, 16, int_eq, &v), 16, v);
	CHECK_EQ(hashtab__at(&tab, 15)->val, 1);
	CHECK_EQ(hashtab__at(&tab, 0)->val, 2);
	CHECK_EQ(hashtab__at(&tab, 1)->val, 3);
	CHECK_EQ(hashtab__at(&tab, 2)->val, 4);
	v = 1;
	hashtab__remove(&tab, hashtab__slot(&tab, 15, int_eq, &v));
	/* 2 and 3 move back over the wrap, 4 (home 0) moves up behind them */
	CHECK_EQ(hashtab__at(&tab, 15)->val, 2);
	CHECK_EQ(hashtab__at(&tab, 0)->val, 3);
	CHECK_EQ(hashtab__at(&tab, 1)->val, 4);
	CHECK_EQ(hashtab__at(&tab, 2)->val, 0);
	for (v = 2; v <= 3; v++)
		bad += hashtab__get(&tab, 15, int_eq, &v) != v;
	v = 4;
	bad += hashtab__get(&tab, 16, int_eq, &v) != v;
	CHECK_EQ(bad, 0);
	CHECK_EQ(tab.nr, 3);
	hashtab__exit(&tab);
}

TEST(core_hashtab_bijective_keys)
{
	struct hashtab tab = { 0 };
	int bad = 0;

	/* (parent, frame) pairs: hash_mix64 is a bijection, the hash is the key. */
	for (uint64_t k = 0; k < 100000; k++) {
		uint64_t h = hash_mix64(k << 32 | (k * 7 % 13));
		struct hashtab_slot *s;

		if (hashtab__reserve(&tab, 1)) {
			bad++;
			break;
		}
		s = hashtab__slot(&tab, h, hashtab__eq_hash, NULL);
		bad += s->val != 0;
		hashtab__fill(&tab, s, h, k + 1);
	}
	for (uint64_t k = 0; k < 100000; k++)
		bad += hashtab__get(&tab, hash_mix64(k << 32 | (k * 7 % 13)), hashtab__eq_hash, NULL) !=
		       k + 1;
	bad += hashtab__get(&tab, hash_mix64(5), hashtab__eq_hash, NULL) != 0;
	CHECK_EQ(bad, 0);
	CHECK_EQ(tab.nr, 100000);
	hashtab__exit(&tab);
}

/* A payload in the slot: the key and the answer, one cache line a lookup. */
struct pair_key {
	uint64_t a, b;
};

static inline bool pair_eq(const struct hashtab_slot *slot, const void *key)
{
	const struct pair_key *p = hashtab__payload(slot), *k = key;

	return p->a == k->a && p->b == k->b;
}

TEST(core_hashtab_payload)
{
	struct hashtab tab = { .stride = sizeof(struct hashtab_slot) + sizeof(struct pair_key) };
	struct hashtab_slot *s;
	int bad = 0;
	size_t seen = 0;

	for (uint64_t i = 0; i < 5000; i++) {
		/* many keys share a, and the hash ignores b: equality decides */
		struct pair_key k = { i % 50, i };
		uint64_t h = hash_mix64(k.a);

		if (hashtab__reserve(&tab, 1)) {
			bad++;
			break;
		}
		s = hashtab__slot(&tab, h, pair_eq, &k);
		bad += s->val != 0;
		memcpy(hashtab__payload(s), &k, sizeof(k));
		hashtab__fill(&tab, s, h, i * 3 + 1);
	}
	for (uint64_t i = 0; i < 5000; i += 7) {
		struct pair_key k = { i % 50, i };

		bad += hashtab__get(&tab, hash_mix64(k.a), pair_eq, &k) != i * 3 + 1;
	}
	/* remove half: the others keep their payloads through the shifts */
	for (uint64_t i = 0; i < 5000; i += 2) {
		struct pair_key k = { i % 50, i };

		s = hashtab__find(&tab, hash_mix64(k.a), pair_eq, &k);
		if (s)
			hashtab__remove(&tab, s);
		else
			bad++;
	}
	for (uint64_t i = 0; i < 5000; i++) {
		struct pair_key k = { i % 50, i };
		uint64_t v = hashtab__get(&tab, hash_mix64(k.a), pair_eq, &k);

		bad += v != (i % 2 ? i * 3 + 1 : 0);
	}
	hashtab__for_each(&tab, s) {
		const struct pair_key *p = hashtab__payload(s);

		bad += s->val != p->b * 3 + 1;
		seen++;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(seen, 2500);
	CHECK_EQ(tab.nr, 2500);
	hashtab__exit(&tab);
	CHECK_EQ(tab.stride, sizeof(struct hashtab_slot) + sizeof(struct pair_key));
}

/* Narrow slots: an index table whose equality reads the owner's array, through growth and removal. */
static const uint64_t *narrow_items;

static inline bool narrow_eq(const struct hashtab_slot32 *slot, const void *key)
{
	return narrow_items[slot->val - 1] == *(const uint64_t *)key;
}

static size_t nr_gone(const bool *gone, size_t n)
{
	size_t nr = 0;

	for (size_t i = 0; i < n; i++)
		nr += gone[i];
	return nr;
}

TEST(core_hashtab_narrow_slots)
{
	static uint64_t items[20000];
	static bool gone[20000];
	struct hashtab tab = { .stride = sizeof(struct hashtab_slot32) };
	unsigned int seed = 3;
	int bad = 0;

	narrow_items = items;
	for (uint32_t i = 0; i < 20000; i++) {
		/* hashes alike in their low half, apart in the high one: equality decides */
		uint64_t h = i % 3000 ? hash_mix64(i) : (uint64_t)i << 32 | 5;
		struct hashtab_slot32 *s;

		items[i] = i * 11 + 1;
		CHECK_EQ(hashtab__reserve(&tab, 1), 0);
		s = hashtab32__slot(&tab, h, narrow_eq, &items[i]);
		bad += s->val != 0;
		hashtab32__fill(&tab, s, h, i + 1);
	}
	CHECK_EQ(tab.stride, 8);
	CHECK(tab.nr * 2 <= tab.mask + 1);
	for (uint32_t i = 0; i < 20000; i++) {
		uint64_t h = i % 3000 ? hash_mix64(i) : (uint64_t)i << 32 | 5;

		bad += hashtab32__get(&tab, h, narrow_eq, &items[i]) != i + 1;
	}
	/* removal shifts narrow slots back as it does wide ones */
	for (int n = 0; n < 5000; n++) {
		uint32_t i = rand_r(&seed) % 20000;
		uint64_t h = i % 3000 ? hash_mix64(i) : (uint64_t)i << 32 | 5;
		struct hashtab_slot32 *s = hashtab32__slot(&tab, h, narrow_eq, &items[i]);

		bad += s->val != (gone[i] ? 0 : i + 1);
		if (s->val)
			hashtab__remove(&tab, s);
		gone[i] = true;
	}
	for (uint32_t i = 0; i < 20000; i++) {
		uint64_t h = i % 3000 ? hash_mix64(i) : (uint64_t)i << 32 | 5;

		bad += hashtab32__get(&tab, h, narrow_eq, &items[i]) != (gone[i] ? 0 : i + 1);
	}
	CHECK_EQ(tab.nr, 20000 - nr_gone(gone, 20000));
	CHECK_EQ(bad, 0);
	hashtab__exit(&tab);
	CHECK_EQ(tab.stride, 8);
}

TEST(core_hashtab_narrow_bijective_keys)
{
	struct hashtab tab = { .stride = sizeof(struct hashtab_slot32) };
	int bad = 0;

	/* kernel text addresses by their low half: hash_mix32 decides, no equality */
	for (uint32_t ip = 0x81000000; ip < 0x81000000 + 50000 * 7; ip += 7) {
		struct hashtab_slot32 *s;

		CHECK_EQ(hashtab__reserve(&tab, 1), 0);
		s = hashtab32__slot(&tab, hash_mix32(ip), hashtab32__eq_hash, NULL);
		bad += s->val != 0;
		hashtab32__fill(&tab, s, hash_mix32(ip), ip - 0x80000000);
	}
	for (uint32_t ip = 0x81000000; ip < 0x81000000 + 50000 * 7; ip++)
		bad += hashtab32__get(&tab, hash_mix32(ip), hashtab32__eq_hash, NULL) !=
		       ((ip - 0x81000000) % 7 ? 0 : ip - 0x80000000);
	CHECK_EQ(bad, 0);
	CHECK_EQ(tab.nr, 50000);
	hashtab__exit(&tab);
}
