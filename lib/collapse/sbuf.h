/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A growable byte buffer for the collapser: lines, names and keys hold any byte, NUL included. */
#ifndef EMBER_LIB_COLLAPSE_SBUF_H
#define EMBER_LIB_COLLAPSE_SBUF_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct sbuf {
	char *buf;
	size_t len, alloc;
};

/* Room for n more bytes (plus a NUL kept after the data). 0 or -ENOMEM. */
static inline int sbuf_grow(struct sbuf *sb, size_t n)
{
	size_t need, alloc;
	char *p;

	if (n > (size_t)-1 / 2 - sb->len)
		return -ENOMEM;
	need = sb->len + n + 1;
	if (need <= sb->alloc)
		return 0;
	alloc = sb->alloc ? sb->alloc : 64;
	while (alloc < need)
		alloc *= 2;
	p = realloc(sb->buf, alloc);
	if (!p)
		return -ENOMEM;
	sb->buf = p;
	sb->alloc = alloc;
	return 0;
}

static inline int sbuf_add(struct sbuf *sb, const void *data, size_t n)
{
	if (sbuf_grow(sb, n))
		return -ENOMEM;
	if (n)
		memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

static inline int sbuf_addc(struct sbuf *sb, char c)
{
	return sbuf_add(sb, &c, 1);
}

static inline int sbuf_adds(struct sbuf *sb, const char *s)
{
	return sbuf_add(sb, s, strlen(s));
}

static inline void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

static inline void sbuf_free(struct sbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

#endif
