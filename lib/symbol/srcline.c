// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * addr2line's first answer for an address, from elfutils. A file is
 * opened once: its allocated sections (addr2line looks only inside
 * them), a Dwfl at the file's own addresses (base 0, as addr2line reads
 * it), and the symbols of binutils' fallback when DWARF has no line for
 * the address (a2l-elf.h): the file binutils gives the nearest function
 * symbol at or below it, and line 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include <ember/symbol.h>
#include "symbol/a2l-elf.h"
#include "symbol/dwarf-units.h"
#include "symbol/dwfl-elf.h"

struct sl_file {
	char *path;
	bool elf;		/* an ELF file could be read */
	Dwfl *dwfl;
	struct dwfl_elf_lines *lines;	/* binutils' file 0 rows of dwfl's units */
	struct dwarf_units units;	/* read when libdwfl finds no unit for an address */
	struct a2l_elf a2l;	/* sections and fallback symbols */
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
	a2l_elf__exit(&f->a2l);
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
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		f->elf = true;
		f->dwfl = dwfl_elf__open(path);
		f->lines = f->dwfl ? dwfl_elf_lines__new() : NULL;
		if (f->dwfl && !f->lines)
			err = -ENOMEM;
		err = err ? err : a2l_elf__read(&f->a2l, elf, f->dwfl);
	}
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
	const struct a2l_sec *sec;
	const struct a2l_sym *sym;
	Dwfl_Module *mod;
	Dwfl_Line *l;

	*file = NULL;
	*line = 0;
	if (!f)
		return -ENOMEM;
	if (!f->elf)
		return 0;
	sec = a2l_elf__section(&f->a2l, vaddr);
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
	sym = a2l_elf__function(&f->a2l, sec->idx, vaddr);
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
