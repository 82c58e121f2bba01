// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdlib.h>
#include <string.h>
#include "symbol/strpool.h"

#define STRPOOL_CHUNK (64 * 1024)

struct strpool_chunk {
	struct strpool_chunk *next;
	char data[];
};

char *strpool__alloc(struct strpool *pool, size_t len)
{
	char *p;

	if (!pool->chunks || pool->size - pool->used < len + 1) {
		size_t size = len + 1 > STRPOOL_CHUNK ? len + 1 : STRPOOL_CHUNK;
		struct strpool_chunk *c = malloc(sizeof(*c) + size);

		if (!c)
			return NULL;
		c->next = pool->chunks;
		pool->chunks = c;
		pool->used = 0;
		pool->size = size;
	}
	p = pool->chunks->data + pool->used;
	pool->used += len + 1;
	return p;
}

char *strpool__add(struct strpool *pool, const char *s, size_t len)
{
	char *p = strpool__alloc(pool, len);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

void strpool__exit(struct strpool *pool)
{
	struct strpool_chunk *c = pool->chunks;

	while (c) {
		struct strpool_chunk *next = c->next;

		free(c);
		c = next;
	}
	pool->chunks = NULL;
	pool->used = pool->size = 0;
}
