/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The frames perf shows in place of an unwound user frame: one per level
 * of the inline chain at its address (inline-frames.c), kept by (dso,
 * address), the names interned in the machine the frames resolve in.
 * The session has one; so does any other reader of unwound stacks (ember
 * trace --call-graph dwarf).
 */
#ifndef EMBER_LIB_SESSION_INLINE_CACHE_H
#define EMBER_LIB_SESSION_INLINE_CACHE_H

#include <stddef.h>
#include <ember/machine.h>
#include "collapse/sbuf.h"
#include "core/hashtab.h"

/* An inline level: its function's name and its source line (NULL: none), interned. */
struct inline_level {
	const char *name, *srcline;
};

/* Zeroed: empty. */
struct inline_cache {
	struct hashtab by_addr;		/* struct inline_entry payloads (inline-frames.c) */
	struct inline_level *levels;
	size_t nr_levels, alloc_levels;
	struct inliner *inliner;	/* addr2line's answers, made at the first frame */
	struct sbuf text;
};

/*
 * The entries in place of the unwound user frame al (resolved in
 * machine): one per inline level at its address, innermost first, each a
 * copy of al named after its function, inlined set where that is not al's
 * own symbol. At most room into out; returns how many, 0 when al stays as
 * it is (no symbol, no file, DWARF knows nothing), or -ENOMEM.
 */
int inline_cache__frames(struct inline_cache *c, struct ember_machine *machine,
			 const struct ember_addr_location *al, struct ember_addr_location *out,
			 size_t room);
/* Frees what the cache holds. */
void inline_cache__exit(struct inline_cache *c);

#endif
