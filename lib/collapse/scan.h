/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The scans every input line goes through (its end, and a frame line's
 * columns), inline and 16 bytes at a time where SSE2 is there: lines are
 * some 60 bytes, and a call per line cost more than the search.
 */
#ifndef EMBER_LIB_COLLAPSE_SCAN_H
#define EMBER_LIB_COLLAPSE_SCAN_H

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
 * The columns of a frame line: blanks up to a, the address (word bytes)
 * up to b, blanks up to k. Every line is scanned so: 32 bytes are
 * classified at once when the line has them, byte by byte otherwise.
 */
static inline __attribute__((always_inline)) void frame_columns(const char *l, size_t n,
								size_t *pa, size_t *pb, size_t *pk)
{
	size_t a = 0, b, k;

#ifdef __SSE2__
	if (n >= 32) {
		uint32_t b0, w0, b1, w1, blank, word, m;

		classify16(l, &b0, &w0);
		classify16(l + 16, &b1, &w1);
		blank = b0 | b1 << 16;
		word = w0 | w1 << 16;
		if (~blank) {
			a = __builtin_ctz(~blank);
			if (!(word >> a & 1)) {
				*pa = *pb = *pk = a;
				return;
			}
			m = ~word & (~0u << a);
			if (m) {
				b = __builtin_ctz(m);
				m = ~blank & (~0u << b);
				if (m) {
					*pa = a;
					*pb = b;
					*pk = __builtin_ctz(m);
					return;
				}
			}
		}
		a = 0;
	}
#endif
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

#ifdef __SSE2__
/* The '\n's among the 16 bytes at p, a bit each. */
static inline uint64_t newlines16(const char *p)
{
	return (uint32_t)_mm_movemask_epi8(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), _mm_set1_epi8('\n')));
}

/* The '\n's among the 64 bytes at p, a bit each (written out: -O2 does not unroll a loop). */
static inline uint64_t newlines64(const char *p)
{
	return newlines16(p) | newlines16(p + 16) << 16 | newlines16(p + 32) << 32 |
	       newlines16(p + 48) << 48;
}
#endif

/*
 * The ends ('\n') of the lines from p on, in order, into ends: at most
 * max of them (max >= 64). Returns how many; *resume is where to go on
 * (end once all are found). Lines are some 60 bytes: 64 bytes are
 * searched at once and their newlines taken from the mask, a few
 * instructions per line where a search per line cost some thirty.
 */
static inline size_t find_line_ends(const char *p, const char *end, const char **ends, size_t max,
				    const char **resume)
{
	size_t n = 0;

#ifdef __SSE2__
	/* room for a block's 64 newlines: no test per newline */
	while (end - p >= 64 && max - n >= 64) {
		for (uint64_t m = newlines64(p); m; m &= m - 1)
			ends[n++] = p + __builtin_ctzll(m);
		p += 64;
	}
	if (end - p >= 64) {
		*resume = p;
		return n;
	}
#endif
	while (n < max) {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl) {
			*resume = end;
			return n;
		}
		ends[n++] = nl;
		p = nl + 1;
	}
	*resume = p;
	return n;
}

#endif
