/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Every symbol of an ELF file, functions and data, as objdump names an
 * address: "<sym+0xoff>" after the nearest symbol at or before it in the
 * same section.
 */
#ifndef EMBER_ANNOTATE_ELF_SYMS_H
#define EMBER_ANNOTATE_ELF_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gelf.h>
#include "core/arena.h"

struct elf_sym_ent {
	uint64_t addr;
	const char *name;
	uint32_t shndx;
	uint32_t rank;		/* objdump's order among symbols of one address */
};

struct elf_sect {
	uint64_t addr, size;
};

/* A slot a dynamic relocation fills: named after its symbol */
struct elf_slot {
	uint64_t addr;
	const char *name;	/* versioned: "stderr@@GLIBC_2.2.5", "_rtld_global_ro@GLIBC_PRIVATE" */
	uint64_t value;		/* the symbol's (the slot's own for an undefined one) */
};

struct elf_syms {
	struct elf_sym_ent *syms;	/* by address, then rank */
	size_t nr;
	struct elf_slot *slots;		/* by address */
	size_t nr_slots;
	struct elf_sect *sects;		/* by section index */
	size_t nr_sects;
	bool from_symtab;		/* syms are .symtab's (else .dynsym's, or none) */
	struct arena names;
};

/*
 * An ELF file opened for reading: path, or "[vdso]" for this process's
 * vdso image (the one the kernel maps into every process). 0 or -errno.
 */
struct elf_file {
	Elf *elf;
	int fd;
	void *image;
};
int elf_file__open(struct elf_file *f, const char *path);
void elf_file__close(struct elf_file *f);

/* Reads .symtab (else .dynsym) of an open file: 0, -ENODATA, -ENOMEM. */
int elf_syms__load(struct elf_syms *s, Elf *elf);
/*
 * Adds objdump's synthetic "name@plt" symbols for the PLT entries of elf
 * (the binary: a debug file has no PLT code). 0 or -ENOMEM.
 */
int elf_syms__add_plt(struct elf_syms *s, Elf *elf);
void elf_syms__exit(struct elf_syms *s);
/*
 * The name objdump heads a block at addr with: as elf_syms__name(), but
 * from the first symbol after addr in its section (a negative *off) when
 * none is before it there.
 */
const char *elf_syms__label(const struct elf_syms *s, uint64_t addr, int64_t *off);
/*
 * The symbol of the dynamic relocation filling addr, and addr's offset
 * from its value; NULL: none.
 */
const char *elf_syms__slot(const struct elf_syms *s, uint64_t addr, int64_t *off);
/* The symbol objdump names addr after, and addr's offset from it; NULL when none. */
const char *elf_syms__name(const struct elf_syms *s, uint64_t addr, uint64_t *off);

#endif
