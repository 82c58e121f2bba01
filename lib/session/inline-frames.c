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
 * addr2line -i -f answers, with elfutils, "func:file:line" per level),
 * cached per address and file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collapse/inline.h"
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

int session__inline_frames(struct ember_session *s, const struct ember_addr_location *al,
			   struct ember_addr_location *out, size_t room)
{
	struct sbuf *ch = &s->inline_text;
	char pc[24];
	bool unreadable = false;
	size_t end, nr = 0;
	int n, err;

	if (!al->sym_name || !al->map || !al->dso_name || al->dso_name[0] != '/' || !room)
		return 0;
	if (!s->inliner && !(s->inliner = inliner__new(true)))
		return -ENOMEM;
	n = snprintf(pc, sizeof(pc), "%" PRIx64, al->addr);
	sbuf_reset(ch);
	err = inliner__resolve(s->inliner, (struct span){ pc, n }, (struct span){ "", 0 },
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
	while (nr < room) {
		size_t start = end;
		char *level, *line;
		const char *name;

		while (start > 0 && ch->buf[start - 1] != ';')
			start--;
		ch->buf[end] = '\0';
		level = ch->buf + start;
		out[nr] = *al;
		line = split_srcline(level);
		if (line && !(out[nr].srcline = machine__intern(s->machine, line)))
			return -ENOMEM;
		if (strcmp(level, al->sym_name)) {
			name = machine__intern(s->machine, level);
			if (!name)
				return -ENOMEM;
			out[nr].sym_name = name;
			out[nr].inlined = true;
		}
		nr++;
		if (!start)
			break;
		end = start - 1;
	}
	return (int)nr;
}

int ember_session__inline_frames(struct ember_session *s, const struct ember_addr_location *al,
				 struct ember_addr_location *out, size_t room)
{
	return s->unwind && !s->opts.no_inline ? session__inline_frames(s, al, out, room) : 0;
}
