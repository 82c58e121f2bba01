/* SPDX-License-Identifier: GPL-2.0-only */
/* perf report's srcline and srcfile keys: the strings, cached per (dso, address). */
#ifndef EMBER_REPORT_SRCLINE_H
#define EMBER_REPORT_SRCLINE_H

#include <stdbool.h>
#include <stdint.h>
#include "report/report.h"

struct rep_srclines;

/* An empty cache; NULL on ENOMEM. */
struct rep_srclines *rep_srclines__new(void);
/* Frees the cache and every string it handed out; NULL is fine. */
void rep_srclines__delete(struct rep_srclines *c);

/*
 * What perf 6.1 prints in the Source:Line (file false) or Source File
 * (file true) column for frame f seen at ip (perf's he->ip): "file.c:42"
 * from the debug info, else "sym+OFF" (decimal, ip - symbol start),
 * "dso[hexaddr]" without a symbol, "??:0" without a map; the file part
 * of the srcline, "" when there is none. The string is owned by c; NULL
 * on ENOMEM. Matches rep_hist_opts.srcline with c as the context.
 */
const char *rep_srclines__get(void *c, const struct rep_frame *f, uint64_t ip, bool file);

/*
 * What perf 6.1 prints after a callchain entry's name with -g ...,address
 * (its callchain_srcline()): the line of the frame's dso-relative address,
 * else "+OFF" from the symbol's start, else "dso[hexaddr]". Owned by c;
 * NULL on ENOMEM. Matches rep_hist_opts.chain_srcline.
 */
const char *rep_srclines__chain(void *c, const struct rep_frame *f);

#endif
