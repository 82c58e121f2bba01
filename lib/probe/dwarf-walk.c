// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf probe's rules for walking DWARF (see dwarf-walk.h), written for
 * ember from what perf 6.1 does: the same functions, rows and names for
 * the same binary, so that ember's places and -L lines are perf's.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/event.h>
#include "probe/dwarf-walk.h"

/* What a find_child() callback says: stop here, or go on into children and/or siblings. */
enum { FIND_END = 0, FIND_CHILD = 1, FIND_SIBLING = 2, FIND_CONTINUE = 3 };

/*
 * As perf, dwarf_haspc()'s error (-1) counts as holding the address: only
 * a plain 0 is "not here".
 */

/* Depth-first over root's descendants until cb says FIND_END: that DIE, else NULL. */
static Dwarf_Die *find_child(Dwarf_Die *root, int (*cb)(Dwarf_Die *, void *), void *arg,
			     Dwarf_Die *out)
{
	Dwarf_Die child;
	int ret;

	if (dwarf_child(root, out) != 0)
		return NULL;
	do {
		ret = cb(out, arg);
		if (ret == FIND_END)
			return out;
		if ((ret & FIND_CHILD) && find_child(out, cb, arg, &child)) {
			*out = child;
			return out;
		}
	} while ((ret & FIND_SIBLING) && dwarf_siblingof(out, out) == 0);
	return NULL;
}

bool probe_dw__tail_eq(const char *a, const char *b)
{
	size_t i = strlen(a), j = strlen(b);

	while (i && j)
		if (a[--i] != b[--j])
			return false;
	return true;
}

bool probe_dw__is_func_def(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	return dwarf_tag(die) == DW_TAG_subprogram &&
	       !dwarf_attr(die, DW_AT_declaration, &attr);
}

bool probe_dw__is_func_instance(Dwarf_Die *die)
{
	Dwarf_Addr a;
	Dwarf_Attribute attr;

	/* gcc describes some copies it did not inline as inline ones too */
	return !dwarf_func_inline(die) &&
	       (dwarf_entrypc(die, &a) == 0 || dwarf_attr(die, DW_AT_ranges, &attr));
}

int probe_dw__entrypc(Dwarf_Die *die, Dwarf_Addr *addr)
{
	Dwarf_Addr base, end;
	Dwarf_Attribute attr;

	if (dwarf_entrypc(die, addr) == 0)
		return 0;
	if (!dwarf_attr(die, DW_AT_ranges, &attr))
		return -ENOENT;
	return dwarf_ranges(die, 0, &base, addr, &end) < 0 ? -ENOENT : 0;
}

bool probe_dw__match_name(Dwarf_Die *die, const char *glob)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_diename(die);

	if (name && ember_glob_match(glob, name))
		return true;
	if (!dwarf_attr_integrate(die, DW_AT_linkage_name, &attr))
		return false;
	name = dwarf_formstring(&attr);
	return name && ember_glob_match(glob, name);
}

static int attr_sdata(Dwarf_Die *die, unsigned int name, Dwarf_Sword *v)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr(die, name, &attr) || dwarf_formsdata(&attr, v))
		return -ENOENT;
	return 0;
}

int probe_dw__call_line(Dwarf_Die *in)
{
	Dwarf_Attribute attr;
	Dwarf_Word v = 0;

	if (!dwarf_attr(in, DW_AT_call_line, &attr))
		return -ENOENT;
	dwarf_formudata(&attr, &v);
	return (int)v;
}

const char *probe_dw__call_file(Dwarf_Die *in)
{
	Dwarf_Die cu;
	Dwarf_Files *files;
	Dwarf_Sword idx;

	if (attr_sdata(in, DW_AT_call_file, &idx) || idx < 0 ||
	    !dwarf_diecu(in, &cu, NULL, NULL) || dwarf_getsrcfiles(&cu, &files, NULL))
		return NULL;
	return dwarf_filesrc(files, (size_t)idx, NULL, NULL);
}

struct addr_search {
	Dwarf_Addr addr;
	Dwarf_Die *out;
};

