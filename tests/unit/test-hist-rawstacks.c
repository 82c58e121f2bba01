// SPDX-License-Identifier: GPL-2.0-only
/* The feed's raw-stack table: keys of any length, growth, and giving up on misses. */
#include <stdint.h>
#include "hist/rawstacks.h"
#include "test.h"

TEST(hist_rawstacks_finds_what_was_added)
{
	struct hist_raw *r = hist_raw__new();
	uint64_t key[40];

	CHECK(r != NULL);
	/* 20000 keys of lengths 1..40, sharing prefixes: the table grows several times */
	for (uint32_t v = 0; v < 20000; v++) {
		size_t n = 1 + v % 40;

		for (size_t i = 0; i < n; i++)
			key[i] = i == n - 1 ? v : i;
		CHECK_EQ(hist_raw__find(r, key, n), -1);
		CHECK_EQ(hist_raw__add(r, key, n, v), 0);
	}
	for (uint32_t v = 0; v < 20000; v += 7) {
		size_t n = 1 + v % 40;

		for (size_t i = 0; i < n; i++)
			key[i] = i == n - 1 ? v : i;
		CHECK_EQ(hist_raw__find(r, key, n), (int64_t)v);
		/* a prefix of a key is another key */
		if (n > 1)
			CHECK(hist_raw__find(r, key, n - 1) != (int64_t)v);
	}
	hist_raw__delete(r);
}

TEST(hist_rawstacks_give_up_when_keys_do_not_repeat)
{
	struct hist_raw *r = hist_raw__new();
	uint64_t key = 0;
	int i;

	/* all hits: stays */
	CHECK_EQ(hist_raw__add(r, &key, 1, 5), 0);
	for (i = 0; i < 20000; i++) {
		CHECK(hist_raw__useful(r));
		CHECK_EQ(hist_raw__find(r, &key, 1), 5);
	}
	/* then only misses: given up within a few checks */
	for (i = 0; i < 100000 && hist_raw__useful(r); i++) {
		key = i + 1;
		if (hist_raw__find(r, &key, 1) < 0)
			CHECK_EQ(hist_raw__add(r, &key, 1, i), 0);
	}
	CHECK(i < 100000);
	CHECK(!hist_raw__useful(r));
	hist_raw__delete(r);
}
