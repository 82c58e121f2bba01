/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A growable output buffer for the lines ember script prints: numbers and
 * padding are formatted by hand (no printf parsing per field), and the
 * text reaches the FILE in large chunks. Millions of lines go through it,
 * so everything on the per-line path is inline.
 */
#ifndef EMBER_SCRIPT_OUTBUF_H
#define EMBER_SCRIPT_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct outbuf {
	char *buf;
	size_t len, cap;
	FILE *fp;		/* NULL: keep everything (unit tests, strings) */
	bool error;		/* allocation or write failure */
};

/* Flush into fp once this much is pending. */
#define OUTBUF_FLUSH_AT (256 * 1024)

void outbuf__init(struct outbuf *ob, FILE *fp);
void outbuf__exit(struct outbuf *ob);
/* Make room for n more bytes; false (and ob->error) when memory runs out. */
bool outbuf__grow(struct outbuf *ob, size_t n);
/* Write what is pending to fp's descriptor, after fp's own buffer (nothing without fp). 0 or -EIO. */
int outbuf__flush(struct outbuf *ob);
/* The text so far, NUL-terminated (for tests and fp-less buffers). */
const char *outbuf__str(struct outbuf *ob);
/* printf into the buffer, for rare lines. */
void outbuf__printf(struct outbuf *ob, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline bool outbuf__reserve(struct outbuf *ob, size_t n)
{
	return ob->len + n <= ob->cap || outbuf__grow(ob, n);
}

/* End of a line: flush when enough is pending. */
static inline void outbuf__line_done(struct outbuf *ob)
{
	if (ob->fp && ob->len >= OUTBUF_FLUSH_AT)
		outbuf__flush(ob);
}

static inline void outbuf__putc(struct outbuf *ob, char c)
{
	if (outbuf__reserve(ob, 1))
		ob->buf[ob->len++] = c;
}

static inline void outbuf__putn(struct outbuf *ob, const char *s, size_t n)
{
	if (outbuf__reserve(ob, n)) {
		memcpy(ob->buf + ob->len, s, n);
		ob->len += n;
	}
}

static inline void outbuf__puts(struct outbuf *ob, const char *s)
{
	outbuf__putn(ob, s, strlen(s));
}

static inline void outbuf__fill(struct outbuf *ob, char c, size_t n)
{
	if (outbuf__reserve(ob, n)) {
		memset(ob->buf + ob->len, c, n);
		ob->len += n;
	}
}

/* s right-aligned in width columns (printf "%*s"). */
static inline void outbuf__puts_right(struct outbuf *ob, const char *s, size_t width)
{
	size_t n = strlen(s);

	if (n < width)
		outbuf__fill(ob, ' ', width - n);
	outbuf__putn(ob, s, n);
}

/* Digits of v into the end of tmp[24]; returns the first one. */
static inline char *outbuf__utoa(char tmp[24], uint64_t v)
{
	char *p = tmp + 24;

	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	return p;
}

static inline char *outbuf__xtoa(char tmp[24], uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char *p = tmp + 24;

	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v);
	return p;
}

/*
 * A number in width columns, right-aligned ("%*d"), or left-aligned
 * ("%-*d") when left; zero-padded ("%0*u") when zero. Signed values
 * print a leading '-'.
 */
static inline void outbuf__num(struct outbuf *ob, const char *digits, size_t n, bool neg,
			       int width, bool left, bool zero)
{
	size_t total = n + neg;
	size_t pad = width > 0 && (size_t)width > total ? (size_t)width - total : 0;

	if (!outbuf__reserve(ob, total + pad))
		return;
	if (!left && !zero && pad)
		outbuf__fill(ob, ' ', pad);
	if (neg)
		ob->buf[ob->len++] = '-';
	if (zero && !left && pad)
		outbuf__fill(ob, '0', pad);
	outbuf__putn(ob, digits, n);
	if (left && pad)
		outbuf__fill(ob, ' ', pad);
}

static inline void outbuf__u64(struct outbuf *ob, uint64_t v, int width)
{
	char tmp[24], *p = outbuf__utoa(tmp, v);

	outbuf__num(ob, p, tmp + 24 - p, false, width, false, false);
}

static inline void outbuf__u64_zero(struct outbuf *ob, uint64_t v, int width)
{
	char tmp[24], *p = outbuf__utoa(tmp, v);

	outbuf__num(ob, p, tmp + 24 - p, false, width, false, true);
}

static inline void outbuf__s64(struct outbuf *ob, int64_t v, int width, bool left)
{
	char tmp[24], *p = outbuf__utoa(tmp, v < 0 ? -(uint64_t)v : (uint64_t)v);

	outbuf__num(ob, p, tmp + 24 - p, v < 0, width, left, false);
}

/* Lower-case hex without prefix, right-aligned in width ("%*lx"). */
static inline void outbuf__hex(struct outbuf *ob, uint64_t v, int width)
{
	char tmp[24], *p = outbuf__xtoa(tmp, v);

	outbuf__num(ob, p, tmp + 24 - p, false, width, false, false);
}

/* "0x..." as printf "%#lx" prints it (plain "0" for zero). */
static inline void outbuf__hex_alt(struct outbuf *ob, uint64_t v)
{
	if (v)
		outbuf__putn(ob, "0x", 2);
	outbuf__hex(ob, v, 0);
}

/*
 * Raw writers for the hot paths: the caller has reserved the room
 * (outbuf__reserve) and writes at p, getting the new end back.
 */
static inline char *outbuf__raw_hex(char *p, uint64_t v, int width)
{
	static const char hex[] = "0123456789abcdef";
	int n = (64 - __builtin_clzll(v | 1) + 3) / 4;
	char *end;

	if (width > n) {
		memset(p, ' ', width - n);
		p += width - n;
	}
	end = p + n;
	do {
		*--end = hex[v & 15];
		v >>= 4;
	} while (end > p);
	return p + n;
}

static inline char *outbuf__raw_str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

#endif
