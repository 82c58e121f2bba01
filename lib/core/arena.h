/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The one block allocator: objects and strings carved from big chunks,
 * never moved and never freed one by one, all freed at once. One malloc
 * per chunk (64 KiB unless the owner asks for more) instead of one per
 * object; a request bigger than a quarter chunk gets a chunk of its own
 * behind the current one, which stays in use.
 */
#ifndef EMBER_CORE_ARENA_H
#define EMBER_CORE_ARENA_H

#include <stddef.h>

struct arena_chunk;

/* A zeroed struct is an empty arena with 64 KiB chunks; set chunk_size before the first alloc. */
struct arena {
	struct arena_chunk *chunks;	/* the current chunk first */
	size_t used, size;		/* bytes used and held by the current chunk */
	size_t chunk_size;		/* 0: 64 KiB */
};

/*
 * size bytes aligned to align (a power of two, at most 16), owned by the
 * arena until arena__exit(); NULL when out of memory. Not zeroed.
 */
void *arena__alloc(struct arena *a, size_t size, size_t align);
/* As arena__alloc(), zeroed. */
void *arena__zalloc(struct arena *a, size_t size, size_t align);
/* A copy of s[0..len) and a NUL, owned by the arena; NULL when out of memory. */
char *arena__strndup(struct arena *a, const char *s, size_t len);
/* Frees everything allocated; the arena is empty and reusable (chunk_size kept). */
void arena__exit(struct arena *a);

/* One object of type T from arena a, uninitialised. */
#define arena__new(a, T) ((T *)arena__alloc((a), sizeof(T), _Alignof(T)))

#endif
