/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The DWARF of one binary for lib/probe: the file (or its separate debug
 * information, found by build-id or .gnu_debuglink) through libdwfl at
 * its own addresses, its call frame information for frame bases, and the
 * translation between the file offsets uprobes use and the addresses
 * DWARF uses. Shared by the place, line, variable and -V finders.
 */
#ifndef EMBER_LIB_PROBE_DWARF_FILE_H
#define EMBER_LIB_PROBE_DWARF_FILE_H

#include <stdint.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include "core/arena.h"

struct ember_probe_dwarf {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;		/* the debug information, borrowed from dwfl */
	Dwarf_Addr dw_bias;	/* dwfl address = DWARF address + dw_bias */
	Elf *elf;		/* the binary itself, borrowed from dwfl */
	Dwarf_Addr elf_bias;	/* dwfl address = ELF vaddr + elf_bias */
	Dwarf_CFI *cfi_eh;	/* .eh_frame of the DWARF's file, or NULL */
	Dwarf_CFI *cfi_dbg;	/* .debug_frame, or NULL */
	uint64_t text_delta;	/* .text's sh_addr - sh_offset: vaddr - this = file offset (perf's) */
	struct arena strings;	/* the fetch arguments handed out */
};

/*
 * ember_probe_dwarf__open() as lib/probe's finders call it: 0 with *d
 * set; -ENODATA (no DWARF, or no ELF file), -errno (path cannot be read),
 * -ENOMEM.
 */
int probe_dwarf__open(struct ember_probe_dwarf **d, const char *path);

/*
 * The DWARF address of the code at file offset off (through the PT_LOAD
 * segment holding it). 0, or -ERANGE when no segment holds it.
 */
int probe_dwarf__addr(const struct ember_probe_dwarf *d, uint64_t off, Dwarf_Addr *addr);

/*
 * The function scope of addr as perf takes it for a probe there: the
 * function definition holding addr (in sp too), or, when func names
 * another function, the innermost copy of func inlined there; its unit
 * in cu. 0, or -ENOENT.
 */
int probe_dwarf__scope(struct ember_probe_dwarf *d, Dwarf_Addr addr, const char *func,
		       Dwarf_Die *cu, Dwarf_Die *scope, Dwarf_Die *sp);

/*
 * The frame base of sp at addr as location operations: DW_AT_frame_base,
 * or the call frame's CFA rule when that is DW_OP_call_frame_cfa and
 * there is call frame information. *ops is NULL when there is none. 0, or -ENOENT when the CFA cannot be found.
 */
int probe_dwarf__frame_base(struct ember_probe_dwarf *d, Dwarf_Die *sp, Dwarf_Addr addr,
			    Dwarf_Op **ops, size_t *nops);

#endif

/* ---- types (dwarf-type.c) ---- */

/* The type of die with qualifiers (const, volatile, restrict, shared) skipped, typedefs kept. */
Dwarf_Die *probe_type__unqualified(Dwarf_Die *die, Dwarf_Die *mem);
/* The type of die with qualifiers and typedefs skipped (perf's real type), or NULL. */
Dwarf_Die *probe_type__real(Dwarf_Die *die, Dwarf_Die *mem);
/* Whether a base type is signed (signed, signed char, signed fixed). */
bool probe_type__is_signed(Dwarf_Die *type);
/*
 * The type of die as perf -V names it ("int", "struct pv_point", "char*",
 * "(function_type)") into buf. Returns the length, or -ENOENT when the
 * type has no name perf 6.1 gives (void*, for one).
 */
int probe_type__name(Dwarf_Die *die, char *buf, size_t size);
