// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * addr2line's first answer for an address, from elfutils. A file is
 * opened once: its allocated sections (addr2line looks only inside
 * them), a Dwfl at the file's own addresses (base 0, as addr2line reads
 * it), and its symbol table for binutils' fallback when DWARF has no
 * line for the address: the nearest function-like symbol at or below it
 * in its section names the place, with the file of the STT_FILE symbol
 * before it when the symbol is local (or when no other symbol came
 * between the file symbols and it), and line 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <ember/symbol.h>
#include "symbol/dwarf-units.h"
#include "symbol/dwfl-elf.h"

struct sl_sym {
	uint64_t value, size;
	size_t shndx;
	const char *file;	/* binutils' file for it, NULL: "??" */
};

struct sl_sec {
	uint64_t addr, size;
	size_t idx;
};

struct sl_file {
	char *path;
	bool elf;		/* an ELF file could be read */
	Dwfl *dwfl;
	struct dwfl_elf_lines *lines;	/* binutils' file 0 rows of dwfl's units */
	struct dwarf_units units;	/* read when libdwfl finds no unit for an address */
	struct sl_sec *secs;
	size_t nr_secs;
	struct sl_sym *syms;
	size_t nr_syms;
	char **names;		/* STT_FILE names, owned */
	size_t nr_names;
	struct sl_file *next;
};

struct ember_srclines {
	struct sl_file *files;
};

struct ember_srclines *ember_srclines__new(void)
{
	return calloc(1, sizeof(struct ember_srclines));
}

static void file_free(struct sl_file *f)
{
	dwfl_elf_lines__delete(f->lines);
	if (f->dwfl)
		dwfl_end(f->dwfl);
	for (size_t i = 0; i < f->nr_names; i++)
		free(f->names[i]);
	free(f->names);
	free(f->secs);
	free(f->syms);
	dwarf_units__exit(&f->units);
	free(f->path);
	free(f);
}

void ember_srclines__delete(struct ember_srclines *s)
{
	if (!s)
		return;
	for (struct sl_file *f = s->files, *next; f; f = next) {
		next = f->next;
		file_free(f);
	}
	free(s);
}

static Elf_Scn *find_scn(Elf *elf, unsigned int type)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return scn;
	}
	return NULL;
}

static const char *keep_name(struct sl_file *f, const char *name)
{
	char **v = realloc(f->names, (f->nr_names + 1) * sizeof(*v));

	if (!v)
		return NULL;
	f->names = v;
	v[f->nr_names] = strdup(name);
	return v[f->nr_names] ? v[f->nr_names++] : NULL;
}

/*
 * The symbols binutils' elf_find_function() may pick, each with the file
 * it would name: the last STT_FILE seen, for a local symbol, or for any
 * symbol while no symbol came after a file symbol yet.
 */
static int read_syms(struct sl_file *f, Elf *elf, Elf_Scn *scn)
{
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL } state = NOTHING_SEEN;
	Elf_Data *data = elf_getdata(scn, NULL);
	const char *file = NULL;
	GElf_Shdr sh;
	size_t n;

	if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize || !data)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	f->syms = calloc(n ? n : 1, sizeof(*f->syms));
	if (!f->syms)
		return -ENOMEM;
	/* entry 0 is the null symbol, not in bfd's list */
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		int type;

		if (!gelf_getsym(data, i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_FILE) {
			const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);

			file = name ? keep_name(f, name) : NULL;
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
		if (type != STT_FUNC && type != STT_NOTYPE && type != STT_GNU_IFUNC)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			continue;
		f->syms[f->nr_syms++] = (struct sl_sym){
			.value = sym.st_value,
			.size = sym.st_size,
			.shndx = sym.st_shndx,
			.file = (GELF_ST_BIND(sym.st_info) == STB_LOCAL ||
				 state != FILE_AFTER_SYMBOL) ? file : NULL,
		};
	}
	return 0;
}

static int read_sections(struct sl_file *f, Elf *elf)
{
	size_t nsecs = 0;

	if (elf_getshdrnum(elf, &nsecs))
		return 0;
	f->secs = calloc(nsecs + 1, sizeof(*f->secs));
	if (!f->secs)
		return -ENOMEM;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if ((sh.sh_flags & SHF_ALLOC) && sh.sh_size && f->nr_secs < nsecs)
			f->secs[f->nr_secs++] = (struct sl_sec){ sh.sh_addr, sh.sh_size,
								 elf_ndxscn(scn) };
	}
	f->elf = true;
	return 0;
}

/* addr2line's symbols: the separate debug file's .symtab, else .symtab, else .dynsym. */
static int read_symbols(struct sl_file *f, Elf *elf)
{
	const char *debugfile = dwfl_elf__debug_file(f->dwfl);
	Elf_Scn *symtab;
	int err = 0;

	if (debugfile) {
		int dfd = open(debugfile, O_RDONLY | O_CLOEXEC);
		Elf *delf = dfd >= 0 ? elf_begin(dfd, ELF_C_READ_MMAP, NULL) : NULL;
		Elf_Scn *dsym = delf ? find_scn(delf, SHT_SYMTAB) : NULL;

		if (dsym)
			err = read_syms(f, delf, dsym);
		if (delf)
			elf_end(delf);
		if (dfd >= 0)
			close(dfd);
		if (err || dsym)
			return err;
	}
	symtab = find_scn(elf, SHT_SYMTAB);
	if (!symtab)
		symtab = find_scn(elf, SHT_DYNSYM);
	return symtab ? read_syms(f, elf, symtab) : 0;
}

static struct sl_file *file_open(const char *path)
{
	struct sl_file *f = calloc(1, sizeof(*f));
	int fd, err = 0;
	Elf *elf;

