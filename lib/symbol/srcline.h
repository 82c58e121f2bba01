/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Source lines of addresses, as perf 6.1 (built without libbfd) gets
 * them: it asks `addr2line -e FILE -i -f` and keeps the first answer's
 * "file:line". Here the same answer comes from elfutils: the DWARF line
 * table, and where that knows nothing, binutils' symbol-table fallback
 * (the nearest function symbol, named after the STT_FILE before it when
 * it is local; line 0).
 */
#ifndef EMBER_LIB_SRCLINE_H
#define EMBER_LIB_SRCLINE_H

#include <stdint.h>

struct ember_dso;
struct srclines;

/* An empty set of files; NULL on ENOMEM. Free with srclines__delete(). */
struct srclines *srclines__new(void);
void srclines__delete(struct srclines *s);

/*
 * addr2line's first location for vaddr (an ELF virtual address) in the
 * file at path. Returns 1 with *file (the name as DWARF or the symbol
 * table spells it, NULL for addr2line's "??"; owned by s, valid until
 * srclines__delete()) and *line (0 for addr2line's "?"); 0 when
 * addr2line would print "??:0" (nothing known, or no ELF file there); a
 * negative errno on failure.
 */
int srclines__find(struct srclines *s, const char *path, uint64_t vaddr, const char **file,
		   unsigned int *line);

/*
 * perf's map__rip_2objdump(at), for a map of dso in which one location
 * was recorded at ip and is addr dso-relative: for an executable linked
 * at fixed addresses (whose symbols perf moves to file offsets) the map's
 * start minus its offset is added back; other dsos take at as it is.
 */
uint64_t srclines__objdump_addr(struct ember_dso *dso, uint64_t ip, uint64_t addr, uint64_t at);

#endif
