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

static bool word_eq(uint64_t val, const void *key)
{
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
static bool int_eq(uint64_t val, const void *key)
{
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
	CHECK_EQ(tab.slots[15].val, 1);
	CHECK_EQ(tab.slots[0].val, 2);
	CHECK_EQ(tab.slots[1].val, 3);
	CHECK_EQ(tab.slots[2].val, 4);
	v = 1;
	hashtab__remove(&tab, hashtab__slot(&tab, 15, int_eq, &v));
	/* 2 and 3 move back over the wrap, 4 (home 0) moves up behind them */
	CHECK_EQ(tab.slots[15].val, 2);
	CHECK_EQ(tab.slots[0].val, 3);
	CHECK_EQ(tab.slots[1].val, 4);
	CHECK_EQ(tab.slots[2].val, 0);
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