	if (!f || !(f->path = strdup(path))) {
		free(f);
		return NULL;
	}
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	if (elf)
		err = read_sections(f, elf);
	if (!err && f->elf) {
		f->dwfl = dwfl_elf__open(path);
		f->lines = f->dwfl ? dwfl_elf_lines__new() : NULL;
		if (f->dwfl && !f->lines)
			err = -ENOMEM;
	}
	if (!err && f->elf)
		err = read_symbols(f, elf);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	if (err) {
		file_free(f);
		return NULL;
	}
	return f;
}

static struct sl_file *file_get(struct ember_srclines *s, const char *path)
{
	struct sl_file *f;

	for (f = s->files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = file_open(path);
	if (f) {
		f->next = s->files;
		s->files = f;
	}
	return f;
}

/* binutils' elf_find_function(): the highest function-like symbol at or below addr. */
static const struct sl_sym *nearest_sym(const struct sl_file *f, size_t shndx, uint64_t addr)
{
	const struct sl_sym *best = NULL;

	for (size_t i = 0; i < f->nr_syms; i++) {
		const struct sl_sym *s = &f->syms[i];

		if (s->shndx != shndx || s->value > addr)
			continue;
		if (!best || s->value > best->value ||
		    (s->value == best->value && s->size > best->size))
			best = s;
	}
	return best;
}

/*
 * Whether libdw's row dl for DWARF address addr is one a sequence has at
 * the address where it ends (libdw sorts the end before the rows at the
 * same address) with addr in no sequence: binutils looks for lines inside
 * sequences only, so it knows no line there and falls back to the symbol.
 */
static bool past_sequence(struct sl_file *f, Dwarf *dw, Dwarf_Die *cu, Dwarf_Line *dl,
			  Dwarf_Addr addr)
{
	Dwarf_Lines *lines;
	Dwarf_Addr a, b;
	size_t n, lo = 0, hi;

	if (dwarf_getsrclines(cu, &lines, &n) || dwarf_lineaddr(dl, &a))
		return false;
	for (hi = n; lo < hi;) {
		size_t mid = (lo + hi) / 2;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &b) || b < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n; lo++) {
		Dwarf_Line *p = dwarf_onesrcline(lines, lo);
		bool end;

		if (p == dl || dwarf_lineaddr(p, &b) || b != a)
			return false;
		if (!dwarf_lineendsequence(p, &end) && end)
			return dwfl_elf__in_sequence(f->lines, dw, cu, addr) == 0;
	}
	return false;
}

/*
 * The line at vaddr from the ranges of the units themselves, as binutils
 * reads them: libdwfl (elfutils 0.188) finds units through .debug_aranges
 * only, which clang does not write.
 */
static int unit_line(struct sl_file *f, Dwfl_Module *mod, uint64_t vaddr, const char **file,
		     unsigned int *line)
{
	Dwarf_Addr bias, addr;
	Dwarf *dw = dwfl_module_getdwarf(mod, &bias);
	size_t pos = DWARF_UNITS_START;
	int lineno = 0;
	Dwarf_Line *dl = NULL;
	Dwarf_Die *cu = NULL;

	if (!dw)
		return 0;
	if (dwarf_units__read(&f->units, dw))
		return -ENOMEM;
	addr = vaddr - bias;
	while (!dl && (cu = dwarf_units__next(&f->units, addr, &pos)) != NULL)
		dl = dwarf_getsrc_die(cu, addr);
	if (!dl || past_sequence(f, dw, cu, dl, addr))
		return 0;
	dwarf_lineno(dl, &lineno);
	*file = dwfl_elf__dwarf_line_file(f->lines, dw, cu, dl, dwarf_linesrc(dl, NULL, NULL));
	*line = lineno > 0 ? (unsigned int)lineno : 0;
	return 1;
}

int ember_srclines__find(struct ember_srclines *s, const char *path, uint64_t vaddr,
			 const char **file, unsigned int *line)
{
	struct sl_file *f = file_get(s, path);
	const struct sl_sec *sec = NULL;
	const struct sl_sym *sym;
	Dwfl_Module *mod;
	Dwfl_Line *l;

	*file = NULL;
	*line = 0;
	if (!f)
		return -ENOMEM;
	if (!f->elf)
		return 0;
	for (size_t i = 0; i < f->nr_secs && !sec; i++)
		if (vaddr >= f->secs[i].addr && vaddr - f->secs[i].addr < f->secs[i].size)
			sec = &f->secs[i];
	if (!sec)
		return 0;
	mod = f->dwfl ? dwfl_addrmodule(f->dwfl, vaddr) : NULL;
	l = mod ? dwfl_module_getsrc(mod, vaddr) : NULL;
	if (l) {
		Dwarf_Addr bias;
		Dwarf_Line *dl = dwfl_dwarf_line(l, &bias);
		Dwarf *dw = dwfl_module_getdwarf(mod, &bias);

		if (dl && dw && past_sequence(f, dw, dwfl_linecu(l), dl, vaddr - bias))
			goto symbol;
	}
	if (l) {
		int lineno = 0;

		*file = dwfl_elf__line_file_cached(f->lines, l,
						   dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL));
		*line = lineno > 0 ? (unsigned int)lineno : 0;
		return 1;
	}
	if (mod) {
		int ret = unit_line(f, mod, vaddr, file, line);

		if (ret)
			return ret;
	}
symbol:
	sym = nearest_sym(f, sec->idx, vaddr);
	if (!sym)
		return 0;
	*file = sym->file;
	return 1;
}

uint64_t ember_dso__objdump_addr(struct ember_dso *dso, uint64_t ip, uint64_t addr, uint64_t at)
{
	bool fixed = ip != addr && ember_dso__addr_to_vaddr(dso, addr) == ip;

	return fixed ? at + (ip - addr) : at;
}
