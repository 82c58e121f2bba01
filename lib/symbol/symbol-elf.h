/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reading symbols out of ELF files with libelf, as perf's symbol-elf.c:
 * a "symsrc" is one opened candidate file (the binary, a debug file);
 * symbols come from one with a .symtab, program headers and the PLT from
 * the runtime binary.
 */
#ifndef EMBER_LIB_SYMBOL_ELF_H
#define EMBER_LIB_SYMBOL_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gelf.h>
#include "symbol/demangle.h"
#include "symbol/dso.h"

struct symsrc {
	char *path;		/* owned; NULL for an in-memory image */
	int fd;			/* -1 for an in-memory image */
	Elf *elf;
	GElf_Ehdr ehdr;
	Elf_Scn *symtab;	/* SHT_SYMTAB .symtab, or NULL */
	Elf_Scn *dynsym;	/* SHT_DYNSYM .dynsym, or NULL */
	size_t dynsym_idx;
};

/* The first section of elf named name, its header in *shdr; NULL when there is none. */
Elf_Scn *elf__section_by_name(Elf *elf, const char *name, GElf_Shdr *shdr);

/*
 * Opens path as a symbol source. When bid_size, the file must carry that
 * build-id (-EILSEQ otherwise, as perf rejects mismatched images).
 * Returns 0, or -errno (-ENOEXEC: not ELF).
 */
int symsrc__open(struct symsrc *ss, const char *path, const uint8_t *bid, size_t bid_size);
/* The same over an ELF image in memory (the vdso); image must outlive ss. */
int symsrc__open_mem(struct symsrc *ss, void *image, size_t size, const uint8_t *bid,
		     size_t bid_size);
void symsrc__close(struct symsrc *ss);

/* Copies ss's non-empty PT_LOAD headers into a malloc'd array; 0 or -errno. */
int symsrc__read_segments(struct symsrc *ss, struct elf_seg **segs, size_t *nr);
/*
 * Loads syms_ss's .symtab, then its .dynsym, into t, perf's way:
 * functions, objects and labels in allocated sections, converted to file
 * offsets through runtime's program headers (segs), demangled, each table
 * then sorted and fixed up (aliases: the duplicates at one address kept,
 * as perf probe keeps them). Returns how many symbols were read (before
 * duplicates were dropped), or -errno.
 */
int symsrc__load_symbols(struct symtab *t, struct symsrc *syms_ss, struct symsrc *runtime_ss,
			 const struct elf_seg *segs, size_t nr_segs, enum demangle_mode demangle,
			 bool aliases);
/*
 * Adds a "name@plt" symbol for each .plt entry of runtime_ss (via
 * .rela.plt/.rel.plt and .dynsym), as perf 6.1 does, even where a
 * stretched symbol covers it. Returns how many were added (0 when there
 * is no PLT).
 */
int symsrc__synthesize_plt(struct symtab *t, struct symsrc *runtime_ss,
			   enum demangle_mode demangle);

#endif
