// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * stackcollapse-perf.pl --inline runs `addr2line -a PC -e DSO -i -f -s -C`
 * for every new (PC, DSO) and, when that knows nothing ("??" / "??:0") and
 * the symbol reads "func+0xOFF", runs `nm DSO` and retries at func's
 * address + OFF. Here the same questions go to elfutils: a Dwfl per DSO
 * (reported at base 0, so addresses are the file's own, as addr2line's;
 * debug files found by build-id and debuglink as addr2line finds them)
 * and the DSO's .symtab for nm. addr2line's answer per level of the
 * inline chain is "function" then "file:line" (file "??" and line "?"
 * when unknown; "??" and "??:0" when nothing is known); the script keeps
 * them outermost first, as "function" or "function:file:line".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include "collapse/inline.h"
#include "core/arena.h"
#include "core/hash.h"
#include "core/hashtab.h"
#include "symbol/a2l-elf.h"
#include "symbol/demangle.h"
#include "symbol/dwarf-units.h"
#include "symbol/dwfl-elf.h"

struct dso_entry {
	char *path;
	Dwfl *dwfl;		/* NULL: the file could not be read */
	struct dwfl_elf_lines *lines;	/* what binutils' file names need of its units; may be NULL */
	bool elf_read;
	struct a2l_elf a2l;	/* addr2line's sections and fallback symbols, nm's */
	struct dwarf_units units;	/* read when libdwfl finds no unit for an address */
	struct dso_entry *next;
};

/* A resolved address, key and value in the inliner's arena. */
struct cache_entry {
	char *key;		/* pc '\0' mod */
	size_t klen;
	char *val;
};

struct inliner {
	bool context;
	unsigned long lookups;
	struct dso_entry *dsos;
	struct hashtab cache;	/* struct cache_entry * by hash_bytes() of the key */
	struct arena mem;	/* the entries */
};

struct inliner *inliner__new(bool context)
{
	struct inliner *in = calloc(1, sizeof(*in));

	if (in)
		in->context = context;
	return in;
}

void inliner__delete(struct inliner *in)
{
	if (!in)
		return;
	for (struct dso_entry *d = in->dsos, *next; d; d = next) {
		next = d->next;
		/* the lines' cache knows the units by address: it goes first */
		dwfl_elf_lines__delete(d->lines);
		if (d->dwfl)
			dwfl_end(d->dwfl);
		a2l_elf__exit(&d->a2l);
		dwarf_units__exit(&d->units);
		free(d->path);
		free(d);
	}
	hashtab__exit(&in->cache);
	arena__exit(&in->mem);
	free(in);
}

unsigned long inliner__lookups(const struct inliner *in)
{
	return in->lookups;
}

static struct dso_entry *dso_get(struct inliner *in, const char *path, bool *fresh)
{
	struct dso_entry *d;

	*fresh = false;
	for (d = in->dsos; d; d = d->next)
		if (!strcmp(d->path, path))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path))) {
		free(d);
		return NULL;
	}
	*fresh = true;
	d->dwfl = dwfl_elf__open(path);
	/* without it each file name is worked out from the unit's whole line program */
	d->lines = d->dwfl ? dwfl_elf_lines__new() : NULL;
	d->next = in->dsos;
	in->dsos = d;
	return d;
}

/* addr2line parses the address with bfd_scan_vma(, 16): an optional 0x, hex digits, stop at the rest. */
static uint64_t scan_hex(struct span pc)
{
	size_t i = 0;
	uint64_t v = 0;

	if (pc.len >= 2 && pc.p[0] == '0' && (pc.p[1] == 'x' || pc.p[1] == 'X'))
		i = 2;
	for (; i < pc.len; i++) {
		unsigned char ch = pc.p[i];
		unsigned d;

		if (ch >= '0' && ch <= '9')
			d = ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			d = ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			d = ch - 'A' + 10;
		else
			break;
		v = v << 4 | d;
	}
	return v;
}

/* One level of addr2line's answer: function, then file:line. */
struct level {
	char *func;		/* malloc'd */
	const char *file;	/* basename (-s), or NULL: "??" */
	int line;		/* 0: "?" */
};

