// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <dwarf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <gelf.h>
#include "symbol/dwfl-elf.h"

static const Dwfl_Callbacks offline_cb = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

Dwfl *dwfl_elf__open(const char *path)
{
	Dwfl *dwfl = dwfl_begin(&offline_cb);

	if (!dwfl)
		return NULL;
	dwfl_report_begin(dwfl);
	if (!dwfl_report_elf(dwfl, path, path, -1, 0, true)) {
		dwfl_end(dwfl);
		return NULL;
	}
	dwfl_report_end(dwfl, NULL, NULL);
	return dwfl;
}

static int first_module(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr start,
			void *arg)
{
	(void)userdata, (void)name, (void)start;
	*(Dwfl_Module **)arg = mod;
	return DWARF_CB_ABORT;
}

const char *dwfl_elf__debug_file(Dwfl *dwfl)
{
	Dwfl_Module *mod = NULL;
	const char *main_file = NULL, *debug_file = NULL;
	Dwarf_Addr bias;

	if (!dwfl || dwfl_getmodules(dwfl, first_module, &mod, 0) < 0 || !mod ||
	    !dwfl_module_getdwarf(mod, &bias))
		return NULL;
	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &main_file, &debug_file);
	if (!debug_file || (main_file && !strcmp(main_file, debug_file)))
		return NULL;
	return debug_file;
}

/* The .debug_line bytes of dw (libdw has already uncompressed them). */
static Elf_Data *debug_line_data(Dwarf *dw)
{
	Elf *elf = dwarf_getelf(dw);
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".debug_line"))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			return NULL;
		return elf_getdata(scn, NULL);
	}
	return NULL;
}

struct rd {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t rd_fixed(struct rd *r, unsigned int n)
{
	uint64_t v = 0;

	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	/* little-endian hosts and files only: the machines ember profiles */
	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;

