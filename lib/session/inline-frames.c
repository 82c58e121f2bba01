// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The inline functions at an unwound frame, as perf shows them: its
 * unwinder's callback (machine.c's unwind_entry()) puts, in place of the
 * frame, one entry per level of the inline chain addr2line gives for the
 * address, innermost first, each named after its function. A level whose
 * name is the frame's own symbol's is the symbol itself; any other is a
 * made-up symbol perf flags inlined, with the frame's symbol start (so
 * the same +0x offset), which perf script prints with "(inlined)" for its
 * dso. Without a symbol, or when DWARF knows nothing of the address, the
 * frame stays as it is. Each level carries its source line (perf prints it
 * for -F srcline). The chain comes from lib/collapse's inliner (the
 * addr2line -i -f answers, with elfutils, "func:file:line" per level);
 * its levels are kept here per (dso, address), interned, so that a frame
 * seen before costs a probe (the inliner's own cache goes by the
 * address's and the path's text).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collapse/inline.h"
#include "core/array.h"
#include "core/hash.h"
#include "machine/machine.h"
#include "session/session-priv.h"

/*
 * Cuts "func:file:line" (a function's name may hold ':' itself) after the
 * name and returns "file:line" as perf prints it: "??:0" when addr2line
 * knows neither, line 0 for "?". NULL when level has no such tail.
 */
static char *split_srcline(char *level)
{
	char *colon = strrchr(level, ':'), *file;

	if (!colon || colon == level)
		return NULL;
	*colon = '\0';
	file = strrchr(level, ':');
	*colon = ':';
	if (!file)
		return NULL;
	*file++ = '\0';
	if (!strcmp(colon + 1, "?"))
		strcpy(colon + 1, "0");
	return file;
}

/* The levels kept for an address: the inliner's at most (its MAX_LEVELS). */
#define MAX_CACHED_LEVELS 64

/* The payload of the cache's slots: an address's levels. */
struct inline_entry {
	const struct ember_dso *dso;	/* the key: dso and address */
	uint64_t addr;
	const char *dso_name;		/* the path the inliner was asked with */
	const char *sym_name;		/* the frame's symbol name the levels were compared with */
	uint64_t own;			/* bit i: level i is named as that symbol */
	uint32_t first, nr;		/* levels[first, first + nr), innermost first */
};

static bool entry_eq(const struct hashtab_slot *s, const void *key)
{
	const struct inline_entry *e = hashtab__payload(s), *k = key;

	return e->dso == k->dso && e->addr == k->addr;
}

void inline_cache__exit(struct inline_cache *c)
{
	inliner__delete(c->inliner);
	sbuf_free(&c->text);
	hashtab__exit(&c->by_addr);
	free(c->levels);
	memset(c, 0, sizeof(*c));
}

static int push_level(struct inline_cache *c, const char *name, const char *srcline)
{
	if (array__reserve((void **)&c->levels, &c->alloc_levels, c->nr_levels,
			   sizeof(*c->levels)))
		return -ENOMEM;
	c->levels[c->nr_levels++] = (struct inline_level){ name, srcline };
	return 0;
}

/*
 * The inline chain addr2line gives for al's address, its levels (names
 * and source lines) appended to the cache's innermost first, into e
 * (first, nr, own). 0 or -ENOMEM.
 */