static int realfunc_cb(Dwarf_Die *fn, void *arg)
{
	struct addr_search *s = arg;

	if (dwarf_tag(fn) == DW_TAG_subprogram && dwarf_haspc(fn, s->addr)) {
		*s->out = *fn;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

Dwarf_Die *probe_dw__realfunc(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *out)
{
	struct addr_search s = { .addr = addr, .out = out };

	return dwarf_getfuncs(cu, realfunc_cb, &s, 0) > 0 ? out : NULL;
}

static int inline_cb(Dwarf_Die *die, void *arg)
{
	Dwarf_Addr *addr = arg;

	if (dwarf_tag(die) == DW_TAG_inlined_subroutine && dwarf_haspc(die, *addr))
		return FIND_END;
	return FIND_CONTINUE;
}

Dwarf_Die *probe_dw__inline_at(Dwarf_Die *sp, Dwarf_Addr addr, bool deepest, Dwarf_Die *out)
{
	Dwarf_Die tmp, *in = find_child(sp, inline_cb, &addr, &tmp);

	if (!in)
		return NULL;
	*out = *in;
	/* an inlined copy can hold further copies: down to the last */
	while (deepest && (in = find_child(out, inline_cb, &addr, &tmp)))
		*out = *in;
	return out;
}

const char *probe_dw__cu_file(Dwarf_Die *cu, const char *tail)
{
	Dwarf_Files *files;
	size_t n;

	if (!tail || dwarf_getsrcfiles(cu, &files, &n))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *src = dwarf_filesrc(files, i, NULL, NULL);

		if (src && probe_dw__tail_eq(src, tail))
			return src;
	}
	return NULL;
}

/* The first statement row at addr, or of the row range addr falls in. */
static Dwarf_Line *statement_row(Dwarf_Die *cu, Dwarf_Addr addr)
{
	Dwarf_Lines *lines;
	Dwarf_Addr a;
	size_t n, lo = 0, hi;
	bool stmt;

	if (dwarf_getsrclines(cu, &lines, &n) || !n)
		return NULL;
	/* the last row at or before addr (rows are sorted by address) */
	hi = n - 1;
	while (lo < hi) {
		size_t mid = hi - (hi - lo) / 2;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a))
			return NULL;
		if (addr < a)
			hi = mid - 1;
		else
			lo = mid;
	}
	/* back to the first row at that address */
	while (lo > 0) {
		if (dwarf_lineaddr(dwarf_onesrcline(lines, lo - 1), &a))
			return NULL;
		if (a != addr)
			break;
		lo--;
	}
	/* forward to its statement */
	for (; lo < n; lo++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, lo);

		if (!l || dwarf_lineaddr(l, &a) || dwarf_linebeginstatement(l, &stmt) || a > addr)
			return NULL;
		if (stmt)
			return l;
	}
	return NULL;
}

int probe_dw__lineinfo(Dwarf_Die *cu, Dwarf_Addr addr, const char **file, int *line)
{
	Dwarf_Die sp;
	Dwarf_Addr entry;
	Dwarf_Line *l;

	*line = 0;
	if (probe_dw__realfunc(cu, addr, &sp) && !probe_dw__entrypc(&sp, &entry) &&
	    entry == addr) {
		*file = dwarf_decl_file(&sp);
		dwarf_decl_line(&sp, line);
	} else if ((l = statement_row(cu, addr)) && !dwarf_lineno(l, line)) {
		*file = dwarf_linesrc(l, NULL, NULL);
		if (!*file)
			*line = 0;
	}
	return *line && *file ? *line : -ENOENT;
}

static bool has_loclist(Dwarf_Die *die)
{
	Dwarf_Attribute loc;
	int tag = dwarf_tag(die);

	return (tag == DW_TAG_formal_parameter || tag == DW_TAG_variable) &&
	       dwarf_attr_integrate(die, DW_AT_location, &loc) &&
	       dwarf_whatform(&loc) == DW_FORM_sec_offset;
}

static int loclist_cb(Dwarf_Die *die, void *arg)
{
	return has_loclist(die) ? FIND_END : FIND_CONTINUE;
}

