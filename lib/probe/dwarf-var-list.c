// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf probe -V: the variables that have a place at a probe's address,
 * "TYPE<tab>NAME" as perf names types, sorted, with --externs the unit's
 * globals and with --range where each has a place.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/dwarf-var.h"

struct var_list {
	char **lines;
	size_t nr, cap;
};

static int list_add(struct var_list *l, const char *s)
{
	if (l->nr == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		char **p = realloc(l->lines, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		l->lines = p;
		l->cap = cap;
	}
	l->lines[l->nr] = strdup(s);
	return l->lines[l->nr++] ? 0 : -ENOMEM;
}

/* perf's die_get_var_innermost_scope(): the ranges of the scope holding var. */
static int scope_ranges(struct place *p, Dwarf_Die *var, Dwarf_Addr entry, struct probe_sbuf *b)
{
	Dwarf_Die *scopes = NULL;
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;
	bool first = true;
	int n = dwarf_getscopes_die(var, &scopes);

	if (n <= 1) {
		free(scopes);
		return -EINVAL;
	}
	while ((off = dwarf_ranges(&scopes[1], off, &base, &start, &end)) > 0) {
		probe_sbuf__add(b, first ? "@<%s+[%llu-%llu" : ",%s%llu-%llu", first ?
				probe_var__name(&p->sp) : "", (unsigned long long)(start - entry),
				(unsigned long long)(end - entry));
		first = false;
	}
	if (!first)
		probe_sbuf__add(b, "]>");
	free(scopes);
	return 0;
}

/* perf's die_get_var_range(): where var has a place, from the function's entry. */
static int var_ranges(struct place *p, Dwarf_Die *var, struct probe_sbuf *b)
{
	Dwarf_Attribute attr;
	Dwarf_Addr entry, base, start, end;
	Dwarf_Op *op;
	size_t nops;
	ptrdiff_t off = 0;
	bool first = true;

	if (dwarf_entrypc(&p->sp, &entry) || !dwarf_diename(&p->sp))
		return -ENOENT;
	if (!dwarf_attr(var, DW_AT_location, &attr))
		return -EINVAL;
	while ((off = dwarf_getlocations(&attr, off, &base, &start, &end, &op, &nops)) > 0) {
		/* one expression for the whole scope (libdw starts it at 0): the scope's ranges */
		if (start == 0)
			return scope_ranges(p, var, entry, b);
		probe_sbuf__add(b, first ? "@<%s+[%llu-%llu" : ",%s%llu-%llu",
				first ? probe_var__name(&p->sp) : "", (unsigned long long)(start - entry),
				(unsigned long long)(end - entry));
		first = false;
	}
	if (!first)
		probe_sbuf__add(b, "]>");
	return 0;
}

/* perf's collect_variables_cb walk; child: descend into what holds the address. */
static int collect(struct place *p, Dwarf_Die *scope, bool child, struct var_list *l)
{
	Dwarf_Die die;

	if (dwarf_child(scope, &die))
		return 0;
	do {
		int tag = dwarf_tag(&die), err;

		if ((tag == DW_TAG_formal_parameter || tag == DW_TAG_variable) &&
		    ((err = probe_var__location(p, &die, NULL)) == 0 || err == -ERANGE)) {
			char line[1024], type[512];
			struct probe_sbuf b = { .buf = line, .size = sizeof(line) };
			int ok = 0;

			if (p->range)
				probe_sbuf__add(&b, "%s\t", !child ? "[EXT]" : err ? "[INV]" : "[VAL]");
			if (probe_type__name(&die, type, sizeof(type)) < 0)
				snprintf(type, sizeof(type), "(unknown_type)");
			probe_sbuf__add(&b, "%s\t%s", type, probe_var__name(&die));
			if (p->range && child) {
				probe_sbuf__add(&b, "\t");
				ok = var_ranges(p, &die, &b);
			}
			if (!ok && list_add(l, line))
				return -ENOMEM;
		}
		if (child && dwarf_haspc(&die, p->addr) == 1) {
			int err = collect(p, &die, child, l);

			if (err)
				return err;
		}
	} while (dwarf_siblingof(&die, &die) == 0);
	return 0;
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ember_probe_dwarf__vars(struct ember_probe_dwarf *d, const struct ember_probe_trace *t,
			    const char *func, unsigned int flags, char *where, size_t wsz,
			    ember_probe_var_fn fn, void *arg)
{
	struct var_list l = { 0 };
	Dwarf_Addr entry;
	struct place p;
	int err;

	err = probe_var__place(d, t, func, &p);
	if (err == -ENOMEM)
		return err;
	if (err || dwarf_entrypc(&p.sp, &entry)) {
		/* perf names the address it has no function for */
		snprintf(where, wsz, "%llx", (unsigned long long)p.addr);
		return -ENOENT;
	}
	snprintf(where, wsz, "%s+%llu", probe_var__name(&p.sp), (unsigned long long)(p.addr - entry));
	p.range = flags & EMBER_PROBE_VARS_RANGE;
	err = collect(&p, &p.scope, true, &l);
	if (!err && (flags & EMBER_PROBE_VARS_EXTERNS))
		err = collect(&p, &p.cu, false, &l);
	if (!err && l.nr)
		qsort(l.lines, l.nr, sizeof(*l.lines), cmp_lines);
	for (size_t i = 0; !err && i < l.nr; i++)
		if (!i || strcmp(l.lines[i], l.lines[i - 1]))
			err = fn(l.lines[i], arg);
	for (size_t i = 0; i < l.nr; i++)
		free(l.lines[i]);
	free(l.lines);
	return err;
}
