// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * All symbols of an ELF file for naming addresses as objdump -d does:
 * data objects too (a RIP-relative operand names the variable), no
 * section or file symbols, PLT entries as "name@plt", and among
 * symbols of one address the first in objdump's order: functions, then
 * objects, then the rest; globals before locals; then by name. An
 * address with no symbol before it in its section is named after the
 * nearest symbol of any section (an absolute one, like a version's).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "annotate/elf-syms.h"
#include "core/array.h"
#include "symbol/dso.h"
#include <ember/symbol.h>

static bool in_section(const struct elf_syms *s, uint32_t shndx, uint64_t addr);

static int cmp_slot(const void *pa, const void *pb)
{
	const struct elf_slot *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* objdump's order at one address: functions, objects, the rest; then by name */
static int cmp_sym(const void *pa, const void *pb)
{
	const struct elf_sym_ent *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return strcmp(a->name, b->name);
}

static uint32_t rank_of(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);
	uint32_t r = type == STT_FUNC || type == STT_GNU_IFUNC ? 0 : type == STT_OBJECT ? 1 : 2;

	return r * 2 + (GELF_ST_BIND(sym->st_info) == STB_LOCAL);
}

/* The version objdump appends to a dynamic symbol's name: "@@GLIBC_2.2.5", "@GLIBC_2.2.5". */
struct versions {
	Elf_Data *versym, *verdef, *verneed;
	size_t verdef_strs;		/* section index of verdef's names */
	size_t verneed_strs;
};

static void find_versions(Elf *elf, struct versions *v)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(v, 0, sizeof(*v));
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_GNU_versym) {
			v->versym = elf_getdata(scn, NULL);
		} else if (sh.sh_type == SHT_GNU_verdef) {
			v->verdef = elf_getdata(scn, NULL);
			v->verdef_strs = sh.sh_link;
		} else if (sh.sh_type == SHT_GNU_verneed) {
			v->verneed = elf_getdata(scn, NULL);
			v->verneed_strs = sh.sh_link;
		}
	}
}

static const char *version_of(Elf *elf, const struct versions *v, size_t idx, bool *hidden)
{
	GElf_Versym vs;
	GElf_Verdef vd;
	GElf_Verdaux va;
	size_t off = 0;

	if (!v->versym || (!v->verdef && !v->verneed) || !gelf_getversym(v->versym, (int)idx, &vs))
		return NULL;
	*hidden = vs & 0x8000;
	vs &= 0x7fff;
	if (!vs)
		return NULL;
	/*
	 * the global version: binutils' "Base" when the file defines no
	 * versions (needs some) or its first is the file's own (VER_FLG_BASE)
	 */
	if (vs == 1) {
		if (!v->verdef)
			return "Base";
		return gelf_getverdef(v->verdef, 0, &vd) && (vd.vd_flags & VER_FLG_BASE) ? "Base" :
											     NULL;
	}
	if (!v->verdef)
		return NULL;
	while (gelf_getverdef(v->verdef, (int)off, &vd)) {
		if (vd.vd_ndx == vs && gelf_getverdaux(v->verdef, (int)(off + vd.vd_aux), &va))
			return elf_strptr(elf, v->verdef_strs, va.vda_name);
		if (!vd.vd_next)
			break;
		off += vd.vd_next;
	}
	return NULL;
}

/* The version an undefined dynamic symbol needs ("GLIBC_PRIVATE"), or NULL. */
static const char *needed_version(Elf *elf, const struct versions *v, size_t idx)
{
	GElf_Versym vs;
	GElf_Verneed vn;
	GElf_Vernaux va;
	size_t off = 0;

	if (!v->versym || !v->verneed || !gelf_getversym(v->versym, (int)idx, &vs))
		return NULL;
	vs &= 0x7fff;
	if (vs <= 1)
		return NULL;
	while (gelf_getverneed(v->verneed, (int)off, &vn)) {
		size_t aoff = off + vn.vn_aux;

		for (unsigned int i = 0; i < vn.vn_cnt && gelf_getvernaux(v->verneed, (int)aoff, &va);
		     i++) {
			if (va.vna_other == vs)
				return elf_strptr(elf, v->verneed_strs, va.vna_name);
			if (!va.vna_next)
				break;
			aoff += va.vna_next;
		}
		if (!vn.vn_next)
			break;
		off += vn.vn_next;
	}
	return NULL;
}

