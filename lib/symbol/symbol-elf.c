// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/log.h"
#include "symbol/build-id.h"
#include "symbol/symbol-elf.h"

/* Finds the first section of the given type; returns it and its index. */
static Elf_Scn *elf__section_by_type(Elf *elf, GElf_Word type, size_t *idx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;

		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == type) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

Elf_Scn *elf__section_by_name(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *s;

		if (!gelf_getshdr(scn, shdr))
			continue;
		s = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (s && !strcmp(s, name))
			return scn;
	}
	return NULL;
}

static int symsrc__init(struct symsrc *ss, const uint8_t *bid, size_t bid_size)
{
	if (elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ss->ehdr))
		return -ENOEXEC;
	if (bid_size) {
		uint8_t file_bid[BUILD_ID_MAX];
		int n = build_id__read_elf(ss->elf, file_bid, sizeof(file_bid));

		if (n != (int)bid_size || memcmp(file_bid, bid, bid_size))
			return -EILSEQ;
	}
	ss->symtab = elf__section_by_type(ss->elf, SHT_SYMTAB, NULL);
	ss->dynsym = elf__section_by_type(ss->elf, SHT_DYNSYM, &ss->dynsym_idx);
	return 0;
}

int symsrc__open(struct symsrc *ss, const char *path, const uint8_t *bid, size_t bid_size)
{
	int err;

	memset(ss, 0, sizeof(*ss));
	elf_version(EV_CURRENT);
	ss->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0)
		return -errno;
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	if (!ss->elf) {
		err = -ENOEXEC;
		goto out_close;
	}
	err = symsrc__init(ss, bid, bid_size);
	if (err)
		goto out_end;
	ss->path = strdup(path);
	if (!ss->path) {
		err = -ENOMEM;
		goto out_end;
	}
	return 0;

out_end:
	elf_end(ss->elf);
out_close:
	close(ss->fd);
	ss->fd = -1;
	ss->elf = NULL;
	return err;
}

int symsrc__open_mem(struct symsrc *ss, void *image, size_t size, const uint8_t *bid,
		     size_t bid_size)
{
	int err;

	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	elf_version(EV_CURRENT);
	ss->elf = elf_memory(image, size);
	if (!ss->elf)
		return -ENOEXEC;
	err = symsrc__init(ss, bid, bid_size);
	if (err) {
		elf_end(ss->elf);
		ss->elf = NULL;
	}
	return err;
}

void symsrc__close(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	free(ss->path);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

int symsrc__read_segments(struct symsrc *ss, struct elf_seg **segs, size_t *nr)
{
	struct elf_seg *s;
	size_t phnum, n = 0;

	*segs = NULL;
	*nr = 0;
	if (elf_getphdrnum(ss->elf, &phnum) || !phnum)
		return 0;
	s = calloc(phnum, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr phdr;

		if (!gelf_getphdr(ss->elf, i, &phdr) || phdr.p_type != PT_LOAD)
			continue;
		if (!phdr.p_memsz && !phdr.p_filesz)
			continue;
		s[n++] = (struct elf_seg){ phdr.p_vaddr, phdr.p_offset, phdr.p_filesz, phdr.p_memsz };
	}
	*segs = s;
	*nr = n;
	return 0;
}

static bool sym__is_function(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF;
}

static bool sym__is_object(const GElf_Sym *sym)
{
	return GELF_ST_TYPE(sym->st_info) == STT_OBJECT && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF;
}

/* An untyped symbol that names a place in code or data (an assembly label). */
static bool sym__is_label(const GElf_Sym *sym)
{
	int vis = GELF_ST_VISIBILITY(sym->st_other);

	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS && vis != STV_HIDDEN &&
	       vis != STV_INTERNAL;
}

/* st_value → file offset, through the PT_LOAD that holds it (perf's adjust_symbols). */
static uint64_t sym__file_offset(uint64_t value, const GElf_Shdr *shdr, const struct elf_seg *segs,
				 size_t nr_segs)
{
	for (size_t i = 0; i < nr_segs; i++) {
		const struct elf_seg *s = &segs[i];
		uint64_t sz = s->memsz > s->filesz ? s->memsz : s->filesz;

		if (value >= s->vaddr && value < s->vaddr + sz)
			return value - (s->vaddr - s->offset);
	}
	/* No program header holds it: fall back to the section, as perf does. */
	return value - (shdr->sh_addr - shdr->sh_offset);
}

/*
 * A string table read directly, as elf_strptr() would answer: the names of
 * a big library's symbols cost a call each otherwise.
 */
struct strtab {
	Elf *elf;
	size_t idx;		/* section index, for elf_strptr() */
	const char *buf;	/* NULL: ask elf_strptr() */
	size_t end;		/* an offset below it has a NUL after it */
	bool owned;		/* buf is the table's own copy: names can point into it */
};

/* Reads size bytes at off of fd into buf; true when all came. */
static bool pread_all(int fd, char *buf, size_t size, off_t off)
{
	while (size) {
		ssize_t n = pread(fd, buf, size, off);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return false;
		}
		buf += n;
		size -= (size_t)n;
		off += n;
	}
	return true;
}

