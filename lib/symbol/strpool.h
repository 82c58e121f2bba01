/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * An append-only string arena: strings copied in stay at the same address
 * until the pool is freed, so symbol and comm names can be handed out as
 * plain pointers. One allocation per 64 KiB of names, not one per name.
 */
#ifndef EMBER_LIB_STRPOOL_H
#define EMBER_LIB_STRPOOL_H

#include <stddef.h>

struct strpool_chunk;

struct strpool {
	struct strpool_chunk *chunks;	/* newest first */
	size_t used;			/* bytes used in the newest chunk */
	size_t size;			/* capacity of the newest chunk */
};

/* Reserves len bytes plus one for a NUL the caller writes; returns them (owned by the pool) or NULL. */
char *strpool__alloc(struct strpool *pool, size_t len);
/* Copies len bytes of s plus a NUL; returns the copy (owned by the pool) or NULL. */
char *strpool__add(struct strpool *pool, const char *s, size_t len);
/* Frees every string of the pool; the pool is empty and reusable afterwards. */
void strpool__exit(struct strpool *pool);

#endif
