// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flame collapse's two caches (lib/flame/rawstack.c, ipframes.c): what
 * was added is found under exactly its key, a slot's newer entry replaces
 * the older one, and a key they do not keep is never found.
 */
#include <stdint.h>

#include "flame/flame-priv.h"
#include "test.h"

TEST(flame_rawstacks_find_add)
{
	struct flame_rawstacks *r = flame_rawstacks__new();
	uint64_t key[3] = {1, 2, 3}, other[3] = {1, 2, 4};
	uint64_t long_key[FLAME_RAW_KEY_MAX + 1] = {0};

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ(flame_rawstacks__find(r, key, 3, 42), -1);
	flame_rawstacks__add(r, key, 3, 42, 7);
	CHECK_EQ(flame_rawstacks__find(r, key, 3, 42), 7);
	/* The same hash is not the same key: the words decide. */
	CHECK_EQ(flame_rawstacks__find(r, other, 3, 42), -1);
	CHECK_EQ(flame_rawstacks__find(r, key, 2, 42), -1);
	/* A hash of the same slot but another value misses without a look at the words. */
	CHECK_EQ(flame_rawstacks__find(r, key, 3, 42 + (1u << 20)), -1);
	/* The newest stack of a slot wins. */
	flame_rawstacks__add(r, other, 3, 42, 9);
	CHECK_EQ(flame_rawstacks__find(r, other, 3, 42), 9);
	CHECK_EQ(flame_rawstacks__find(r, key, 3, 42), -1);
	/* Keys too long are not kept (and do not evict). */
	flame_rawstacks__add(r, long_key, FLAME_RAW_KEY_MAX + 1, 42, 11);
	CHECK_EQ(flame_rawstacks__find(r, other, 3, 42), 9);
	/* An empty slot's hash is 0: a key hashing to 0 is still a miss there. */
	CHECK_EQ(flame_rawstacks__find(r, key, 3, 0), -1);
	flame_rawstacks__delete(r);
	flame_rawstacks__delete(NULL);
}

TEST(flame_ipframes_find_add)
{
	struct flame_ipframes *ipf = flame_ipframes__new();
	uint32_t first = 0, nr = 0;

	CHECK(ipf != NULL);
	if (!ipf)
		return;
	CHECK(!flame_ipframes__find(ipf, 5, 1 << 16, 0xffffffff81000000ull, &first, &nr));
	flame_ipframes__add(ipf, 5, 1 << 16, 0xffffffff81000000ull, 10, 2);
	CHECK(flame_ipframes__find(ipf, 5, 1 << 16, 0xffffffff81000000ull, &first, &nr));
	CHECK_EQ(first, 10);
	CHECK_EQ(nr, 2);
	/* Another generation, mode or address is another entry. */
	CHECK(!flame_ipframes__find(ipf, 6, 1 << 16, 0xffffffff81000000ull, &first, &nr));
	CHECK(!flame_ipframes__find(ipf, 5, 2 | 1 << 16, 0xffffffff81000000ull, &first, &nr));
	CHECK(!flame_ipframes__find(ipf, 5, 1 << 16, 0xffffffff81000001ull, &first, &nr));
	/* An entry with no frames (all skipped) is an answer too. */
	flame_ipframes__add(ipf, 5, 1 << 16, 0x401000, 12, 0);
	CHECK(flame_ipframes__find(ipf, 5, 1 << 16, 0x401000, &first, &nr));
	CHECK_EQ(first, 12);
	CHECK_EQ(nr, 0);
	/* Many addresses: each found with its own frames, or missing, never another's. */
	for (uint32_t i = 0; i < 20000; i++)
		flame_ipframes__add(ipf, 7, 1 << 16, 0x400000 + 16 * i, i, 1);
	for (uint32_t i = 0; i < 20000; i++)
		if (flame_ipframes__find(ipf, 7, 1 << 16, 0x400000 + 16 * i, &first, &nr))
			CHECK_EQ(first, i);
	/* The last added is always there. */
	CHECK(flame_ipframes__find(ipf, 7, 1 << 16, 0x400000 + 16 * 19999, &first, &nr));
	flame_ipframes__delete(ipf);
	flame_ipframes__delete(NULL);
}