/*
 * Where the names of a symbol table are (section idx of ss). With pool,
 * for a file, the section is read into the pool in one go, for the
 * table's names to point into: copying each name (and finding its length)
 * touched every name of a big binary at load, most never shown.
 */
static void strtab__init(struct strtab *st, struct symsrc *ss, size_t idx, struct arena *pool)
{
	Elf *elf = ss->elf;
	Elf_Scn *scn = elf_getscn(elf, idx);
	GElf_Shdr shdr;
	Elf_Data *d;
	char *copy;

	st->elf = elf;
	st->idx = idx;
	st->buf = NULL;
	st->end = 0;
	st->owned = false;
	if (!scn || !gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_STRTAB ||
	    (shdr.sh_flags & SHF_COMPRESSED))
		return;
	/* libelf checked the section lies inside the file */
	d = elf_rawdata(scn, NULL);
	if (!d || !d->d_buf || d->d_size != shdr.sh_size || !d->d_size)
		return;
	st->buf = d->d_buf;
	if (pool && ss->fd >= 0) {
		copy = arena__alloc(pool, d->d_size + 1, 1);
		if (copy && pread_all(ss->fd, copy, d->d_size, (off_t)shdr.sh_offset)) {
			copy[d->d_size] = '\0';
			st->buf = copy;
			st->owned = true;
		}
	}
	/* elf_strptr() wants a NUL at or after the offset, inside the section */
	for (st->end = d->d_size; st->end && st->buf[st->end - 1]; st->end--)
		;
}

static const char *strtab__str(const struct strtab *st, size_t off)
{
	if (!st->buf)
		return elf_strptr(st->elf, st->idx, off);
	return off < st->end ? st->buf + off : NULL;
}

/* Section headers by index, each read once: symbols ask for their section's. */
struct shdr_cache {
	Elf *elf;
	size_t nr;
	GElf_Shdr *shdr;
	uint8_t *state;		/* 0 not read yet, 1 read, 2 no such section */
};

static void shdr_cache__init(struct shdr_cache *c, Elf *elf)
{
	c->elf = elf;
	c->shdr = NULL;
	c->state = NULL;
	if (elf_getshdrnum(elf, &c->nr))
		c->nr = 0;
	if (c->nr) {
		c->shdr = malloc(c->nr * sizeof(*c->shdr));
		c->state = calloc(c->nr, 1);
		if (!c->shdr || !c->state) {
			free(c->shdr);
			free(c->state);
			c->shdr = NULL;
			c->state = NULL;
		}
	}
}

static void shdr_cache__exit(struct shdr_cache *c)
{
	free(c->shdr);
	free(c->state);
}

/* Section idx's header, or NULL as elf_getscn()/gelf_getshdr() would fail. */
static const GElf_Shdr *shdr_cache__get(struct shdr_cache *c, size_t idx, GElf_Shdr *buf)
{
	Elf_Scn *scn;

	if (c->state && idx < c->nr && c->state[idx])
		return c->state[idx] == 1 ? &c->shdr[idx] : NULL;
	scn = elf_getscn(c->elf, idx);
	if (!c->state || idx >= c->nr)
		return scn && gelf_getshdr(scn, buf) ? buf : NULL;
	c->state[idx] = scn && gelf_getshdr(scn, &c->shdr[idx]) ? 1 : 2;
	return c->state[idx] == 1 ? &c->shdr[idx] : NULL;
}

