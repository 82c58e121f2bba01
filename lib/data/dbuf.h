/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Byte buffers for lib/data: a growable output buffer (dbuf) that the
 * feature and record writers append to, and a bounds-checked input cursor
 * (dcur) that the feature parsers read from.
 */
#ifndef EMBER_LIB_DATA_DBUF_H
#define EMBER_LIB_DATA_DBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growable byte buffer. Zero-initialise; release with dbuf_exit(). */
struct dbuf {
	uint8_t *data;
	size_t len, cap;
	int err;			/* first error (-ENOMEM); later appends are no-ops */
};

int dbuf_reserve(struct dbuf *b, size_t more);
void dbuf_add(struct dbuf *b, const void *p, size_t n);
void dbuf_add_zeros(struct dbuf *b, size_t n);
void dbuf_add_u32(struct dbuf *b, uint32_t v);
void dbuf_add_u64(struct dbuf *b, uint64_t v);
/* perf_header_string: u32 length (NUL included, padded to 64), then the padded bytes. */
void dbuf_add_str(struct dbuf *b, const char *s);
void dbuf_exit(struct dbuf *b);

/* A read cursor over [p, end). Any overrun sets `err` and reads zeros. */
struct dcur {
	const uint8_t *p, *end;
	bool err;
};

static inline struct dcur dcur_init(const void *p, size_t n)
{
	struct dcur c = { p, (const uint8_t *)p + n, false };

	return c;
}

static inline size_t dcur_left(const struct dcur *c)
{
	return c->err ? 0 : (size_t)(c->end - c->p);
}

uint32_t dcur_u32(struct dcur *c);
uint64_t dcur_u64(struct dcur *c);
/* Copy n bytes out (zeros on overrun). */
void dcur_bytes(struct dcur *c, void *out, size_t n);
/* Skip n bytes; returns a pointer to them or NULL on overrun. */
const void *dcur_skip(struct dcur *c, size_t n);
/* A perf_header_string as a new NUL-terminated string; NULL on overrun or ENOMEM. */
char *dcur_str(struct dcur *c);

#endif
