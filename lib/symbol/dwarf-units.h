/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A file's compile units by their own address ranges (DW_AT_low_pc and
 * high_pc, or DW_AT_ranges), as binutils finds the unit of an address.
 * libdwfl (elfutils 0.188) goes by .debug_aranges only, which clang does
 * not write: there it finds no unit, and addr2line still does.
 */
#ifndef EMBER_LIB_SYMBOL_DWARF_UNITS_H
#define EMBER_LIB_SYMBOL_DWARF_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <elfutils/libdw.h>

struct dwarf_unit_range {
	Dwarf_Addr lo, hi;	/* DWARF's addresses: the module's, less its bias */
	Dwarf_Die die;
};

struct dwarf_units {
	struct dwarf_unit_range *v;	/* sorted by lo */
	size_t nr;
	bool read;
};

/* Read dw's units' ranges, the first time only. 0, or -ENOMEM (none kept). */
int dwarf_units__read(struct dwarf_units *u, Dwarf *dw);

/*
 * The units whose ranges hold addr, nearest start first: *pos is
 * DWARF_UNITS_START for the first call, then passed back unchanged.
 * NULL when there is no other.
 */
#define DWARF_UNITS_START ((size_t)-1)
Dwarf_Die *dwarf_units__next(struct dwarf_units *u, Dwarf_Addr addr, size_t *pos);

void dwarf_units__exit(struct dwarf_units *u);

#endif
