// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * addr2line's sections and fallback symbols (see a2l-elf.h). The file
 * binutils gives a symbol is the last STT_FILE symbol before it, for a
 * local symbol, or for any symbol while no file symbol has come after
 * another symbol yet. When the DWARF is in a separate debug file, the
 * symbols are that file's: `strip --strip-debug` leaves a .symtab
 * without STT_FILE symbols, and addr2line still names crtstuff.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include "symbol/a2l-elf.h"
#include "symbol/dwfl-elf.h"

static Elf_Scn *find_scn(Elf *elf, unsigned int type)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return scn;
	}
	return NULL;
}

static int read_sections(struct a2l_elf *a, Elf *elf)
{
	size_t nsecs = 0;

	if (elf_getshdrnum(elf, &nsecs))
		return 0;
	a->secs = calloc(nsecs + 1, sizeof(*a->secs));
	if (!a->secs)
		return -ENOMEM;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && sh.sh_size &&
		    a->nr_secs < nsecs)
			a->secs[a->nr_secs++] = (struct a2l_sec){ sh.sh_addr, sh.sh_size,
								  elf_ndxscn(scn) };
	}
	return 0;
}

static const char *keep(struct a2l_elf *a, const char *s)
{
	return arena__strndup(&a->names, s, strlen(s));
}

static int read_syms(struct a2l_elf *a, Elf *elf, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	const char *file = NULL;
	bool seen = false, file_after = false;
	GElf_Shdr sh;
	size_t n;

	if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize || !data)
		return 0;
	/* the table's size is the section's, bounded by the bytes there */
	n = data->d_size / sh.sh_entsize;
	a->syms = calloc(n ? n : 1, sizeof(*a->syms));
	if (!a->syms)
		return -ENOMEM;
	/* entry 0 is the null symbol, not in bfd's list */
	for (size_t i = 1; i < n; i++) {
		const char *name;
		GElf_Sym sym;
		int type;

		if (!gelf_getsym(data, i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (type == STT_FILE) {
			file = name ? keep(a, name) : NULL;
			if (name && !file)
				return -ENOMEM;
			file_after = file_after || seen;
			continue;
		}
		seen = true;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
		    type == STT_SECTION || !name || !*name)
			continue;
		a->syms[a->nr_syms] = (struct a2l_sym){
			.value = sym.st_value,
			.size = sym.st_size,
			.name = keep(a, name),
			.file = GELF_ST_BIND(sym.st_info) == STB_LOCAL || !file_after ? file : NULL,
			.shndx = sym.st_shndx,
			.func = type == STT_FUNC || type == STT_NOTYPE || type == STT_GNU_IFUNC,
		};
		if (!a->syms[a->nr_syms].name)
			return -ENOMEM;
		a->nr_syms++;
	}
	return 0;
}

/* The .symtab of dwfl's separate debug file, read into a: 1 when there was one. */
static int read_debug_syms(struct a2l_elf *a, Dwfl *dwfl)
{
	const char *path = dwfl_elf__debug_file(dwfl);
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	Elf_Scn *symtab = elf ? find_scn(elf, SHT_SYMTAB) : NULL;
	int err = symtab ? read_syms(a, elf, symtab) : 0;

	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return err ? err : symtab != NULL;
}

int a2l_elf__read(struct a2l_elf *a, Elf *elf, Dwfl *dwfl)
{
	Elf_Scn *symtab = find_scn(elf, SHT_SYMTAB);
	int err = read_sections(a, elf);

	a->has_symtab = symtab != NULL;
	if (!err)
		err = read_debug_syms(a, dwfl);
	if (err)
		return err < 0 ? err : 0;
	if (!symtab)
		symtab = find_scn(elf, SHT_DYNSYM);
	return symtab ? read_syms(a, elf, symtab) : 0;
}

void a2l_elf__exit(struct a2l_elf *a)
{
	free(a->secs);
	free(a->syms);
	arena__exit(&a->names);
	memset(a, 0, sizeof(*a));
}

const struct a2l_sec *a2l_elf__section(const struct a2l_elf *a, uint64_t addr)
{
	for (size_t i = 0; i < a->nr_secs; i++)
		if (addr >= a->secs[i].addr && addr - a->secs[i].addr < a->secs[i].size)
			return &a->secs[i];
	return NULL;
}

const struct a2l_sym *a2l_elf__function(const struct a2l_elf *a, size_t shndx, uint64_t addr)
{
	const struct a2l_sym *best = NULL;

	for (size_t i = 0; i < a->nr_syms; i++) {
		const struct a2l_sym *s = &a->syms[i];

		if (!s->func || s->shndx != shndx || s->value > addr)
			continue;
		if (!best || s->value > best->value ||
		    (s->value == best->value && s->size > best->size))
			best = s;
	}
	return best;
}

const struct a2l_sym *a2l_elf__by_name(const struct a2l_elf *a, const char *name, size_t len)
{
	if (!a->has_symtab)
		return NULL;
	for (size_t i = 0; i < a->nr_syms; i++)
		if (strlen(a->syms[i].name) == len && !memcmp(a->syms[i].name, name, len))
			return &a->syms[i];
	return NULL;
}