static char *die_func_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;
	char *dem;

	/* addr2line prefers the linkage name and demangles it (-C keeps parameters) */
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	if (!name)
		name = dwarf_diename(die);
	if (!name || !*name)
		return NULL;
	dem = demangle_sym(name, DEMANGLE_PARAMS);
	return dem ? dem : strdup(name);
}

static const char *base_name(const char *path)
{
	const char *s;

	if (!path)
		return NULL;
	s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The DSO's sections and symbols, read once; an unreadable file has none. */
static void read_elf(struct dso_entry *d)
{
	int fd = open(d->path, O_RDONLY | O_CLOEXEC);
	Elf *elf;

	d->elf_read = true;
	elf_version(EV_CURRENT);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	if (elf && elf_kind(elf) == ELF_K_ELF)
		a2l_elf__read(&d->a2l, elf, d->dwfl);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

/* The allocated section holding addr (addr2line looks nowhere else), or NULL. */
static const struct a2l_sec *find_section(struct dso_entry *d, uint64_t addr)
{
	if (!d->elf_read)
		read_elf(d);
	return a2l_elf__section(&d->a2l, addr);
}

/*
 * addr2line's name for an address DWARF has no function for (binutils'
 * elf_find_function): of the section's function and untyped symbols at or
 * below addr, the highest; on a tie the larger, then the first in the
 * table (locals come first: "__GI_mprotect" before "__mprotect").
 */
static char *sym_name(struct dso_entry *d, const struct a2l_sec *sec, uint64_t addr,
		      const char **file)
{
	const struct a2l_sym *best = a2l_elf__function(&d->a2l, sec->idx, addr);
	char *dem;

	if (!best)
		return NULL;
	if (file && best->file)
		*file = best->file;
	dem = demangle_sym(best->name, DEMANGLE_PARAMS);
	return dem ? dem : strdup(best->name);
}

/*
 * The function binutils names where DWARF has several with one range: an
 * assembly file's aliases each get a DW_TAG_subprogram of the same extent
 * ("__memmove_avx_unaligned_erms" and "__memcpy_avx_unaligned_erms"), and
 * of functions that fit the address equally well addr2line takes the one
 * read last. dwarf_getscopes() gives the first; in an assembly unit this
 * looks on through the siblings after it for the last of the same range.
 */
static Dwarf_Die last_alias(Dwarf_Die *cu, Dwarf_Die *fn)
{
	Dwarf_Die best = *fn, next = *fn;
	Dwarf_Addr lo, hi, nlo, nhi;

	if (dwarf_srclang(cu) != DW_LANG_Mips_Assembler || dwarf_lowpc(fn, &lo) ||
	    dwarf_highpc(fn, &hi))
		return best;
	while (dwarf_siblingof(&next, &next) == 0)
		if (dwarf_tag(&next) == DW_TAG_subprogram && dwarf_lowpc(&next, &nlo) == 0 &&
		    dwarf_highpc(&next, &nhi) == 0 && nlo == lo && nhi == hi)
			best = next;
	return best;
}

/*
 * The unit whose own ranges hold addr, where libdwfl finds none (a binary
 * without .debug_aranges, clang's default: addr2line reads every unit's
 * ranges). NULL when none does.
 */
static Dwarf_Die *unit_by_ranges(struct dso_entry *d, Dwfl_Module *mod, Dwarf_Addr addr,
				 Dwarf_Addr *bias, Dwarf **dw)
{
	size_t pos = DWARF_UNITS_START;

	*dw = dwfl_module_getdwarf(mod, bias);
	if (!*dw || dwarf_units__read(&d->units, *dw))
		return NULL;
	return dwarf_units__next(&d->units, addr - *bias, &pos);
}

/* Fills up to max levels; returns how many, 0 when addr2line would say "??" "??:0". */
static int lookup(struct dso_entry *d, uint64_t addr, struct level *lv, int max)
{
	const struct a2l_sec *sec = find_section(d, addr);
	Dwfl_Module *mod = sec ? dwfl_addrmodule(d->dwfl, addr) : NULL;
	Dwarf_Die *cu = NULL, *scopes = NULL;
	Dwarf *dw = NULL;
	Dwarf_Addr bias = 0;
	Dwfl_Line *line;
	const char *file = NULL;
	int lineno = 0, nscopes, n = 0;
	bool have_line = false;

	if (!sec)
		return 0;
	if (mod)
		cu = dwfl_module_addrdie(mod, addr, &bias);
	if (mod && !cu && (cu = unit_by_ranges(d, mod, addr, &bias, &dw)) != NULL) {
		/* libdwfl's line lookup goes by .debug_aranges too: the unit's own table */
		Dwarf_Line *dl = dwarf_getsrc_die(cu, addr - bias);
		int ln = 0;

		if (dl && dwarf_lineno(dl, &ln) == 0) {
			file = dwarf_linesrc(dl, NULL, NULL);
			file = dwfl_elf__dwarf_line_file(d->lines, dw, cu, dl, file);
			lineno = ln;
			have_line = true;
		}
		line = NULL;
	} else {
		line = cu ? dwfl_module_getsrc(mod, addr) : NULL;
	}
	if (line) {
		file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
		file = d->lines ? dwfl_elf__line_file_cached(d->lines, line, file) :
				  dwfl_elf__line_file(line, file);
		have_line = true;
	}
	nscopes = cu ? dwarf_getscopes(cu, addr - bias, &scopes) : 0;
	/*
	 * The innermost function scope; past an inlined instance
	 * dwarf_getscopes goes on into its abstract origin, so the callers
	 * come from the physical nesting of that instance instead.
	 */
	for (int i = 0; i < nscopes; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			Dwarf_Die inner = tag == DW_TAG_subprogram ? last_alias(cu, &scopes[i]) :
								     scopes[i];

			free(scopes);
			nscopes = dwarf_getscopes_die(&inner, &scopes);
			break;
		}
		if (i == nscopes - 1)
			nscopes = 0;
	}
	for (int i = 0; i < nscopes && n < max; i++) {
		Dwarf_Die *s = &scopes[i];
		int tag = dwarf_tag(s);
		Dwarf_Attribute attr;
		Dwarf_Word w;
		Dwarf_Files *files;

		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		lv[n].func = die_func_name(s);
		lv[n].file = base_name(file);
		lv[n].line = lineno;
		if (!lv[n].func)
			lv[n].func = sym_name(d, sec, addr, NULL);
		n++;
		if (tag == DW_TAG_subprogram)
			break;
		/* the caller's level is at this inlined call's site */
		file = NULL;
		lineno = 0;
		if (dwarf_formudata(dwarf_attr(s, DW_AT_call_line, &attr), &w) == 0)
			lineno = w;
		if (dwarf_formudata(dwarf_attr(s, DW_AT_call_file, &attr), &w) == 0 &&
		    dwarf_getsrcfiles(cu, &files, NULL) == 0)
			file = dwarf_filesrc(files, w, NULL, NULL);
	}
	free(scopes);
	if (n)
		return n;
	/* no function in DWARF: the symbol table names it, the line table places it */
	/* the symbol table's file too, when the line table has none */
	lv[0].func = sym_name(d, sec, addr, have_line ? NULL : &file);
	if (!lv[0].func && !have_line)
		return 0;
	lv[0].file = base_name(file);
	lv[0].line = lineno;
	return 1;
}

/* nm's answer for name: the first defined .symtab symbol of that name (none without .symtab). */
static bool nm_lookup(struct dso_entry *d, const char *name, size_t nlen, uint64_t *value)
{
	const struct a2l_sym *sym;

	if (!d->elf_read)
		read_elf(d);
	sym = a2l_elf__by_name(&d->a2l, name, nlen);
	if (sym)
		*value = sym->value;
	return sym != NULL;
}

struct cache_key {
	const char *key;
	size_t klen;
};

static bool cache_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	const struct cache_entry *e = (const struct cache_entry *)(uintptr_t)val;
	const struct cache_key *k = key;

	return e->klen == k->klen && !memcmp(e->key, k->key, k->klen);
}

