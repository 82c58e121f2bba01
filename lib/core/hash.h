/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The hashes every table of libember and of the ember command uses:
 * hash_mix64() for one word (pointers, ids, addresses: a bijection, so a
 * table may take equal hashes for equal keys; hash_mix32() the same for
 * 32-bit keys), hash_words() for arrays of words (raw stacks),
 * hash_step() for words that come one at a time, hash_bytes()/hash_str()
 * for text and any other bytes; all but the mixers are made of
 * hash_mum(), one 64 x 64 -> 128-bit multiply folded.
 *
 * hash_bytes() is the one string hash. It replaces the FNV-1a copies
 * (a multiply per byte, and two copies had a wrong offset basis): it
 * takes 16 bytes per 128-bit multiply and reads the tail as two
 * overlapping words, so a 40-byte symbol name costs 4 multiplies instead
 * of 40, and each multiply folds both halves of its product, so every
 * input bit reaches every output bit (tests/unit/test-core-hash.c checks
 * the avalanche and the spread over table slots).
 */
#ifndef EMBER_CORE_HASH_H
#define EMBER_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* MurmurHash3's 64-bit finaliser: every bit of h moves every bit of the result. */
static inline uint64_t hash_mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/*
 * MurmurHash3's 32-bit finaliser: a bijection of 32 bits, for the keys of
 * narrow table slots (hashtab32__eq_hash()).
 */
static inline uint32_t hash_mix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	h ^= h >> 16;
	return h;
}

static inline uint64_t hash__load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint64_t hash__load32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * The 128-bit product of a and b folded to 64 bits: one multiply mixes 16
 * bytes, every bit of a and b reaching the result. The primitive the
 * hashes below are made of; a table hashing a few words of its own (a
 * key of two fields) calls it with each word xored with a constant.
 */
static inline uint64_t hash_mum(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* Odd constants with well-spread bits (wyhash's), for hash_mum()'s operands. */
#define HASH_K0 0xa0761d6478bd642fULL
#define HASH_K1 0xe7037ed1a0b428dbULL
#define HASH_K2 0x8ebc6af09c88c6e3ULL
#define HASH_K3 0x589965cc75374cc3ULL

/*
 * A hash of n 64-bit words (a raw stack: root, thread, ips...): two
 * chains of multiplies, each taking two words a step, so a step's
 * latency covers four words (a raw stack is 10 to 100 words, hashed for
 * every sample). Chained, not summed: the same words in another order
 * hash apart.
 */
static inline uint64_t hash_words(const uint64_t *w, size_t n)
{
	const uint64_t *tail = w + (n & ~(size_t)3);
	uint64_t a = HASH_K0 ^ n, b = HASH_K1;

	for (; w < tail; w += 4) {
		a = hash_mum(a ^ w[0], w[1] ^ HASH_K2);
		b = hash_mum(b ^ w[2], w[3] ^ HASH_K3);
	}
	for (size_t i = 0; i < (n & 3); i++)
		a = hash_mum(a ^ tail[i], HASH_K2 ^ i);
	return hash_mum(a ^ HASH_K1, b ^ HASH_K3);
}

/*
 * One word more onto a running hash h, for words that come one at a
 * time (a stack's ips as its chain is walked): chained, so the same
 * words in another order hash apart. Not hash_words() of the same words.
 */
static inline uint64_t hash_step(uint64_t h, uint64_t w)
{
	return hash_mum(h ^ w, HASH_K1);
}

/*
 * A hash of any len bytes at p. Every input line of the collapser is
 * hashed, so it costs a few cycles per 16 bytes: the last block is read
 * overlapping the one before instead of byte by byte (the length, mixed
 * in, keeps keys apart).
 */
static inline uint64_t hash_bytes(const void *p, size_t len)
{
	const uint64_t k1 = HASH_K0, k2 = HASH_K1, k3 = HASH_K2;
	const unsigned char *s = p, *end = s + len;
	uint64_t h = 0x243f6a8885a308d3ull ^ len, x, y;

	if (len > 16) {
		for (size_t n = len; n > 16; n -= 16, s += 16)
			h = hash_mum(hash__load64(s) ^ k1, hash__load64(s + 8) ^ h);
		x = hash__load64(end - 16);
		y = hash__load64(end - 8);
	} else if (len >= 8) {
		x = hash__load64(s);
		y = hash__load64(end - 8);
	} else if (len >= 4) {
		x = hash__load32(s);
		y = hash__load32(end - 4);
	} else {
		x = len ? (uint64_t)s[0] << 16 | (uint64_t)s[len / 2] << 8 | s[len - 1] : 0;
		y = 0;
	}
	h = hash_mum(x ^ k1, y ^ h ^ k2);
	return hash_mum(h ^ k3, len ^ k1);
}

/* hash_bytes() of a NUL-terminated string, without the NUL. */
static inline uint64_t hash_str(const char *s)
{
	return hash_bytes(s, strlen(s));
}

#endif
