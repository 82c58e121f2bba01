/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf script's -F srcline: after a sample's or a frame's dso, perf
 * prints "\n  FILE:LINE" (map__fprintf_srcline()), FILE's basename unless
 * --full-source-path; where addr2line knows nothing it prints
 * "DSO[ADDR]", and nothing at all for an address without a map.
 */
#ifndef EMBER_SCRIPT_SRCLINE_H
#define EMBER_SCRIPT_SRCLINE_H

#include <stdbool.h>
#include <ember/machine.h>
#include "script/outbuf.h"

struct script_srclines;

/* An empty cache; NULL on ENOMEM. */
struct script_srclines *script_srclines__new(bool full_path);
void script_srclines__delete(struct script_srclines *c);
/* Appends perf's "\n  srcline" of al to ob, or nothing. -ENOMEM on failure, else 0. */
int script_srclines__print(struct script_srclines *c, struct outbuf *ob,
			   const struct ember_addr_location *al);

#endif
