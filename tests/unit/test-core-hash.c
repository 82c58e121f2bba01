// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/core's string hash: fixed values (a change of hash is a change of
 * every table's layout, and must be one on purpose), every length up to
 * past two blocks, the avalanche of one flipped bit, and the spread of
 * similar names (symbols differ in a digit or two) over table slots.
 */
#include <stdlib.h>
#include <string.h>
#include "core/hash.h"
#include "test.h"

TEST(core_hash_values)
{
	/* pinned: the collapser's hash since it was written, now everyone's */
	CHECK(hash_str("main") == 0x98916df367627100ULL);
	CHECK(hash_str("") == 0x7dd8fc4aa38cac97ULL);
	CHECK(hash_str("_ZN4ember7session9process_42") == 0x7f99badd3833cf2bULL);
	CHECK(hash_str("") == hash_bytes("", 0));
	CHECK(hash_str("main") == hash_bytes("main!", 4));
	CHECK(hash_str("main") != hash_str("mai"));
	CHECK(hash_str("a") != hash_str("b"));
	/* the length is mixed in: NULs do not vanish */
	CHECK(hash_bytes("a\0", 2) != hash_bytes("a", 1));
	CHECK(hash_bytes("\0\0\0\0\0\0\0\0\0", 9) != hash_bytes("\0\0\0\0\0\0\0\0", 8));
}

static int popcount64(uint64_t x)
{
	return __builtin_popcountll(x);
}

TEST(core_hash_avalanche)
{
	unsigned char buf[48];
	unsigned int seed = 99;
	double total = 0;
	int n = 0, worst = 64, best = 0;

	/* Each input bit flipped, at each length: about half the output bits change. */
	for (size_t len = 1; len <= sizeof(buf); len++) {
		for (size_t i = 0; i < len; i++)
			buf[i] = rand_r(&seed);
		uint64_t h = hash_bytes(buf, len);

		for (size_t bit = 0; bit < len * 8; bit++) {
			int d;

			buf[bit / 8] ^= 1 << (bit % 8);
			d = popcount64(h ^ hash_bytes(buf, len));
			buf[bit / 8] ^= 1 << (bit % 8);
			total += d;
			n++;
			worst = d < worst ? d : worst;
			best = d > best ? d : best;
		}
	}
	CHECK(total / n > 30 && total / n < 34);
	CHECK(worst >= 12);
	CHECK(best <= 52);
}

enum { SLOTS = 4096, KEYS = 16384 };

/*
 * Pearson's chi-square of KEYS keys over SLOTS table slots (their hashes'
 * low bits) against an even spread, key i hashing to hash_of(i).
 */
static double chi_square(uint64_t (*hash_of)(int i))
{
	static unsigned int count[SLOTS];
	double chi = 0, expect = (double)KEYS / SLOTS;

	memset(count, 0, sizeof(count));
	for (int i = 0; i < KEYS; i++)
		count[hash_of(i) & (SLOTS - 1)]++;
	for (int s = 0; s < SLOTS; s++)
		chi += (count[s] - expect) * (count[s] - expect) / expect;
	return chi;
}

/* Names as symbols are: a long common prefix, a counter at the end. */
static uint64_t symbol_name_hash(int i)
{
	char name[64];
	int len = snprintf(name, sizeof(name), "_ZN4ember7session9process_%d", i);

	return hash_bytes(name, len);
}

TEST(core_hash_spread)
{
	double chi = chi_square(symbol_name_hash);

	/* 4095 degrees of freedom: a fair hash lands near 4095, far below 4500 */
	CHECK(chi < 4500);
	CHECK(chi > 3700);
}

TEST(core_hash_words_order_and_length)
{
	uint64_t w[8] = { 0xffffffff81000000ULL, 0x401000, 0x401000, 7 };
	uint64_t swapped[8] = { 0x401000, 0xffffffff81000000ULL, 0x401000, 7 };
	uint64_t h = 0x1234, g = 0x1234, by_len[7];

	/* order, length and trailing zero words all count */
	CHECK(hash_words(w, 6) != hash_words(swapped, 6));
	for (size_t n = 0; n <= 6; n++)
		by_len[n] = hash_words(w, n);
	for (size_t n = 0; n < 6; n++)
		CHECK(by_len[n] != by_len[n + 1]);
	/* hash_step() chains: the same words in another order hash apart */
	h = hash_step(hash_step(h, w[0]), w[1]);
	g = hash_step(hash_step(g, w[1]), w[0]);
	CHECK(h != g);
}

/* Stacks as recorded: a common root, return addresses a few bytes apart. */
static uint64_t stack_hash(int i)
{
	uint64_t key[12];

	for (int j = 0; j < 12; j++)
		key[j] = 0x555555554000ULL + 0x40 * j;
	key[3 + i % 9] += i / 9 * 5;
	return hash_words(key, 12);
}

TEST(core_hash_words_spread)
{
	double chi = chi_square(stack_hash);

	CHECK(chi < 4500);
	CHECK(chi > 3700);
}