/*
 * A name as objdump -C writes it, kept in s's arena: C++ and Rust names
 * demangled with their parameters, then sep and suffix ("@@GLIBC_2.2.5",
 * "@plt"). NULL on ENOMEM.
 */
static const char *keep_name(struct elf_syms *s, const char *name, const char *sep,
			     const char *suffix)
{
	char *d = !strncmp(name, "_Z", 2) || !strncmp(name, "_R", 2) ? ember_demangle(name, true) :
									    NULL;
	const char *base = d ? d : name;
	char *full = arena__alloc(&s->names, strlen(base) + strlen(sep) + strlen(suffix) + 1, 1);

	if (full)
		sprintf(full, "%s%s%s", base, sep, suffix);
	free(d);
	return full;
}

static int read_table(struct elf_syms *s, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	struct versions v;
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	if (!data)
		return -ENODATA;
	if (sh->sh_type == SHT_DYNSYM)
		find_versions(elf, &v);
	else
		memset(&v, 0, sizeof(v));
	s->syms = calloc(n ? n : 1, sizeof(*s->syms));
	if (!s->syms)
		return -ENOMEM;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name, *ver;
		bool hidden = false;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE || sym.st_shndx == SHN_UNDEF ||
		    (sym.st_shndx >= SHN_LORESERVE && sym.st_shndx != SHN_ABS))
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		ver = version_of(elf, &v, i, &hidden);
		name = keep_name(s, name, ver ? (hidden ? "@" : "@@") : "", ver ? ver : "");
		if (!name)
			return -ENOMEM;
		s->syms[s->nr++] = (struct elf_sym_ent){ sym.st_value, name, sym.st_shndx,
							 rank_of(&sym) };
	}
	qsort(s->syms, s->nr, sizeof(*s->syms), cmp_sym);
	return 0;
}

int elf_file__open(struct elf_file *f, const char *path)
{
	size_t size = 0;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	elf_version(EV_CURRENT);
	if (!strcmp(path, "[vdso]")) {
		f->image = vdso__copy_self(&size);
		if (!f->image)
			return -ENOENT;
		f->elf = elf_memory(f->image, size);
	} else {
		f->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (f->fd < 0)
			return -errno;
		f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	}
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		elf_file__close(f);
		return -ENODATA;
	}
	return 0;
}

void elf_file__close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f->image);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

int elf_syms__load(struct elf_syms *s, Elf *elf)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	size_t nsects = 0;
	int err = -ENODATA;
	GElf_Shdr sh;

	memset(s, 0, sizeof(*s));
	if (elf_getshdrnum(elf, &nsects))
		return -ENODATA;
	s->sects = calloc(nsects ? nsects : 1, sizeof(*s->sects));
	if (!s->sects)
		return -ENOMEM;
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
	s->from_symtab = symtab != NULL;
	if (err)
		elf_syms__exit(s);
	return err;
}

static Elf_Scn *section_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t strndx;

	if (elf_getshdrstrndx(elf, &strndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, strndx, sh->sh_name)) &&
		    !strcmp(n, name))
			return scn;
	}
	return NULL;
}

static int add_sym(struct elf_syms *s, size_t *alloc, uint64_t addr, const char *name,
		   uint32_t shndx)
{
	if (array__reserve((void **)&s->syms, alloc, s->nr, sizeof(*s->syms)))
		return -ENOMEM;
	s->syms[s->nr++] = (struct elf_sym_ent){ addr, name, shndx, 0 };
	return 0;
}

