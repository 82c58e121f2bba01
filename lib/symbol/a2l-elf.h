/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What binutils' addr2line reads of an ELF file besides DWARF: its
 * allocated sections (it looks for an address nowhere else) and the
 * symbols its elf_find_function() falls back to when no line covers an
 * address, each with the file that binutils names for it.
 */
#ifndef EMBER_LIB_A2L_ELF_H
#define EMBER_LIB_A2L_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdwfl.h>
#include "core/arena.h"

struct a2l_sec {
	uint64_t addr, size;
	size_t idx;
};

/* A symbol, in its table's order. */
struct a2l_sym {
	uint64_t value, size;
	const char *name;
	const char *file;	/* binutils' file for it, NULL: "??" */
	size_t shndx;
	bool func;		/* STT_FUNC, STT_NOTYPE or STT_GNU_IFUNC */
};

struct a2l_elf {
	struct a2l_sec *secs;
	size_t nr_secs;
	struct a2l_sym *syms;
	size_t nr_syms;
	bool has_symtab;	/* the file's own .symtab, nm's symbols */
	struct arena names;
};

/*
 * Reads elf's sections, and the symbols: those of the separate debug
 * file dwfl found for elf's DWARF (may be NULL), else elf's .symtab, else
 * its .dynsym. 0 or -ENOMEM; a part that cannot be read is left empty.
 */
int a2l_elf__read(struct a2l_elf *a, Elf *elf, Dwfl *dwfl);
void a2l_elf__exit(struct a2l_elf *a);

/* The allocated section holding addr, or NULL. */
const struct a2l_sec *a2l_elf__section(const struct a2l_elf *a, uint64_t addr);

/* elf_find_function(): the highest function-like symbol at or below addr in section shndx. */
const struct a2l_sym *a2l_elf__function(const struct a2l_elf *a, size_t shndx, uint64_t addr);

/* nm's: the first defined symbol of that name, from the file's own .symtab only. */
const struct a2l_sym *a2l_elf__by_name(const struct a2l_elf *a, const char *name, size_t len);

#endif
