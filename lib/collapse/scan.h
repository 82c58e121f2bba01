/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The scans every input line goes through: its end, and where a frame
 * line's key (the text after its address) starts. __feed() has them
 * done for a batch of lines at once by index_lines(), 32 or 64 bytes at
 * a time, with the widest vectors the processor has; a line met alone
 * (split between two feeds, or given to __line()) is scanned inline.
 */
#ifndef EMBER_LIB_COLLAPSE_SCAN_H
#define EMBER_LIB_COLLAPSE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "collapse/parse.h"

#ifdef __SSE2__
/*
 * Bytes of v within [lo, hi], unsigned: moved so that lo becomes the
 * lowest signed byte, the range is one signed compare (SSE2 has no
 * unsigned one).
 */
static inline __m128i in_range(__m128i v, unsigned char lo, unsigned char hi)
{
	__m128i x = _mm_add_epi8(v, _mm_set1_epi8((char)(0x80 - lo)));

	return _mm_cmplt_epi8(x, _mm_set1_epi8((char)(0x80 + hi - lo + 1)));
}

/* Masks of the blanks (\s) and word bytes (\w) among the 16 at p. */
static inline void classify16(const char *p, uint32_t *blank, uint32_t *word)
{
	__m128i v = _mm_loadu_si128((const __m128i *)p);
	__m128i w = _mm_or_si128(in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 'z'),
				 in_range(v, '0', '9'));

	w = _mm_or_si128(w, _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
	*word = _mm_movemask_epi8(w);
	*blank = _mm_movemask_epi8(
		_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), in_range(v, '\t', '\r')));
}
#endif

/*
 * The columns of a line whose first 32 bytes have the blank and word
 * masks given (see frame_columns()), when those bytes decide them: true
 * and *pa, *pb, *pk set, else false.
 */
static inline bool columns_from_masks(uint32_t blank, uint32_t word, size_t *pa, size_t *pb,
				      size_t *pk)
{
	uint32_t a, m;

	if (!~blank)
		return false;
	a = __builtin_ctz(~blank);
	if (!(word >> a & 1)) {
		*pa = *pb = *pk = a;
		return true;
	}
	m = ~word & (~0u << a);
	if (!m)
		return false;
	*pb = __builtin_ctz(m);
	m = ~blank & (~0u << *pb);
	if (!m)
		return false;
	*pa = a;
	*pk = __builtin_ctz(m);
	return true;
}

/* frame_columns() a byte at a time, for short lines and what the masks do not decide. */
static inline void frame_columns_bytes(const char *l, size_t n, size_t *pa, size_t *pb, size_t *pk)
{
	size_t a = 0, b, k;

	while (a < n && cl_is_space(l[a]))
		a++;
	b = a;
	while (b < n && cl_is_word(l[b]))
		b++;
	for (k = b; k < n && cl_is_space(l[k]); k++)
		;
	*pa = a;
	*pb = b;
	*pk = k;
}

/*
 * The columns of a frame line: blanks up to a, the address (word bytes)
 * up to b, blanks up to k. 32 bytes are classified at once when the line
 * has them, byte by byte otherwise.
 */
static inline __attribute__((always_inline)) void frame_columns(const char *l, size_t n,
								size_t *pa, size_t *pb, size_t *pk)
{
#ifdef __SSE2__
	if (n >= 32) {
		uint32_t b0, w0, b1, w1;

		classify16(l, &b0, &w0);
		classify16(l + 16, &b1, &w1);
		if (columns_from_masks(b0 | b1 << 16, w0 | w1 << 16, pa, pb, pk))
			return;
	}
#endif
	frame_columns_bytes(l, n, pa, pb, pk);
}

/* A line's key start when it has no address (b == a in frame_columns()). */
#define LINE_NO_ADDR SIZE_MAX

/* Where a frame line's key starts (k), or LINE_NO_ADDR. */
static inline __attribute__((always_inline)) size_t line_key_at(const char *l, size_t n)
{
	size_t a, b, k;

	frame_columns(l, n, &a, &b, &k);
	return b == a ? LINE_NO_ADDR : k;
}

/* A line as index_lines() found it: its end ('\n') and line_key_at() of it. */
struct line_ix {
	const char *end;
	size_t key_at;
};

/*
 * Indexes the lines from p (the start of one) on, in order: at most max
 * of them (max >= 64), each line's end and key start. Returns how many;
 * *resume is where to go on, the start of the next line (end once all
 * are found).
 */
typedef size_t index_lines_fn(const char *p, const char *end, struct line_ix *lines, size_t max,
			      const char **resume);

/* The index_lines() for this processor: AVX2 where it has it, else SSE2 (or plain C). */
index_lines_fn *index_lines_pick(void);

/* Each variant, for the tests: NULL where the processor (or the compiler) has not got it. */
index_lines_fn *index_lines_variant(int i);

#endif
