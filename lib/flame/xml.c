// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Text measures and numbers for the SVG: how much of a name fits, and
 * numbers printed as the reference tool prints them, without the generic
 * float formatter. (Escaping is lib/core/escape.h's.)
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/escape.h"
#include "flame-priv.h"

size_t flame_utf8_prefix(const char *str, size_t len, size_t chars, size_t *nchars)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, count = 0, cut = 0;
	bool cut_set = false;

	while (i < len) {
		uint32_t cp;
		size_t n = utf8_char(s + i, len - i, &cp);

		if (count == chars && !cut_set) {
			cut = i;
			cut_set = true;
		}
		i += n ? n : 1;
		count++;
	}
	if (!cut_set)
		cut = len;
	if (nchars)
		*nchars = count;
	return cut;
}

/* The decimal digits of v at the end of a 20-byte buffer ending at end: returns the first. */
static char *u64_digits(char *end, uint64_t v)
{
	do {
		*--end = '0' + v % 10;
		v /= 10;
	} while (v);
	return end;
}

/*
 * v * 10^prec rounded as printf rounds it (the exact binary value, ties
 * to even), for 0 <= v < 2^50 and prec <= 3; false outside that range.
 * printf's digits for such a v are those of this integer, so "%.1f" and
 * friends need no trip through the generic float formatter, which costs
 * thousands of instructions a number.
 */
static bool fixed_scaled(double v, int prec, uint64_t *out)
{
	static const uint64_t pow10[] = { 1, 10, 100, 1000 };
	uint64_t m, scaled, q, r, half;
	int exp, sh;

	if (!(v >= 0) || signbit(v) || v >= 0x1p50 || prec < 0 || prec > 3)
		return false;
	if (v == 0) {
		*out = 0;
		return true;
	}
	/* v = m * 2^-sh exactly, m a 53-bit integer. */
	m = (uint64_t)ldexp(frexp(v, &exp), 53);
	sh = 53 - exp;
	scaled = m * pow10[prec];	/* < 2^63 */
	if (sh <= 0) {
		/* Unreachable below 2^50, kept for clarity. */
		*out = scaled << -sh;
		return true;
	}
	if (sh >= 64) {
		/* Below 2^-11 after scaling: never half, rounds to 0. */
		*out = 0;
		return true;
	}
	q = scaled >> sh;
	r = scaled & ((1ull << sh) - 1);
	half = 1ull << (sh - 1);
	if (r > half || (r == half && (q & 1)))
		q++;
	*out = q;
	return true;
}

int flame_fmt_fixed(char *buf, size_t size, double v, int prec)
{
	char tmp[32], *end = tmp + sizeof(tmp), *p;
	uint64_t q, div = prec == 1 ? 10 : prec == 2 ? 100 : prec == 3 ? 1000 : 1;
	size_t n;

	if (!fixed_scaled(v, prec, &q))
		return snprintf(buf, size, "%.*f", prec, v);
	p = end;
	if (prec) {
		uint64_t frac = q % div;

		for (int i = 0; i < prec; i++) {
			*--p = '0' + frac % 10;
			frac /= 10;
		}
		*--p = '.';
	}
	p = u64_digits(p, q / div);
	n = end - p;
	if (n >= size)
		return snprintf(buf, size, "%.*f", prec, v);
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n;
}

int flame_fmt_num(char *buf, size_t size, double v)
{
	if (v == floor(v) && fabs(v) <= EMBER_FLAME_MAX_COUNT) {
		/* An integral count: its digits ("%.0f" of -0.0 is "-0": not here). */
		if (v >= 0 && !signbit(v) && size >= 20) {
			char tmp[24], *p = u64_digits(tmp + sizeof(tmp), (uint64_t)v);
			size_t n = tmp + sizeof(tmp) - p;

			memcpy(buf, p, n);
			buf[n] = '\0';
			return n;
		}
		return snprintf(buf, size, "%.0f", v);
	}
	return snprintf(buf, size, "%.15g", v);
}

int flame_fmt_count(char *buf, size_t size, double v)
{
	char digits[64];
	int n = flame_fmt_fixed(digits, sizeof(digits), v, 0), lead, o = 0;
	const char *d = digits;

	if (n < 0 || (size_t)n >= sizeof(digits))
		return snprintf(buf, size, "%g", v);
	if (*d == '-') {
		if ((size_t)o + 1 < size)
			buf[o++] = '-';
		d++;
		n--;
	}
	lead = n % 3 ? n % 3 : 3;
	for (int i = 0; i < n; i++) {
		if (i && (i - lead) % 3 == 0 && (size_t)o + 1 < size)
			buf[o++] = ',';
		if ((size_t)o + 1 < size)
			buf[o++] = d[i];
	}
	if (size)
		buf[o < (int)size ? o : (int)size - 1] = '\0';
	return o;
}

int flame_fmt_rgb(char *buf, size_t size, int r, int g, int b)
{
	int v[3] = { r, g, b };
	char tmp[48], *p = tmp;

	/* The palettes make 0 to 255; anything else goes the long way. */
	for (int i = 0; i < 3; i++)
		if (v[i] < 0 || v[i] > 999)
			return snprintf(buf, size, "rgb(%d,%d,%d)", r, g, b);
	memcpy(p, "rgb(", 4);
	p += 4;
	for (int i = 0; i < 3; i++) {
		if (v[i] >= 100)
			*p++ = '0' + v[i] / 100;
		if (v[i] >= 10)
			*p++ = '0' + v[i] / 10 % 10;
		*p++ = '0' + v[i] % 10;
		*p++ = i < 2 ? ',' : ')';
	}
	*p = '\0';
	if ((size_t)(p - tmp) >= size)
		return snprintf(buf, size, "rgb(%d,%d,%d)", r, g, b);
	memcpy(buf, tmp, p - tmp + 1);
	return p - tmp;
}
