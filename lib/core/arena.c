// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/arena.h"

#define ARENA_CHUNK (64 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	alignas(16) unsigned char data[];
};

void *arena__alloc(struct arena *a, size_t size, size_t align)
{
	size_t csize = a->chunk_size ? a->chunk_size : ARENA_CHUNK;
	size_t at = (a->used + align - 1) & ~(align - 1);
	struct arena_chunk *c;

	if (a->chunks && at <= a->size && a->size - at >= size) {
		a->used = at + size;
		return a->chunks->data + at;
	}
	if (size > SIZE_MAX - sizeof(*c) - 16)
		return NULL;
	if (size > csize / 4) {
		/* A big one gets its own chunk, behind the current one, which stays in use. */
		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		if (a->chunks) {
			c->next = a->chunks->next;
			a->chunks->next = c;
		} else {
			c->next = NULL;
			a->chunks = c;
			a->used = a->size = size;
		}
		return c->data;
	}
	c = malloc(sizeof(*c) + csize);
	if (!c)
		return NULL;
	c->next = a->chunks;
	a->chunks = c;
	a->size = csize;
	a->used = size;
	return c->data;
}

void *arena__zalloc(struct arena *a, size_t size, size_t align)
{
	void *p = arena__alloc(a, size, align);

	return p ? memset(p, 0, size) : NULL;
}

char *arena__strndup(struct arena *a, const char *s, size_t len)
{
	char *p;

	if (len == SIZE_MAX)
		return NULL;
	p = arena__alloc(a, len + 1, 1);
	if (p) {
		if (len)
			memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

void arena__exit(struct arena *a)
{
	struct arena_chunk *c = a->chunks;

	while (c) {
		struct arena_chunk *next = c->next;

		free(c);
		c = next;
	}
	a->chunks = NULL;
	a->used = a->size = 0;
}
