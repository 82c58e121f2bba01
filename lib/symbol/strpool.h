/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The string pool under its old name, for src/report/tracekey.c alone
 * until src/report moves to lib/hist: lib/core's arena does the work.
 * New code uses struct arena and arena__strndup() directly.
 */
#ifndef EMBER_LIB_STRPOOL_H
#define EMBER_LIB_STRPOOL_H

#include "core/arena.h"

struct strpool {
	struct arena arena;
};

/* Copies len bytes of s plus a NUL; returns the copy (owned by the pool) or NULL. */
static inline char *strpool__add(struct strpool *pool, const char *s, size_t len)
{
	return arena__strndup(&pool->arena, s, len);
}

/* Frees every string of the pool; the pool is empty and reusable afterwards. */
static inline void strpool__exit(struct strpool *pool)
{
	arena__exit(&pool->arena);
}

#endif