static struct cache_entry *cache_find(struct inliner *in, const char *key, size_t klen,
				      uint64_t h)
{
	struct cache_key k = { key, klen };

	return (struct cache_entry *)(uintptr_t)hashtab__get(&in->cache, h, cache_eq, &k);
}

/* Caches val for key. 0 or -ENOMEM. */
static int cache_put(struct inliner *in, const char *key, size_t klen, uint64_t h,
		     const char *val, size_t vlen)
{
	struct cache_key k = { key, klen };
	struct hashtab_slot *s;
	struct cache_entry *e;

	if (hashtab__reserve(&in->cache, 1))
		return -ENOMEM;
	e = arena__new(&in->mem, struct cache_entry);
	if (!e || !(e->key = arena__alloc(&in->mem, klen, 1)) ||
	    !(e->val = arena__strndup(&in->mem, val, vlen)))
		return -ENOMEM;
	memcpy(e->key, key, klen);
	e->klen = klen;
	s = hashtab__slot(&in->cache, h, cache_eq, &k);
	/* a key put again (by a nested resolve) takes the newer value */
	if (s->val)
		s->val = (uintptr_t)e;
	else
		hashtab__fill(&in->cache, s, h, (uintptr_t)e);
	return 0;
}

#define MAX_LEVELS 64

