/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* One ELF file's DWARF through libdwfl, for source lines and inlined frames. */
#ifndef EMBER_LIB_DWFL_ELF_H
#define EMBER_LIB_DWFL_ELF_H

#include <elfutils/libdwfl.h>

/*
 * A Dwfl holding path at its own addresses (base 0), as addr2line reads
 * them (offline reporting would move it); separate debug info is found by
 * build-id and .gnu_debuglink. NULL when path cannot be read; free with
 * dwfl_end().
 */
Dwfl *dwfl_elf__open(const char *path);

/*
 * The separate debug file holding the DWARF of dwfl's (one) module, found
 * by build-id, debuglink or debuginfod; NULL when the DWARF is in the file
 * itself or nowhere. binutils' addr2line takes the symbols it falls back
 * to (a function's name, the file of the STT_FILE before it) from that
 * file: `strip --strip-debug` leaves a .symtab without STT_FILE symbols.
 */
const char *dwfl_elf__debug_file(Dwfl *dwfl);

/*
 * The file binutils' addr2line names for line l, whose file libdw names
 * file (dwfl_lineinfo()'s answer): they differ for the rows of file 1 of
 * a DWARF 5 line table that come before a sequence's first
 * DW_LNS_set_file, which binutils names after file 0 (see dwfl-elf.c).
 */
const char *dwfl_elf__line_file(Dwfl_Line *l, const char *file);

/*
 * The same with what it learns of each unit's line program kept in c
 * (dwfl_elf__line_file() reads the unit's whole program each time): c is
 * from dwfl_elf_lines__new(), knows units by their Dwarf's address, so
 * is freed (dwfl_elf_lines__delete()) with the Dwfls it was given lines
 * of, not after.
 */
struct dwfl_elf_lines;
struct dwfl_elf_lines *dwfl_elf_lines__new(void);
void dwfl_elf_lines__delete(struct dwfl_elf_lines *c);
const char *dwfl_elf__line_file_cached(struct dwfl_elf_lines *c, Dwfl_Line *l, const char *file);

/*
 * Whether DWARF address addr is inside one of the sequences of unit cu's
 * line program (1), where binutils looks for its line, or not (0: libdw
 * may still give the row a sequence has at its end address); -1 when
 * the program cannot be read.
 */
int dwfl_elf__in_sequence(struct dwfl_elf_lines *c, Dwarf *dw, Dwarf_Die *cu, Dwarf_Addr addr);

/* The same for row dl of unit cu of dw, found without libdwfl. */
const char *dwfl_elf__dwarf_line_file(struct dwfl_elf_lines *c, Dwarf *dw, Dwarf_Die *cu,
				     Dwarf_Line *dl, const char *file);

#endif
