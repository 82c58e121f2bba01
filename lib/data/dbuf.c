// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "data/dbuf.h"
#include "data/format.h"

int dbuf_reserve(struct dbuf *b, size_t more)
{
	size_t cap;
	uint8_t *p;

	if (b->err)
		return b->err;
	if (b->len + more <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + more)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->err = -ENOMEM;
		return b->err;
	}
	b->data = p;
	b->cap = cap;
	return 0;
}

void dbuf_add(struct dbuf *b, const void *p, size_t n)
{
	if (!n || dbuf_reserve(b, n))
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void dbuf_add_zeros(struct dbuf *b, size_t n)
{
	if (!n || dbuf_reserve(b, n))
		return;
	memset(b->data + b->len, 0, n);
	b->len += n;
}

void dbuf_add_u32(struct dbuf *b, uint32_t v)
{
	dbuf_add(b, &v, sizeof(v));
}

void dbuf_add_u64(struct dbuf *b, uint64_t v)
{
	dbuf_add(b, &v, sizeof(v));
}

void dbuf_add_str(struct dbuf *b, const char *s)
{
	size_t n = strlen(s ? s : "") + 1;
	uint32_t len = ALIGN_UP(n, PERF_NAME_ALIGN);

	dbuf_add_u32(b, len);
	dbuf_add(b, s ? s : "", n);
	dbuf_add_zeros(b, len - n);
}

void dbuf_exit(struct dbuf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

const void *dcur_skip(struct dcur *c, size_t n)
{
	const uint8_t *p = c->p;

	if (c->err || (size_t)(c->end - c->p) < n) {
		c->err = true;
		return NULL;
	}
	c->p += n;
	return p;
}

void dcur_bytes(struct dcur *c, void *out, size_t n)
{
	const void *p = dcur_skip(c, n);

	if (p)
		memcpy(out, p, n);
	else
		memset(out, 0, n);
}

uint32_t dcur_u32(struct dcur *c)
{
	const void *p = dcur_skip(c, 4);

	return p ? get_u32(p) : 0;
}

uint64_t dcur_u64(struct dcur *c)
{
	const void *p = dcur_skip(c, 8);

	return p ? get_u64(p) : 0;
}

char *dcur_str(struct dcur *c)
{
	uint32_t len = dcur_u32(c);
	const char *p = dcur_skip(c, len);

	if (!p)
		return NULL;
	/* the string is NUL-padded within len; stop at the first NUL, or at len */
	return strndup(p, len);
}