bool probe_dw__optimized(Dwarf_Die *cu)
{
	Dwarf_Die tmp;

	return has_loclist(cu) || find_child(cu, loclist_cb, NULL, &tmp);
}

void probe_dw__skip_prologue(Dwarf_Die *sp, Dwarf_Die *cu, Dwarf_Addr *entry)
{
	Dwarf_Lines *lines;
	Dwarf_Addr high, a = 0;
	Dwarf_Line *l = NULL;
	size_t n, i, first;
	int entry_line, line;
	bool end;

	if (dwarf_highpc(sp, &high) || dwarf_getsrclines(cu, &lines, &n))
		return;
	for (first = 0; first < n; first++)
		if (!dwarf_lineaddr(dwarf_onesrcline(lines, first), &a) && a == *entry)
			break;
	if (first == n || dwarf_lineno(dwarf_onesrcline(lines, first), &entry_line))
		return;
	/* the prologue ends at a marked row, the next line, or the row after the entry's */
	for (i = first; i < n; i++) {
		l = dwarf_onesrcline(lines, i);
		if (dwarf_lineaddr(l, &a) || dwarf_lineno(l, &line) || dwarf_lineprologueend(l, &end))
			return;
		if (a >= high || end || line != entry_line || i != first)
			break;
	}
	if (!l)
		return;
	dwarf_lineaddr(l, entry);
	if (*entry >= high && i > 0)
		dwarf_lineaddr(dwarf_onesrcline(lines, i - 1), entry);
}

/* ---- lines ------------------------------------------------------------------ */

struct funclines {
	bool recursive;
	probe_dw_line_fn fn;
	void *arg;
	int ret;
};

/* Inlined copies: the line each is called from, and (walking a unit) its declaration. */
static int funclines_cb(Dwarf_Die *die, void *arg)
{
	struct funclines *w = arg;
	Dwarf_Addr addr = 0;
	const char *file;
	int line;

	if (dwarf_tag(die) == DW_TAG_inlined_subroutine) {
		file = probe_dw__call_file(die);
		line = probe_dw__call_line(die);
		if (file && line > 0 && probe_dw__entrypc(die, &addr) == 0) {
			w->ret = w->fn(file, line, addr, w->arg);
			if (w->ret)
				return FIND_END;
		}
		if (!w->recursive)
			return FIND_SIBLING;
	}
	if (addr) {
		file = dwarf_decl_file(die);
		if (file && dwarf_decl_line(die, &line) == 0) {
			w->ret = w->fn(file, line, addr, w->arg);
			if (w->ret)
				return FIND_END;
		}
	}
	return FIND_CONTINUE;
}

static int walk_funclines(Dwarf_Die *sp, bool recursive, probe_dw_line_fn fn, void *arg)
{
	struct funclines w = { .recursive = recursive, .fn = fn, .arg = arg };
	Dwarf_Die tmp;
	Dwarf_Addr addr;
	const char *file = dwarf_decl_file(sp);
	int line;

	/* the declaration's line is the function's entry */
	if (file && dwarf_decl_line(sp, &line) == 0 && probe_dw__entrypc(sp, &addr) == 0) {
		w.ret = fn(file, line, addr, arg);
		if (w.ret)
			return w.ret;
	}
	find_child(sp, funclines_cb, &w, &tmp);
	return w.ret;
}

