/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * --inline: what `addr2line -a PC -e DSO -i -f -s -C` tells
 * stackcollapse-perf.pl about a frame, read with elfutils instead of
 * running a program per address: the inline chain outermost first,
 * "func" or "func:file:line" (--context) joined by ';'.
 */
#ifndef EMBER_LIB_COLLAPSE_INLINE_H
#define EMBER_LIB_COLLAPSE_INLINE_H

#include <stdbool.h>
#include "collapse/parse.h"
#include "collapse/sbuf.h"

struct inliner;

struct inliner *inliner__new(bool context);
void inliner__delete(struct inliner *in);

/*
 * Appends the script's inline($pc, $rawfunc, $mod) result to out: empty
 * when the dso cannot be read (*unreadable set the first time it is
 * tried), "??" or "??:??:0" when the address is unknown. Cached per
 * (pc, mod). 0 or -ENOMEM.
 */
int inliner__resolve(struct inliner *in, struct span pc, struct span rawfunc, struct span mod,
		     struct sbuf *out, bool *unreadable);
/* Address lookups done so far (cache misses). */
unsigned long inliner__lookups(const struct inliner *in);

#endif