	for (unsigned int shift = 0; r->p < r->end; shift += 7) {
		unsigned char b = *r->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	r->bad = true;
	return v;
}

/* Addresses [lo, hi) whose rows binutils names after file 0. */
struct file0_range {
	Dwarf_Addr lo, hi;
};

/* One unit's line program, as far as binutils' file 0 goes. */
struct lines_unit {
	const void *dwarf;
	uint64_t off;
	struct file0_range *ranges;
	size_t nr_ranges;
	struct file0_range *seqs;	/* each sequence's rows, to its end */
	size_t nr_seqs;
	bool decoded;
};

struct dwfl_elf_lines {
	struct lines_unit *units;	/* sorted by dwarf, off */
	size_t nr_units;
};

struct dwfl_elf_lines *dwfl_elf_lines__new(void)
{
	return calloc(1, sizeof(struct dwfl_elf_lines));
}

void dwfl_elf_lines__delete(struct dwfl_elf_lines *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr_units; i++) {
		free(c->units[i].ranges);
		free(c->units[i].seqs);
	}
	free(c->units);
	free(c);
}

static int add_range(struct file0_range **v, size_t *n, Dwarf_Addr lo, Dwarf_Addr hi)
{
	struct file0_range *r;

	if (lo >= hi)
		return 0;
	r = realloc(*v, (*n + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	*v = r;
	r[(*n)++] = (struct file0_range){ lo, hi };
	return 0;
}

/*
 * The addresses of the line program at offset off whose rows binutils
 * (2.40) names after the table's file 0: its reader starts each sequence
 * with file 0's name where DWARF 5 says the file register starts at 1,
 * and keeps it until the program's first DW_LNS_set_file. So the rows of
 * a sequence before its first set_file (file 1, which GCC's assembler
 * never sets explicitly at a sequence's start) get file 0's name: they
 * cover from the sequence's first row to the first row after the
 * set_file (or the sequence's end). Nothing for tables before DWARF 5.
 * The sequences' extents are kept too, for dwfl_elf__in_sequence().
 */
static int file0_ranges(Elf_Data *data, uint64_t off, struct lines_unit *u)
{
	struct rd r = { (const unsigned char *)data->d_buf + off,
			(const unsigned char *)data->d_buf + data->d_size, off >= data->d_size };
	unsigned int offsz = 4, minlen, maxops = 1, range, opbase;
	const unsigned char *oplens;
	uint64_t len, hlen;
	unsigned int version;

	len = rd_fixed(&r, 4);
	if (len == 0xffffffff) {
		len = rd_fixed(&r, 8);
		offsz = 8;
	}
	if (r.bad || len > (uint64_t)(r.end - r.p))
		return 0;
	r.end = r.p + len;
	version = rd_fixed(&r, 2);
	if (version < 2 || version > 5)
		return 0;
	if (version >= 5)
		rd_fixed(&r, 2);	/* address_size, segment_selector_size */
	hlen = rd_fixed(&r, offsz);
	if (r.bad || hlen > (uint64_t)(r.end - r.p))
		return 0;
	{
		struct rd h = { r.p, r.p + hlen, false };

		r.p += hlen;
		minlen = rd_fixed(&h, 1);
		if (version >= 4)
			maxops = rd_fixed(&h, 1);
		rd_fixed(&h, 2);	/* default_is_stmt, line_base */
		range = rd_fixed(&h, 1);
		opbase = rd_fixed(&h, 1);
		oplens = h.p;
		if (h.bad || !range || !maxops || !opbase || (size_t)(h.end - h.p) < opbase - 1)
			return 0;
	}
	while (r.p < r.end && !r.bad) {
		/* one sequence */
		Dwarf_Addr a = 0, first = 0, low = (Dwarf_Addr)-1;
		bool set = false, rows = false, closed = false, end = false;
		unsigned int opi = 0;

		while (!end && r.p < r.end && !r.bad) {
			unsigned int op = rd_fixed(&r, 1);
			uint64_t adv = 0;
			bool row = false;

			if (op >= opbase) {
				adv = (op - opbase) / range;
				row = true;
			} else if (op == 0) {	/* extended opcode */
				uint64_t elen = rd_uleb(&r);
				const unsigned char *next = r.p + elen;

				if (elen > (uint64_t)(r.end - r.p)) {
					r.bad = true;
					break;
				}
				switch (elen ? rd_fixed(&r, 1) : 0) {
				case DW_LNE_end_sequence:
					end = row = true;
					break;
				case DW_LNE_set_address:
					a = rd_fixed(&r, elen - 1 > 8 ? 8 : elen - 1);
					opi = 0;
					break;
				}
				r.p = next;
			} else if (op == DW_LNS_copy) {
				row = true;
			} else if (op == DW_LNS_advance_pc) {
				adv = rd_uleb(&r);
			} else if (op == DW_LNS_const_add_pc) {
				adv = (255 - opbase) / range;
			} else if (op == DW_LNS_fixed_advance_pc) {
				a += rd_fixed(&r, 2);
				opi = 0;
			} else if (op == DW_LNS_set_file) {
				rd_uleb(&r);
				set = true;
			} else {
				for (unsigned int i = 0; i < oplens[op - 1]; i++)
					rd_uleb(&r);
			}
			if (adv) {
				a += minlen * ((opi + adv) / maxops);
				opi = (opi + adv) % maxops;
			}
			if (!row)
				continue;
			if (end && add_range(&u->seqs, &u->nr_seqs, low < a ? low : a, a))
				return -ENOMEM;
			if (a < low)
				low = a;
			if (closed || version < 5)
				continue;
			if (!rows) {
				first = a;
				rows = true;
			}
			/* the file 0 rows cover [first, the first row after set_file) */
			if (set || end) {
				if (add_range(&u->ranges, &u->nr_ranges, first, a))
					return -ENOMEM;
				closed = true;
			}
		}
	}
	u->decoded = !r.bad;
	return 0;
}

/* The unit at off of dw in c, decoded now if new; NULL on ENOMEM. */
static struct lines_unit *get_unit(struct dwfl_elf_lines *c, Dwarf *dw, uint64_t off)
{
	size_t lo = 0, hi = c->nr_units;
	struct lines_unit *u, *v;
	Elf_Data *data;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		u = &c->units[mid];
		if (u->dwarf == dw && u->off == off)
			return u;
		if ((uintptr_t)u->dwarf < (uintptr_t)dw || (u->dwarf == dw && u->off < off))
			lo = mid + 1;
		else
			hi = mid;
	}
	v = realloc(c->units, (c->nr_units + 1) * sizeof(*v));
	if (!v)
		return NULL;
	c->units = v;
	memmove(&v[lo + 1], &v[lo], (c->nr_units - lo) * sizeof(*v));
	c->nr_units++;
	u = &v[lo];
	*u = (struct lines_unit){ .dwarf = dw, .off = off };
	data = debug_line_data(dw);
	/* a unit whose program cannot be read keeps libdw's names */
	if (data && file0_ranges(data, off, u)) {
		free(u->ranges);
		free(u->seqs);
		*u = (struct lines_unit){ .dwarf = dw, .off = off };
	}
	return u;
}

/*
 * The file binutils' addr2line (2.40) names for line l, whose file libdw
 * names file (dwfl_lineinfo()'s answer): in a DWARF 5 line table, the
 * unit's own file 0 for the rows of file 1 that a sequence has before it
 * first sets the file register (see file0_ranges()). Where file 0 and
 * file 1 are the same file (GCC usually repeats the unit's file as file
 * 1) it makes no difference; where they are not (a .c that includes the
 * code of a .h or of another .c: glibc's libc-start.c, strtod_l.c),
 * addr2line names the unit's file with the line of the included one.
 */
const char *dwfl_elf__dwarf_line_file(struct dwfl_elf_lines *c, Dwarf *dw, Dwarf_Die *cu,
				     Dwarf_Line *dl, const char *file)
{
	struct lines_unit *u;
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Word off;
	Dwarf_Addr addr;
	const char *unit;
	size_t idx;

	if (!c || !dw || !dl || !cu || !file || dwarf_line_file(dl, &files, &idx) || idx != 1)
		return file;
	unit = dwarf_filesrc(files, 0, NULL, NULL);
	if (!unit || !strcmp(unit, file) || !strcmp(unit, "???"))
		return file;
	if (!dwarf_attr(cu, DW_AT_stmt_list, &attr) || dwarf_formudata(&attr, &off) ||
	    dwarf_lineaddr(dl, &addr))
		return file;
	u = get_unit(c, dw, off);
	for (size_t i = 0; u && i < u->nr_ranges; i++)
		if (addr >= u->ranges[i].lo && addr < u->ranges[i].hi)
			return unit;
	return file;
}

int dwfl_elf__in_sequence(struct dwfl_elf_lines *c, Dwarf *dw, Dwarf_Die *cu, Dwarf_Addr addr)
{
	Dwarf_Attribute attr;
	struct lines_unit *u;
	Dwarf_Word off;

	if (!c || !dw || !cu || !dwarf_attr(cu, DW_AT_stmt_list, &attr) ||
	    dwarf_formudata(&attr, &off))
		return -1;
	u = get_unit(c, dw, off);
	if (!u || !u->decoded)
		return -1;
	for (size_t i = 0; i < u->nr_seqs; i++)
		if (addr >= u->seqs[i].lo && addr < u->seqs[i].hi)
			return 1;
	return 0;
}

const char *dwfl_elf__line_file_cached(struct dwfl_elf_lines *c, Dwfl_Line *l, const char *file)
{
	Dwfl_Module *mod = dwfl_linemodule(l);
	Dwarf_Addr bias;
	Dwarf_Line *dl = dwfl_dwarf_line(l, &bias);
	Dwarf *dw = mod ? dwfl_module_getdwarf(mod, &bias) : NULL;

	return dwfl_elf__dwarf_line_file(c, dw, dwfl_linecu(l), dl, file);
}

const char *dwfl_elf__line_file(Dwfl_Line *l, const char *file)
{
	struct dwfl_elf_lines *c = dwfl_elf_lines__new();
	const char *name = dwfl_elf__line_file_cached(c, l, file);

	dwfl_elf_lines__delete(c);
	return name;
}