/* Symbol idx of syms: straight from the array when it is native Elf64_Sym, as gelf_getsym() reads it. */
static bool symdata__get(Elf_Data *syms, bool native64, size_t idx, GElf_Sym *sym)
{
	if (native64) {
		if ((idx + 1) * sizeof(Elf64_Sym) > syms->d_size)
			return false;
		*sym = ((const Elf64_Sym *)syms->d_buf)[idx];
		return true;
	}
	return gelf_getsym(syms, idx, sym) != NULL;
}

/*
 * One pass of perf's dso__load_sym_internal(): the symbols of one table
 * (sec, .symtab or .dynsym of syms_ss) inserted in index order, then, when
 * there were some, perf's fix-ups over everything loaded so far.
 * Returns how many were added, or -errno.
 */
static int symsrc__load_table(struct symtab *t, Elf_Scn *sec, struct symsrc *syms_ss,
			      struct symsrc *runtime_ss, const struct elf_seg *segs, size_t nr_segs,
			      enum demangle_mode demangle, bool aliases)
{
	size_t shstrndx_sym, shstrndx_run, nr_syms;
	struct shdr_cache sym_shdrs, run_shdrs;
	struct strtab names;
	GElf_Shdr symshdr;
	Elf_Data *syms;
	bool native64;
	int err = 0, nr = 0;

	if (!gelf_getshdr(sec, &symshdr) || !symshdr.sh_entsize)
		return -ENODATA;
	syms = elf_getdata(sec, NULL);
	if (!syms || elf_getshdrstrndx(syms_ss->elf, &shstrndx_sym) ||
	    elf_getshdrstrndx(runtime_ss->elf, &shstrndx_run))
		return -ENODATA;
	nr_syms = symshdr.sh_size / symshdr.sh_entsize;
	native64 = gelf_getclass(syms_ss->elf) == ELFCLASS64 && syms->d_type == ELF_T_SYM &&
		   syms->d_buf;
	/* At most one symbol per entry: grown once, not doubled along the way. */
	if (symtab__reserve(t, nr_syms))
		return -ENOMEM;
	strtab__init(&names, syms_ss, symshdr.sh_link, &t->names);
	shdr_cache__init(&sym_shdrs, syms_ss->elf);
	if (runtime_ss != syms_ss)
		shdr_cache__init(&run_shdrs, runtime_ss->elf);

	for (size_t idx = 0; idx < nr_syms; idx++) {
		const char *name, *secname;
		const GElf_Shdr *shdr;
		GElf_Shdr shdr_buf;
		GElf_Sym sym;
		bool is_label, nobits_run;

		if (!symdata__get(syms, native64, idx, &sym))
			break;
		is_label = sym__is_label(&sym);
		if (!is_label && !sym__is_function(&sym) && !sym__is_object(&sym))
			continue;
		if (sym.st_shndx >= SHN_LORESERVE)
			continue;
		name = strtab__str(&names, sym.st_name);
		shdr = shdr_cache__get(&sym_shdrs, sym.st_shndx, &shdr_buf);
		if (!name || !shdr)
			continue;
		/* Not loaded at run time (.gnu.warning.*): not a place a sample can be. */
		if (!(shdr->sh_flags & SHF_ALLOC))
			continue;
		/* A debug file's sections are NOBITS: use the binary's headers. */
		nobits_run = shdr->sh_type == SHT_NOBITS && runtime_ss != syms_ss;
		if (nobits_run) {
			shdr = shdr_cache__get(&run_shdrs, sym.st_shndx, &shdr_buf);
			if (!shdr)
				continue;
		}
		/* Only labels care which section they are in. */
		if (is_label) {
			secname = nobits_run ? elf_strptr(runtime_ss->elf, shstrndx_run, shdr->sh_name)
					     : elf_strptr(syms_ss->elf, shstrndx_sym, shdr->sh_name);
			if (!secname || (!strstr(secname, "text") && !strstr(secname, "data")))
				continue;
		}
		/* demangled when first shown: most symbols of a binary never are */
		if (names.owned)
			err = symtab__add_ref(t, sym__file_offset(sym.st_value, shdr, segs, nr_segs),
					      sym.st_size, GELF_ST_BIND(sym.st_info),
					      GELF_ST_TYPE(sym.st_info), name);
		else
			err = symtab__add(t, sym__file_offset(sym.st_value, shdr, segs, nr_segs),
					  sym.st_size, GELF_ST_BIND(sym.st_info),
					  GELF_ST_TYPE(sym.st_info), name, strlen(name));
		if (err)
			break;
		symtab__demangle_last_lazily(t, demangle);
		nr++;
	}
	shdr_cache__exit(&sym_shdrs);
	if (runtime_ss != syms_ss)
		shdr_cache__exit(&run_shdrs);
	if (err)
		return err;
	if (nr) {
		symtab__sort(t);
		symtab__fixup_end(t, false);
		if (!aliases)
			symtab__fixup_duplicate(t);
	}
	return nr;
}

