// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * All symbols of an ELF file for naming addresses as objdump -d does:
 * data objects too (a RIP-relative operand names the variable), no
 * section or file symbols, and among symbols of one address the first
 * in objdump's order: functions, then objects, then the rest; globals
 * before locals; then as the table lists them.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "annotate/elf-syms.h"

static int cmp_sym(const void *pa, const void *pb)
{
	const struct elf_sym_ent *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

static uint32_t rank_of(const GElf_Sym *sym, uint32_t idx)
{
	int type = GELF_ST_TYPE(sym->st_info), bind = GELF_ST_BIND(sym->st_info);
	uint32_t r = type == STT_FUNC || type == STT_GNU_IFUNC ? 0 : type == STT_OBJECT ? 1 : 2;

	r = r * 2 + (bind == STB_LOCAL);
	return (r << 24) | (idx & 0xffffff);
}

static int read_table(struct elf_syms *s, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	if (!data)
		return -ENODATA;
	s->syms = calloc(n ? n : 1, sizeof(*s->syms));
	if (!s->syms)
		return -ENOMEM;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx >= SHN_LORESERVE)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		name = arena__strndup(&s->names, name, strlen(name));
		if (!name)
			return -ENOMEM;
		s->syms[s->nr++] = (struct elf_sym_ent){ sym.st_value, name, sym.st_shndx,
							 rank_of(&sym, (uint32_t)i) };
	}
	qsort(s->syms, s->nr, sizeof(*s->syms), cmp_sym);
	return 0;
}

int elf_syms__load(struct elf_syms *s, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = -ENODATA;
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr sh;
	size_t nsects = 0;
	Elf *elf;

	memset(s, 0, sizeof(*s));
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_getshdrnum(elf, &nsects)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -ENODATA;
	}
	s->sects = calloc(nsects ? nsects : 1, sizeof(*s->sects));
	if (!s->sects) {
		err = -ENOMEM;
		goto out;
	}
	s->nr_sects = nsects;
	while ((scn = elf_nextscn(elf, scn))) {
		size_t idx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (idx < nsects && (sh.sh_flags & SHF_ALLOC))
			s->sects[idx] = (struct elf_sect){ sh.sh_addr, sh.sh_size };
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
	}
	scn = symtab ? symtab : dynsym;
	if (scn && gelf_getshdr(scn, &sh))
		err = read_table(s, elf, scn, &sh);
out:
	elf_end(elf);
	close(fd);
	if (err)
		elf_syms__exit(s);
	return err;
}

void elf_syms__exit(struct elf_syms *s)
{
	free(s->syms);
	free(s->sects);
	arena__exit(&s->names);
	memset(s, 0, sizeof(*s));
}

static bool in_section(const struct elf_syms *s, uint32_t shndx, uint64_t addr)
{
	const struct elf_sect *sc;

	if (shndx >= s->nr_sects)
		return false;
	sc = &s->sects[shndx];
	return addr >= sc->addr && addr < sc->addr + sc->size;
}

const char *elf_syms__name(const struct elf_syms *s, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = s->nr;

	/* the first symbol past addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* back to the nearest address at or before addr in addr's section, its first symbol */
	while (lo > 0) {
		const struct elf_sym_ent *e = &s->syms[lo - 1];
		size_t first = lo - 1;

		while (first > 0 && s->syms[first - 1].addr == e->addr)
			first--;
		for (size_t i = first; i < lo; i++) {
			if (in_section(s, s->syms[i].shndx, addr)) {
				*off = addr - s->syms[i].addr;
				return s->syms[i].name;
			}
		}
		lo = first;
	}
	return NULL;
}
