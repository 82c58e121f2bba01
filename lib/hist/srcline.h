/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* perf report's srcline and srcfile keys: the strings, cached per (dso, address). */
#ifndef EMBER_HIST_SRCLINE_H
#define EMBER_HIST_SRCLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/hist.h>

struct hist_srclines;

/* An empty cache; NULL on ENOMEM. */
struct hist_srclines *hist_srclines__new(void);
/* Frees the cache and every string it handed out; NULL is fine. */
void hist_srclines__delete(struct hist_srclines *c);

/*
 * What perf 6.1 prints in the Source:Line (file false) or Source File
 * (file true) column for frame f seen at ip (perf's he->ip): "file.c:42"
 * from the debug info, else "sym+OFF" (decimal, ip - symbol start),
 * "dso[hexaddr]" without a symbol, "??:0" without a map; the file part
 * of the srcline, "" when there is none. The string is owned by c; NULL
 * on ENOMEM. Matches ember_hist_opts.srcline with c as the context.
 */
const char *hist_srclines__get(void *c, const struct ember_hist_frame *f, uint64_t ip, bool file);

/*
 * What perf 6.1 prints after a callchain entry's name with -g ...,address
 * (its callchain_srcline()): the line of the frame's dso-relative address,
 * else "+OFF" from the symbol's start, else "dso[hexaddr]". Owned by c;
 * NULL on ENOMEM. Matches ember_hist_opts.chain_srcline.
 */
const char *hist_srclines__chain(void *c, const struct ember_hist_frame *f);

#endif