static int culines_cb(Dwarf_Die *sp, void *arg)
{
	struct funclines *w = arg;

	/* an inlined function can hold more inlined from the same file */
	w->ret = walk_funclines(sp, true, w->fn, w->arg);
	return w->ret ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* Whether a row at addr belongs to root and not to a copy inlined into it. */
static bool row_of(Dwarf_Die *root, const char *decl_file, int decl_line, Dwarf_Addr addr,
		   int line)
{
	Dwarf_Die in;
	const char *file;
	int in_line = 0;

	if (!dwarf_haspc(root, addr))
		return false;
	if (!probe_dw__inline_at(root, addr, true, &in))
		return true;
	/* the call of the inlined copy is root's own line */
	file = probe_dw__call_file(&in);
	if (file && decl_file && !strcmp(file, decl_file) && probe_dw__call_line(&in) == line)
		return true;
	/* a copy of root itself (recursion) */
	dwarf_decl_line(&in, &in_line);
	return in_line == decl_line && decl_file == dwarf_decl_file(&in);
}

int probe_dw__walk_lines(Dwarf_Die *root, probe_dw_line_fn fn, void *arg)
{
	Dwarf_Die cu_mem, *cu = root;
	Dwarf_Lines *lines;
	const char *decl_file = NULL;
	int decl_line = 0, ret;
	size_t n;

	if (dwarf_tag(root) != DW_TAG_compile_unit) {
		cu = dwarf_diecu(root, &cu_mem, NULL, NULL);
		dwarf_decl_line(root, &decl_line);
		decl_file = dwarf_decl_file(root);
	}
	if (!cu)
		return -EINVAL;
	if (dwarf_getsrclines(cu, &lines, &n))
		return -ENOENT;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr;
		int line;
		bool flag;

		if (!l || dwarf_lineno(l, &line) || dwarf_lineaddr(l, &addr))
			continue;
		/* an end of sequence is no line, and neither is a row that is not a statement */
		if (dwarf_lineendsequence(l, &flag) || flag)
			continue;
		if (dwarf_linebeginstatement(l, &flag) || !flag)
			continue;
		if (root != cu && !row_of(root, decl_file, decl_line, addr, line))
			continue;
		ret = fn(dwarf_linesrc(l, NULL, NULL), line, addr, arg);
		if (ret)
			return ret;
	}
	/* the line table has no declarations nor call sites: the functions do */
	if (root != cu)
		return walk_funclines(root, false, fn, arg);
	{
		struct funclines w = { .recursive = true, .fn = fn, .arg = arg };

		dwarf_getfuncs(cu, culines_cb, &w, 0);
		return w.ret;
	}
}

struct instances {
	Dwarf_Die *origin;
	int (*fn)(Dwarf_Die *, void *);
	void *arg;
	int ret;
};

static int instances_cb(Dwarf_Die *die, void *arg)
{
	struct instances *w = arg;
	Dwarf_Attribute attr;
	Dwarf_Die origin;
	Dwarf_Sword call_file, decl_file;
	int decl_line = 0;

	if (!probe_dw__is_func_instance(die) ||
	    !dwarf_attr(die, DW_AT_abstract_origin, &attr) || !dwarf_formref_die(&attr, &origin) ||
	    dwarf_dieoffset(&origin) != dwarf_dieoffset(w->origin))
		return FIND_CONTINUE;
	/* a copy "called" from the function's own declaration is no call */
	if (dwarf_tag(die) == DW_TAG_inlined_subroutine) {
		dwarf_decl_line(&origin, &decl_line);
		if (probe_dw__call_line(die) == decl_line &&
		    !attr_sdata(die, DW_AT_call_file, &call_file) &&
		    !attr_sdata(&origin, DW_AT_decl_file, &decl_file) && call_file == decl_file)
			return FIND_CONTINUE;
	}
	w->ret = w->fn(die, w->arg);
	return w->ret ? FIND_END : FIND_CONTINUE;
}

int probe_dw__walk_instances(Dwarf_Die *origin, int (*fn)(Dwarf_Die *, void *), void *arg)
{
	struct instances w = { .origin = origin, .fn = fn, .arg = arg, .ret = -ENOENT };
	Dwarf_Die cu, tmp;

	if (!dwarf_diecu(origin, &cu, NULL, NULL))
		return -ENOENT;
	find_child(&cu, instances_cb, &w, &tmp);
	return w.ret;
}

struct pubname {
	const char *name, *file;
	Dwarf_Die *sp, *cu;
	bool found;
};

