// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * index_lines() (see scan.h), in one variant per instruction set. All
 * give the same answers: the ends are every '\n' in order, the key
 * starts are line_key_at()'s. A batch is some 2000 lines, so the call
 * through a pointer, picked once per collapser, costs nothing that
 * counts; inside, AVX2 classifies a line's first 32 bytes in one go
 * where SSE2 needs two, and finds newlines 32 bytes at a time.
 */
#include <string.h>
#ifdef __x86_64__
#include <immintrin.h>
#endif
#include "collapse/scan.h"

/* The line ends from p on, a byte search at a time: the tail of a buffer, or no SSE2. */
static size_t ends_bytes(const char *p, const char *end, struct line_ix *lines, size_t n,
			 size_t max, const char **resume)
{
	while (n < max) {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl) {
			*resume = end;
			return n;
		}
		lines[n++].end = nl;
		p = nl + 1;
	}
	*resume = p;
	return n;
}

static size_t index_lines_plain(const char *p, const char *end, struct line_ix *lines, size_t max,
				const char **resume)
{
	size_t n = ends_bytes(p, end, lines, 0, max, resume);

	for (size_t i = 0; i < n; i++) {
		lines[i].key_at = line_key_at(p, lines[i].end - p);
		p = lines[i].end + 1;
	}
	return n;
}

#ifdef __SSE2__
/* The '\n's among the 16 bytes at p, a bit each. */
static inline uint64_t newlines16(const char *p)
{
	return (uint32_t)_mm_movemask_epi8(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), _mm_set1_epi8('\n')));
}

static size_t index_lines_sse2(const char *p, const char *end, struct line_ix *lines, size_t max,
			       const char **resume)
{
	const char *start = p;
	size_t n = 0;

	/*
	 * 64 bytes at a time, each newline taken from the mask (lines are
	 * some 60 bytes), with room for a block's 64: no test per newline.
	 * The mask is written out: -O2 does not unroll a loop.
	 */
	while (end - p >= 64 && max - n >= 64) {
		uint64_t m = newlines16(p) | newlines16(p + 16) << 16 | newlines16(p + 32) << 32 |
			     newlines16(p + 48) << 48;

		for (; m; m &= m - 1)
			lines[n++].end = p + __builtin_ctzll(m);
		p += 64;
	}
	if (end - p >= 64)
		*resume = lines[n - 1].end + 1;	/* a line's start: n > max - 64 >= 0 */
	else
		n = ends_bytes(p, end, lines, n, max, resume);
	for (size_t i = 0; i < n; i++) {
		lines[i].key_at = line_key_at(start, lines[i].end - start);
		start = lines[i].end + 1;
	}
	return n;
}
#endif

#ifdef __x86_64__
#define AVX2 __attribute__((target("avx2,bmi")))

/*
 * The constants of the AVX2 classification, made once per batch. A
 * range [lo, hi] is tested as in_range() does: add (0x80 - lo), then
 * compare (signed) below 0x80 + hi - lo + 1.
 */
struct classes32 {
	__m256i lower;			/* 0x20: 'A'-'Z' to 'a'-'z' */
	__m256i alpha_add, alpha_lim;	/* 'a'-'z' */
	__m256i digit_add, digit_lim;	/* '0'-'9' */
	__m256i ctl_add, ctl_lim;	/* '\t'-'\r' */
	__m256i underscore, space;
};

/*
 * The empty asm hides a constant's value from GCC, which would
 * otherwise make it again (three instructions) for every line rather
 * than keep it in a register.
 */
static inline AVX2 __m256i opaque32(char byte)
{
	__m256i v = _mm256_set1_epi8(byte);

	__asm__("" : "+x"(v));
	return v;
}

static inline AVX2 void classes32_init(struct classes32 *k)
{
	k->lower = opaque32(0x20);
	k->alpha_add = opaque32((char)(0x80 - 'a'));
	k->alpha_lim = opaque32((char)(0x80 + 'z' - 'a' + 1));
	k->digit_add = opaque32((char)(0x80 - '0'));
	k->digit_lim = opaque32((char)(0x80 + '9' - '0' + 1));
	k->ctl_add = opaque32((char)(0x80 - '\t'));
	k->ctl_lim = opaque32((char)(0x80 + '\r' - '\t' + 1));
	k->underscore = opaque32('_');
	k->space = opaque32(' ');
}

/* line_key_at(), the first 32 bytes classified at once. */
static inline AVX2 size_t key_at_avx2(const struct classes32 *K, const char *l, size_t n)
{
	size_t a, b, k;

	if (n >= 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)l);
		__m256i alpha = _mm256_cmpgt_epi8(
			K->alpha_lim, _mm256_add_epi8(_mm256_or_si256(v, K->lower), K->alpha_add));
		__m256i digit = _mm256_cmpgt_epi8(K->digit_lim, _mm256_add_epi8(v, K->digit_add));
		__m256i ctl = _mm256_cmpgt_epi8(K->ctl_lim, _mm256_add_epi8(v, K->ctl_add));
		__m256i w = _mm256_or_si256(_mm256_or_si256(alpha, digit),
					    _mm256_cmpeq_epi8(v, K->underscore));
		__m256i s = _mm256_or_si256(ctl, _mm256_cmpeq_epi8(v, K->space));

		if (columns_from_masks(_mm256_movemask_epi8(s), _mm256_movemask_epi8(w), &a, &b,
				       &k))
			return b == a ? LINE_NO_ADDR : k;
	}
	frame_columns_bytes(l, n, &a, &b, &k);
	return b == a ? LINE_NO_ADDR : k;
}

/* The '\n's among the 32 bytes at p, a bit each. */
static inline AVX2 uint64_t newlines32(const char *p)
{
	return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
		_mm256_loadu_si256((const __m256i *)p), _mm256_set1_epi8('\n')));
}

static AVX2 size_t index_lines_avx2(const char *p, const char *end, struct line_ix *lines,
				    size_t max, const char **resume)
{
	const char *start = p;
	struct classes32 classes;
	size_t n = 0;

	/* as index_lines_sse2() */
	while (end - p >= 64 && max - n >= 64) {
		uint64_t m = newlines32(p) | newlines32(p + 32) << 32;

		for (; m; m &= m - 1)
			lines[n++].end = p + __builtin_ctzll(m);
		p += 64;
	}
	if (end - p >= 64)
		*resume = lines[n - 1].end + 1;	/* a line's start: n > max - 64 >= 0 */
	else
		n = ends_bytes(p, end, lines, n, max, resume);
	classes32_init(&classes);
	for (size_t i = 0; i < n; i++) {
		lines[i].key_at = key_at_avx2(&classes, start, lines[i].end - start);
		start = lines[i].end + 1;
	}
	return n;
}
#endif

index_lines_fn *index_lines_variant(int i)
{
	switch (i) {
	case 0:
		return index_lines_plain;
#ifdef __SSE2__
	case 1:
		return index_lines_sse2;
#endif
#ifdef __x86_64__
	case 2:
		return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") ?
			       index_lines_avx2 :
			       NULL;
#endif
	default:
		return NULL;
	}
}

index_lines_fn *index_lines_pick(void)
{
	index_lines_fn *fn = NULL;

	for (int i = 0; i < 3; i++)
		fn = index_lines_variant(i) ?: fn;
	return fn;
}