/*
 * perf 6.1 reads .symtab and then, into the same tree, .dynsym (each
 * pass followed by the fix-ups): the exported symbols arrive twice and
 * the second copies are erased again, which shapes perf's tree.
 */
int symsrc__load_symbols(struct symtab *t, struct symsrc *syms_ss, struct symsrc *runtime_ss,
			 const struct elf_seg *segs, size_t nr_segs, enum demangle_mode demangle,
			 bool aliases)
{
	int nr = 0, n;

	if (!syms_ss->symtab && !syms_ss->dynsym)
		return -ENODATA;
	if (syms_ss->symtab) {
		n = symsrc__load_table(t, syms_ss->symtab, syms_ss, runtime_ss, segs, nr_segs,
				       demangle, aliases);
		if (n < 0)
			return n;
		nr = n;
	}
	if (syms_ss->dynsym) {
		n = symsrc__load_table(t, syms_ss->dynsym, syms_ss, runtime_ss, segs, nr_segs,
				       demangle, aliases);
		if (n < 0)
			return n;
		nr += n;
	}
	return nr;
}

int symsrc__synthesize_plt(struct symtab *t, struct symsrc *runtime_ss,
			   enum demangle_mode demangle)
{
	GElf_Shdr rel_shdr, plt_shdr, dynshdr;
	Elf_Data *reldata, *syms;
	Elf_Scn *rel_scn;
	uint64_t off, entsize;
	size_t nr_rel;
	int nr = 0, err;

	if (!runtime_ss->dynsym || !gelf_getshdr(runtime_ss->dynsym, &dynshdr))
		return 0;
	rel_scn = elf__section_by_name(runtime_ss->elf, ".rela.plt", &rel_shdr);
	if (!rel_scn)
		rel_scn = elf__section_by_name(runtime_ss->elf, ".rel.plt", &rel_shdr);
	if (!rel_scn || (rel_shdr.sh_type != SHT_RELA && rel_shdr.sh_type != SHT_REL) ||
	    rel_shdr.sh_link != runtime_ss->dynsym_idx || !rel_shdr.sh_entsize)
		return 0;
	if (!elf__section_by_name(runtime_ss->elf, ".plt", &plt_shdr) || !plt_shdr.sh_entsize)
		return 0;
	reldata = elf_getdata(rel_scn, NULL);
	syms = elf_getdata(runtime_ss->dynsym, NULL);
	if (!reldata || !syms)
		return 0;

	/* perf's generic layout: a header, then one entry per relocation, entsize each. */
	entsize = plt_shdr.sh_entsize;
	off = plt_shdr.sh_offset + entsize;
	nr_rel = rel_shdr.sh_size / rel_shdr.sh_entsize;
	for (size_t i = 0; i < nr_rel; i++, off += entsize) {
		const char *name;
		GElf_Sym sym;
		size_t symidx;

		if (rel_shdr.sh_type == SHT_RELA) {
			GElf_Rela rela;

			if (!gelf_getrela(reldata, i, &rela))
				break;
			symidx = GELF_R_SYM(rela.r_info);
		} else {
			GElf_Rel rel;

			if (!gelf_getrel(reldata, i, &rel))
				break;
			symidx = GELF_R_SYM(rel.r_info);
		}
		if (!gelf_getsym(syms, symidx, &sym))
			continue;
		name = elf_strptr(runtime_ss->elf, dynshdr.sh_link, sym.st_name);
		/*
		 * perf inserts these after the fix-ups, where a zero-size symbol
		 * before .plt (_init) may already span them: which of the two its
		 * lookup finds depends on its tree's shape (symtab__index()).
		 */
		if (!name)
			continue;
		err = symtab__add_plt(t, off, entsize, name, demangle);
		if (err)
			return err;
		nr++;
	}
	if (nr)
		symtab__sort(t);
	return nr;
}