static int read_levels(struct inline_cache *c, struct ember_machine *machine,
		       const struct ember_addr_location *al, struct inline_entry *e)
{
	struct sbuf *ch = &c->text;
	char pc[24];
	bool unreadable = false;
	size_t end;
	int n, err;

	e->first = (uint32_t)c->nr_levels;
	e->nr = 0;
	e->own = 0;
	if (!c->inliner && !(c->inliner = inliner__new(true)))
		return -ENOMEM;
	n = snprintf(pc, sizeof(pc), "%" PRIx64, al->addr);
	sbuf_reset(ch);
	err = inliner__resolve(c->inliner, (struct span){ pc, n }, (struct span){ "", 0 },
			       (struct span){ al->dso_name, strlen(al->dso_name) }, ch, &unreadable);
	if (err)
		return err;
	/* addr2line knows nothing of the address: "??:??:0" */
	if (!ch->len || (ch->len == 7 && !memcmp(ch->buf, "??:??:0", 7)))
		return 0;
	/* outermost first, ';' apart: perf's entries go innermost first */
	if (sbuf_addc(ch, '\0'))
		return -ENOMEM;
	end = ch->len - 1;
	while (e->nr < MAX_CACHED_LEVELS) {
		size_t start = end;
		const char *name, *line;
		char *level;

		while (start > 0 && ch->buf[start - 1] != ';')
			start--;
		ch->buf[end] = '\0';
		level = ch->buf + start;
		line = split_srcline(level);
		name = machine__intern(machine, level);
		if (!name || (line && !(line = machine__intern(machine, line))) ||
		    push_level(c, name, line))
			return -ENOMEM;
		if (!strcmp(name, al->sym_name))
			e->own |= 1ULL << e->nr;
		e->nr++;
		if (!start)
			break;
		end = start - 1;
	}
	return 0;
}

/*
 * The entries of e's levels in place of al: each a copy of al, the
 * levels not named as al's symbol renamed and flagged inlined.
 */
static int levels_out(const struct inline_cache *c, const struct inline_entry *e,
		      const struct ember_addr_location *al, struct ember_addr_location *out,
		      size_t room)
{
	size_t nr = e->nr < room ? e->nr : room;
	bool same_sym = e->sym_name == al->sym_name;

	for (size_t i = 0; i < nr; i++) {
		const char *name = c->levels[e->first + i].name;

		out[i] = *al;
		if (c->levels[e->first + i].srcline)
			out[i].srcline = c->levels[e->first + i].srcline;
		if (same_sym ? !(e->own >> i & 1) : strcmp(name, al->sym_name) != 0) {
			out[i].sym_name = name;
			out[i].inlined = true;
		}
	}
	return (int)nr;
}

int inline_cache__frames(struct inline_cache *c, struct ember_machine *machine,
			 const struct ember_addr_location *al, struct ember_addr_location *out,
			 size_t room)
{
	struct inline_entry key = { .dso = al->dso, .addr = al->addr }, *e;
	uint64_t h = hash_mum((uintptr_t)al->dso ^ HASH_K0, al->addr ^ HASH_K1);
	struct hashtab_slot *slot;
	int err;

	if (!al->sym_name || !al->map || !al->dso_name || al->dso_name[0] != '/' || !room)
		return 0;
	if (!c->by_addr.stride)
		c->by_addr.stride = sizeof(struct hashtab_slot) + sizeof(struct inline_entry);
	if (hashtab__reserve(&c->by_addr, 1))
		return -ENOMEM;
	slot = hashtab__slot(&c->by_addr, h, entry_eq, &key);
	e = hashtab__payload(slot);
	/* the same dso under another name is asked again */
	if (slot->val && e->dso_name == al->dso_name)
		return levels_out(c, e, al, out, room);
	/* reading does not touch the table: slot stays where the key goes */
	err = read_levels(c, machine, al, &key);
	if (err)
		return err;
	key.dso_name = al->dso_name;
	key.sym_name = al->sym_name;
	if (!slot->val)
		hashtab__fill(&c->by_addr, slot, h, 1);
	*e = key;
	return levels_out(c, e, al, out, room);
}

int session__inline_frames(struct ember_session *s, const struct ember_addr_location *al,
			   struct ember_addr_location *out, size_t room)
{
	return inline_cache__frames(&s->inlines, s->machine, al, out, room);
}

int ember_session__inline_frames(struct ember_session *s, const struct ember_addr_location *al,
				 struct ember_addr_location *out, size_t room)
{
	return s->unwind && !s->opts.no_inline ? session__inline_frames(s, al, out, room) : 0;
}