static int pubname_cb(Dwarf *dw, Dwarf_Global *gl, void *arg)
{
	struct pubname *p = arg;
	const char *decl;

	if (!dwarf_offdie(dw, gl->die_offset, p->sp) || dwarf_tag(p->sp) != DW_TAG_subprogram ||
	    !probe_dw__match_name(p->sp, p->name) || !dwarf_offdie(dw, gl->cu_offset, p->cu))
		return DWARF_CB_OK;
	decl = dwarf_decl_file(p->sp);
	if (p->file && (!decl || !probe_dw__tail_eq(p->file, decl)))
		return DWARF_CB_OK;
	p->found = true;
	return DWARF_CB_ABORT;
}

bool probe_dw__pubname(Dwarf *dw, const char *name, const char *file, Dwarf_Die *sp,
		       Dwarf_Die *cu)
{
	struct pubname p = { .name = name, .file = file, .sp = sp, .cu = cu };

	dwarf_getpubnames(dw, pubname_cb, &p, 0);
	return p.found;
}

/* ---- an address named back ------------------------------------------------- */

int probe_dw__find_point(Dwarf *dw, Dwarf_Addr addr, struct probe_dw_point *pt)
{
	Dwarf_Die cu, sp, in;
	Dwarf_Addr base = 0, a;
	const char *file = NULL, *func = NULL, *basefunc = NULL, *tmp;
	int baseline = 0, line = 0;

	memset(pt, 0, sizeof(*pt));
	if (!dwarf_addrdie(dw, addr, &cu))
		return -ENOENT;
	probe_dw__lineinfo(&cu, addr, &file, &line);
	if (probe_dw__realfunc(&cu, addr, &sp)) {
		func = basefunc = dwarf_diename(&sp);
		if (!func || probe_dw__entrypc(&sp, &base) || dwarf_decl_line(&sp, &baseline)) {
			line = 0;
			goto post;
		}
		file = dwarf_decl_file(&sp);
		if (addr == base) {
			line = baseline;	/* the entry: relative line 0 */
			goto post;
		}
		/* down the inlined copies holding addr */
		while (probe_dw__inline_at(&sp, addr, false, &in)) {
			if (probe_dw__entrypc(&in, &a) == 0 && a == addr) {
				/* at a copy's entry: the line it is called from */
				line = probe_dw__call_line(&in);
				file = probe_dw__call_file(&in);
				break;
			}
			tmp = dwarf_diename(&in);
			if (!tmp || dwarf_decl_line(&in, &baseline))
				break;
			func = tmp;
			sp = in;
		}
		tmp = dwarf_decl_file(&sp);
		if (!tmp || (file && strcmp(tmp, file)))
			line = 0;
	}
post:
	if (line) {
		pt->line = line - baseline;
		pt->has_line = true;
	} else if (basefunc) {
		pt->offset = addr - base;
		pt->has_offset = true;
		func = basefunc;
	}
	pt->function = func;
	pt->file = file;
	return file || func ? 1 : 0;
}

/* prefix/name, then prefix/ and name less a leading directory each time, until one reads. */
static int source_under(const char *prefix, const char *name, char **path)
{
	for (;;) {
		int err;

		if (asprintf(path, "%s/%s", prefix, name) < 0)
			return -ENOMEM;
		if (!access(*path, R_OK))
			return 0;
		err = -errno;
		free(*path);
		*path = NULL;
		if (err != -ENAMETOOLONG && err != -ENOENT && err != -EROFS && err != -EFAULT)
			return err;
		name = strchr(name + 1, '/');
		if (!name)
			return -ENOENT;
	}
}

int probe_dw__source_path(Dwarf_Die *cu, const char *name, const char *prefix, char **path)
{
	Dwarf_Attribute attr;
	const char *dir = NULL;

	if (prefix)
		return source_under(prefix, name, path);
	if (dwarf_attr(cu, DW_AT_comp_dir, &attr))
		dir = dwarf_formstring(&attr);
	if (name[0] != '/' && dir) {
		if (asprintf(path, "%s/%s", dir, name) < 0)
			return -ENOMEM;
	} else if (!(*path = strdup(name))) {
		return -ENOMEM;
	}
	if (access(*path, R_OK)) {
		int err = -errno;

		free(*path);
		*path = NULL;
		return err;
	}
	return 0;
}