static int resolve(struct inliner *in, struct span pc, struct span rawfunc, const char *path,
		   struct sbuf *out, bool *unreadable, int depth)
{
	struct level lv[MAX_LEVELS];
	struct sbuf key = { 0 };
	struct cache_entry *ce;
	struct dso_entry *d;
	size_t start = out->len;
	bool fresh;
	uint64_t h;
	int n, err;

	err = sbuf_add(&key, pc.p, pc.len);
	err = err ?: sbuf_addc(&key, '\0');
	err = err ?: sbuf_adds(&key, path);
	if (err)
		goto out;
	h = hash_bytes(key.buf, key.len);
	if ((ce = cache_find(in, key.buf, key.len, h))) {
		err = sbuf_adds(out, ce->val);
		goto out;
	}
	in->lookups++;
	d = dso_get(in, path, &fresh);
	if (!d) {
		err = -ENOMEM;
		goto out;
	}
	if (!d->dwfl) {
		/* addr2line fails on the file: nothing on its stdout */
		if (fresh)
			*unreadable = true;
		err = cache_put(in, key.buf, key.len, h, "", 0);
		goto out;
	}
	n = lookup(d, scan_hex(pc), lv, MAX_LEVELS);
	if (!n && depth == 0) {
		/* the script's nm fallback, for "func+0xOFF" */
		size_t flen = collapse_strip_offset(rawfunc.p, rawfunc.len);
		uint64_t base;

		if (flen && flen < rawfunc.len &&
		    nm_lookup(d, rawfunc.p, flen, &base)) {
			char hex[24];
			struct span off = { rawfunc.p + flen + 3, rawfunc.len - flen - 3 };
			int len = snprintf(hex, sizeof(hex), "0x%llx",
					   (unsigned long long)(base + scan_hex(off)));

			err = resolve(in, (struct span){ hex, len }, (struct span){ "", 0 }, path,
				      out, unreadable, depth + 1);
			err = err ?: cache_put(in, key.buf, key.len, h, out->buf + start,
					       out->len - start);
			goto out;
		}
	}
	if (!n) {
		lv[0] = (struct level){ .func = strdup("??") };
		if (!lv[0].func) {
			err = -ENOMEM;
			goto out;
		}
		n = 1;
		/* "??:0" rather than "??:?" */
		lv[0].line = -1;
	}
	/* unshift per level: outermost first */
	for (int i = n; i-- > 0;) {
		char num[16];

		if (i != n - 1)
			err = err ?: sbuf_addc(out, ';');
		err = err ?: sbuf_adds(out, lv[i].func ? lv[i].func : "??");
		if (in->context) {
			err = err ?: sbuf_addc(out, ':');
			err = err ?: sbuf_adds(out, lv[i].file ? lv[i].file : "??");
			if (lv[i].line > 0)
				snprintf(num, sizeof(num), ":%d", lv[i].line);
			else
				strcpy(num, lv[i].line < 0 ? ":0" : ":?");
			err = err ?: sbuf_adds(out, num);
		}
		free(lv[i].func);
	}
	err = err ?: cache_put(in, key.buf, key.len, h, out->buf + start, out->len - start);
out:
	sbuf_free(&key);
	return err;
}

int inliner__resolve(struct inliner *in, struct span pc, struct span rawfunc, struct span mod,
		     struct sbuf *out, bool *unreadable)
{
	char *path = strndup(mod.p, mod.len);
	int err;

	if (!path)
		return -ENOMEM;
	err = resolve(in, pc, rawfunc, path, out, unreadable, 0);
	free(path);
	return err;
}
