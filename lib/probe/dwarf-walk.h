/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Walks over a unit's DWARF by perf probe's rules, shared by the places
 * (dwarf-place.c) and the -L lines (dwarf-lines.c): which functions a
 * name or an address picks, which line-table rows count as lines of a
 * function or a file, and the reverse: the place an address is.
 */
#ifndef EMBER_LIB_PROBE_DWARF_WALK_H
#define EMBER_LIB_PROBE_DWARF_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <elfutils/libdw.h>

/* Whether a and b agree from their ends (perf's strtailcmp() == 0). */
bool probe_dw__tail_eq(const char *a, const char *b);
/* A subprogram that is not a declaration. */
bool probe_dw__is_func_def(Dwarf_Die *die);
/* A function with code of its own (not only an abstract inline one). */
bool probe_dw__is_func_instance(Dwarf_Die *die);
/* The entry address: DW_AT_entry_pc / low_pc, else the first range's start. */
int probe_dw__entrypc(Dwarf_Die *die, Dwarf_Addr *addr);
/* The name or the linkage name matches glob. */
bool probe_dw__match_name(Dwarf_Die *die, const char *glob);
/* The file an inlined copy was called from, and the line. */
const char *probe_dw__call_file(Dwarf_Die *in);
int probe_dw__call_line(Dwarf_Die *in);

/* The subprogram of cu whose code holds addr. */
Dwarf_Die *probe_dw__realfunc(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *out);
/* The outermost (deepest: false) or innermost inlined copy in sp holding addr. */
Dwarf_Die *probe_dw__inline_at(Dwarf_Die *sp, Dwarf_Addr addr, bool deepest, Dwarf_Die *out);
/* The unit's file whose name ends as tail does (perf's cu_find_realpath). */
const char *probe_dw__cu_file(Dwarf_Die *cu, const char *tail);
/*
 * The file and line addr is on: a function's entry is its declaration's
 * line, else the first statement row at addr. The line, or -ENOENT.
 */
int probe_dw__lineinfo(Dwarf_Die *cu, Dwarf_Addr addr, const char **file, int *line);
/* Whether any variable of the unit lives in a location list (built with -O). */
bool probe_dw__optimized(Dwarf_Die *cu);
/* The address past a function's prologue, from its entry (perf's rule). */
void probe_dw__skip_prologue(Dwarf_Die *sp, Dwarf_Die *cu, Dwarf_Addr *entry);

/*
 * Every line of root (a unit, a function or an inlined copy) with its
 * address: the line table's statement rows inside it (not those of
 * copies inlined into it), then the declarations' lines at their
 * entries and the lines inlined copies are called from. fn's non-zero
 * return stops the walk and is returned; -ENOENT without a line table.
 */
typedef int (*probe_dw_line_fn)(const char *file, int line, Dwarf_Addr addr, void *arg);
int probe_dw__walk_lines(Dwarf_Die *root, probe_dw_line_fn fn, void *arg);

/*
 * Every concrete copy (out of line or inlined) of the abstract function
 * origin in its unit. fn's non-zero return stops and is returned;
 * -ENOENT when there is none.
 */
int probe_dw__walk_instances(Dwarf_Die *origin, int (*fn)(Dwarf_Die *, void *), void *arg);

/*
 * perf's fast path for a function: the first entry of .debug_pubnames
 * that is a subprogram named (glob) name, declared in a file ending as
 * file (when given), with its unit. False when there is none (or no
 * such section).
 */
bool probe_dw__pubname(Dwarf *dw, const char *name, const char *file, Dwarf_Die *sp,
		       Dwarf_Die *cu);

/* A place as perf names it back from an address: FUNC[+OFF|:LINE]@FILE. */
struct probe_dw_point {
	const char *function;	/* owned by the Dwarf */
	const char *file;
	int line;		/* relative to the function's declaration, when has_line */
	unsigned long long offset;	/* from the function's entry, when has_offset */
	bool has_line, has_offset;
};

/* The place at addr. 1 found, 0 nothing named, -ENOENT no unit holds addr. */
int probe_dw__find_point(Dwarf *dw, Dwarf_Addr addr, struct probe_dw_point *pt);

/*
 * The source file perf reads for a unit's file name: under prefix (-s),
 * dropping name's leading directories until one can be read; else name
 * itself when absolute, or under the unit's compilation directory. 0 with
 * a malloc'd *path when it can be read, -errno.
 */
int probe_dw__source_path(Dwarf_Die *cu, const char *name, const char *prefix, char **path);

#endif