/* The GOT slot a PLT entry jumps through (jmp *disp(%rip), maybe bnd), 0 when none. */
static uint64_t plt_got_slot(const uint8_t *p, size_t len, uint64_t addr)
{
	for (size_t i = 0; i + 6 <= len; i++) {
		if (p[i] == 0xff && p[i + 1] == 0x25) {
			int32_t disp;

			memcpy(&disp, p + i + 2, 4);
			return addr + i + 6 + (uint64_t)(int64_t)disp;
		}
	}
	return 0;
}

/* Names the entries of one PLT section after the relocations of the GOT slots they jump through. */
static int add_plt_entries(struct elf_syms *s, size_t *alloc, Elf *elf, const char *plt_name,
			   const char *rela_name, size_t first)
{
	GElf_Shdr rsh, psh, dsh;
	Elf_Scn *rela = section_named(elf, rela_name, &rsh);
	Elf_Scn *plt = section_named(elf, plt_name, &psh), *dyn;
	Elf_Data *rdata, *pdata, *ddata;
	size_t nrel, step;

	if (!rela || !plt || psh.sh_type == SHT_NOBITS || rsh.sh_type != SHT_RELA ||
	    !(dyn = elf_getscn(elf, rsh.sh_link)) || !gelf_getshdr(dyn, &dsh) ||
	    !(rdata = elf_getdata(rela, NULL)) || !(pdata = elf_getdata(plt, NULL)) ||
	    !(ddata = elf_getdata(dyn, NULL)) || !pdata->d_buf)
		return 0;
	step = psh.sh_entsize >= 8 ? psh.sh_entsize : 16;
	nrel = rsh.sh_entsize ? rsh.sh_size / rsh.sh_entsize : 0;
	for (size_t off = first; off + step <= pdata->d_size; off += step) {
		uint64_t got = plt_got_slot((const uint8_t *)pdata->d_buf + off, step,
					    psh.sh_addr + off);

		for (size_t r = 0; got && r < nrel; r++) {
			GElf_Rela rel;
			GElf_Sym sym;
			const char *name = NULL, *full;
			char abs[48];
			int err;

			if (!gelf_getrela(rdata, (int)r, &rel) || rel.r_offset != got)
				continue;
			if (GELF_R_SYM(rel.r_info) &&
			    (!gelf_getsym(ddata, (int)GELF_R_SYM(rel.r_info), &sym) ||
			     !(name = elf_strptr(elf, dsh.sh_link, sym.st_name))))
				break;
			if (!name) {
				/* an IRELATIVE slot: objdump's "*ABS*+0xaddend@plt" */
				snprintf(abs, sizeof(abs), "*ABS*+0x%" PRIx64, (uint64_t)rel.r_addend);
				name = abs;
			}
			full = keep_name(s, name, "", "@plt");
			if (!full)
				return -ENOMEM;
			err = add_sym(s, alloc, psh.sh_addr + off, full, (uint32_t)elf_ndxscn(plt));
			if (err)
				return err;
			break;
		}
	}
	return 0;
}

/*
 * The slots dynamic relocations fill (GOT entries): objdump names such an
 * address after the relocation's symbol, versioned, at its offset from
 * the symbol's value (none for an undefined symbol).
 */
static int add_dyn_relocs(struct elf_syms *s, Elf *elf, const char *rela_name, size_t *alloc)
{
	GElf_Shdr rsh, dsh;
	Elf_Scn *rela = section_named(elf, rela_name, &rsh), *dyn;
	Elf_Data *rdata, *ddata;
	struct versions v;
	size_t nrel;

	if (!rela || rsh.sh_type != SHT_RELA || !(dyn = elf_getscn(elf, rsh.sh_link)) ||
	    !gelf_getshdr(dyn, &dsh) || !(rdata = elf_getdata(rela, NULL)) ||
	    !(ddata = elf_getdata(dyn, NULL)))
		return 0;
	find_versions(elf, &v);
	nrel = rsh.sh_entsize ? rsh.sh_size / rsh.sh_entsize : 0;
	for (size_t r = 0; r < nrel; r++) {
		size_t idx;
		GElf_Rela rel;
		GElf_Sym sym;
		const char *name, *ver, *full;
		bool hidden = false, undef;

		if (!gelf_getrela(rdata, (int)r, &rel) || !(idx = GELF_R_SYM(rel.r_info)) ||
		    !gelf_getsym(ddata, (int)idx, &sym) ||
		    !(name = elf_strptr(elf, dsh.sh_link, sym.st_name)) || !*name)
			continue;
		undef = sym.st_shndx == SHN_UNDEF;
		ver = undef ? needed_version(elf, &v, idx) : version_of(elf, &v, idx, &hidden);
		/* an unversioned import of a versioned file: objdump's "@Base" */
		if (!ver && undef && v.versym && v.verneed)
			ver = "Base";
		full = keep_name(s, name, ver ? (undef || hidden ? "@" : "@@") : "", ver ? ver : "");
		if (!full)
			return -ENOMEM;
		if (array__reserve((void **)&s->slots, alloc, s->nr_slots, sizeof(*s->slots)))
			return -ENOMEM;
		s->slots[s->nr_slots++] = (struct elf_slot){ rel.r_offset, full,
							      undef ? rel.r_offset : sym.st_value };
	}
	if (s->nr_slots)
		qsort(s->slots, s->nr_slots, sizeof(*s->slots), cmp_slot);
	return 0;
}

const char *elf_syms__slot(const struct elf_syms *s, uint64_t addr, int64_t *off)
{
	size_t lo = 0, hi = s->nr_slots;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->slots[mid].addr == addr) {
			*off = (int64_t)(addr - s->slots[mid].value);
			return s->slots[mid].name;
		}
		if (s->slots[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *elf_syms__label(const struct elf_syms *s, uint64_t addr, int64_t *off)
{
	uint32_t shndx = UINT32_MAX;
	uint64_t o;
	const char *name = elf_syms__name(s, addr, &o);

	for (size_t i = 0; i < s->nr_sects; i++)
		if (in_section(s, (uint32_t)i, addr))
			shndx = (uint32_t)i;
	for (size_t i = 0; name && i < s->nr; i++) {
		if (s->syms[i].name == name && s->syms[i].addr == addr - o) {
			if (s->syms[i].shndx == shndx) {
				*off = (int64_t)o;
				return name;
			}
			break;
		}
	}
	/* nothing before it in its section: the first symbol after it there */
	for (size_t i = 0; i < s->nr; i++) {
		if (s->syms[i].addr > addr && s->syms[i].shndx == shndx) {
			*off = -(int64_t)(s->syms[i].addr - addr);
			return s->syms[i].name;
		}
	}
	*off = (int64_t)o;
	return name;
}

int elf_syms__add_plt(struct elf_syms *s, Elf *elf)
{
	GElf_Shdr sh;
	size_t alloc = s->nr;
	int err;

	/* with IBT the calls go to .plt.sec; .plt's first entry is the resolver's */
	if (section_named(elf, ".plt.sec", &sh))
		err = add_plt_entries(s, &alloc, elf, ".plt.sec", ".rela.plt", 0);
	else
		err = add_plt_entries(s, &alloc, elf, ".plt", ".rela.plt", 16);
	if (!err)
		err = add_plt_entries(s, &alloc, elf, ".plt.got", ".rela.dyn", 0);
	qsort(s->syms, s->nr, sizeof(*s->syms), cmp_sym);
	if (!err && !s->slots) {
		size_t nslots = 0;

		err = add_dyn_relocs(s, elf, ".rela.dyn", &nslots);
		if (!err)
			err = add_dyn_relocs(s, elf, ".rela.plt", &nslots);
	}
	return err;
}

void elf_syms__exit(struct elf_syms *s)
{
	free(s->syms);
	free(s->slots);
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
	size_t lo = 0, hi = s->nr, end;

	/* the first symbol past addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	end = lo;
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
	/* none before it in its section: the nearest symbol below it, whatever its section */
	if (end > 0) {
		size_t i = end - 1;

		while (i > 0 && s->syms[i - 1].addr == s->syms[i].addr)
			i--;
		if (s->syms[i].addr <= addr) {
			*off = addr - s->syms[i].addr;
			return s->syms[i].name;
		}
	}
	return NULL;
}
