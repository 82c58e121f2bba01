// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Probe arguments by name, as perf probe turns them into fetch arguments
 * with DWARF: the variable found in the function's scopes that hold the
 * probe's address (then the unit's globals), its location there (a
 * register, a register plus offset, the frame base plus offset, a
 * location list entry, a static address, a constant), then its members
 * and type (dwarf-var-fields.c); $vars and $params; and, across the
 * places of a definition, perf's immediate where a variable is missing.
 * perf's messages are returned in its words.
 *
 * Two differences, so that the probes work: a static perf writes as
 * "@name+0", which uprobe_events refuses ("Please upgrade your
 * kernel..."), ember writes as the address uprobes take, "@+0xADDR"
 * relative to the probed file's mapping; perf's filler immediate
 * "\deade12d", which the kernel refuses (no 0x), is "\0xdeade12d".
 */
#include <ctype.h>
#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/probe.h>
#include "probe/dwarf-var.h"

const char *probe_var__name(Dwarf_Die *die)
{
	const char *s = dwarf_diename(die);

	return s ? s : "(null)";
}

/* x86_64's DWARF register numbers as the kernel's fetch arguments name them. */
static const char *reg_name(unsigned int regno)
{
	static const char *const regs[] = {
		"%ax", "%dx", "%cx", "%bx", "%si", "%di", "%bp", "%sp",
		"%r8", "%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15",
	};

#if defined(__x86_64__)
	return regno < sizeof(regs) / sizeof(regs[0]) ? regs[regno] : NULL;
#else
	(void)regs;
	(void)regno;
	return NULL;
#endif
}

/* ---- finding a variable ----------------------------------------------- */

static bool has_place(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	return dwarf_attr(die, DW_AT_external, &attr) || dwarf_attr(die, DW_AT_location, &attr) ||
	       dwarf_attr(die, DW_AT_const_value, &attr);
}

/*
 * perf's search: the children of scope in order, descending into those
 * that hold addr (blocks, inlined calls); addr 0 looks at the direct
 * children only (a unit's globals).
 */
static bool find_var(Dwarf_Die *scope, const char *name, Dwarf_Addr addr, Dwarf_Die *out)
{
	Dwarf_Die child;

	if (dwarf_child(scope, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);
		const char *n;

		if (tag == DW_TAG_formal_parameter || tag == DW_TAG_variable) {
			n = dwarf_diename(&child);
			if (n && !strcmp(n, name) && has_place(&child)) {
				*out = child;
				return true;
			}
			continue;
		}
		if (addr && dwarf_haspc(&child, addr) == 1 && find_var(&child, name, addr, out))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* The address of a static variable without a location of its own, from the symbol table. */
static int static_addr(struct ember_probe_dwarf *d, const char *name, Dwarf_Addr *addr)
{
	int n = dwfl_module_getsymtab(d->mod);

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr value;
		const char *s = dwfl_module_getsym_info(d->mod, i, &sym, &value, NULL, NULL, NULL);

		if (s && !strcmp(s, name) && sym.st_shndx != SHN_UNDEF &&
		    GELF_ST_TYPE(sym.st_info) == STT_OBJECT) {
			*addr = value - d->dw_bias;
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * perf's convert_variable_location(): the location of var at the place,
 * into f when not NULL. 0, -ENOENT / -EINVAL (no location there),
 * -ENOTSUP (a form perf does not read).
 */
int probe_var__location(struct place *p, Dwarf_Die *var, struct fetch *f)
{
	Dwarf_Attribute attr;
	Dwarf_Addr entry, high, at = p->addr;
	Dwarf_Op *op;
	size_t nops;
	Dwarf_Word regno;
	long offs = 0;
	bool ref = false;
	int later = 0;

	if (dwarf_attr(var, DW_AT_external, &attr))
		goto static_var;
	/* a constant is an immediate (the kernel takes them) */
	if (dwarf_attr(var, DW_AT_const_value, &attr)) {
		Dwarf_Sword value = 0;

		if (!f)
			return 0;
		memset(f, 0, sizeof(*f));
		dwarf_formsdata(&attr, &value);
		f->konst = true;
		f->value = (long)value;
		return 0;
	}
	if (!dwarf_attr(var, DW_AT_location, &attr))
		return -EINVAL;
	if (dwarf_getlocation_addr(&attr, at, &op, &nops, 1) <= 0) {
		if (dwarf_entrypc(&p->sp, &entry))
			return -ENOENT;
		/*
		 * A parameter at the function's entry may get its place a
		 * little later; with --range, a local placed anywhere later
		 * is listed as not valid here ([INV]).
		 */
		if (p->range && dwarf_tag(var) == DW_TAG_variable)
			later = -ERANGE;
		else if (at != entry || dwarf_tag(var) != DW_TAG_formal_parameter)
			return -ENOENT;
		if (dwarf_highpc(&p->sp, &high))
			return -ENOENT;
		for (at++; at <= high; at++)
			if (dwarf_getlocation_addr(&attr, at, &op, &nops, 1) > 0)
				break;
		if (at > high)
			return -ENOENT;
	}
	if (nops == 0)
		return -ENOENT;
	if (op->atom == DW_OP_addr) {
static_var:
		if (!f)
			return later;
		memset(f, 0, sizeof(*f));
		if (dwarf_attr(var, DW_AT_location, &attr) &&
		    dwarf_getlocation_addr(&attr, p->addr, &op, &nops, 1) > 0 && nops &&
		    op->atom == DW_OP_addr)
			f->addr = op->number;
		else if (static_addr(p->d, probe_var__name(var), &f->addr))
			return -ENOENT;
		f->nref = 1;
		return 0;
	}
	if (op->atom == DW_OP_fbreg) {
		if (!p->fb)
			return -ENOTSUP;
		ref = true;
		offs = (long)op->number;
		op = &p->fb[0];
	}
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		regno = op->atom - DW_OP_breg0;
		offs += (long)op->number;
		ref = true;
	} else if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31) {
		regno = op->atom - DW_OP_reg0;
	} else if (op->atom == DW_OP_bregx) {
		regno = op->number;
		offs += (long)op->number2;
		ref = true;
	} else if (op->atom == DW_OP_regx) {
		regno = op->number;
	} else {
		return -ENOTSUP;
	}
	if (!f)
		return later;
	memset(f, 0, sizeof(*f));
	/* a register the kernel has no name for (perf warns, then refuses it) */
	if (!reg_name((unsigned int)regno)) {
		f->regno = (unsigned int)regno;
		return -EDOM;
	}
	f->reg = reg_name((unsigned int)regno);
	if (ref) {
		f->offs[0] = offs;
		f->nref = 1;
	}
	return 0;
}

/* ---- one argument ----------------------------------------------------- */

/* perf's message for a variable it cannot place. */
static void say_location(struct probe_sbuf *m, int err, const char *var)
{
	if (err == -ENOTSUP) {
		probe_sbuf__add(m, "Sorry, we don't support this variable location yet.\n");
		return;
	}
	probe_sbuf__add(m, "Failed to find the location of the '%s' variable at this address.\n"
	       " Perhaps it has been optimized out.\n"
	       " Use -V with the --range option to show '%s' location range.\n", var, var);
}

/* The fetch argument's text, "+8(+16(%di))" or "+0(@+0x4030)", into the arena. */
static const char *format_fetch(struct ember_probe_dwarf *d, const struct fetch *f,
				int64_t static_delta)
{
	char buf[512], tmp[512];
	int i = 0;

	if (f->konst) {
		snprintf(buf, sizeof(buf), "\\%ld", f->value);
		return arena__strndup(&d->strings, buf, strlen(buf));
	}
	if (f->reg) {
		snprintf(buf, sizeof(buf), "%s", f->reg);
	} else {
		/* uprobes take a static address relative to the probed file's mapping */
		snprintf(buf, sizeof(buf), "@+0x%llx",
			 (unsigned long long)((int64_t)f->addr + f->offs[0] - static_delta));
		i = 1;
	}
	for (; i < f->nref; i++) {
		if (snprintf(tmp, sizeof(tmp), f->user[i] ? "+u%ld(%s)" : "%+ld(%s)", f->offs[i],
			     buf) >= (int)sizeof(tmp))
			return NULL;
		memcpy(buf, tmp, sizeof(buf));
	}
	return arena__strndup(&d->strings, buf, strlen(buf));
}

/* perf's name for an argument it was not given one for: "var", or "var_type". */
static const char *arg_name(struct ember_probe_dwarf *d, const struct ember_probe_arg *a)
{
	char buf[256];

	if (a->name)
		return a->name;
	if (a->fields || !a->type)
		return a->var;
	snprintf(buf, sizeof(buf), "%s_%s", a->var, a->type);
	return arena__strndup(&d->strings, buf, strlen(buf));
}

/*
 * One argument that names a variable, into out: 0; 1 when the variable
 * is not here or has no place here (out->value NULL); -errno with perf's
 * words in m.
 */
static int convert_arg(struct place *p, const struct ember_probe_arg *a,
		       struct ember_probe_trace_arg *out, int64_t static_delta, struct probe_sbuf *m)
{
	Dwarf_Die var, last;
	struct fetch f;
	int err;

	/* not here, or no place here: maybe at another place of the definition (perf's) */
	out->name = arg_name(p->d, a);
	out->value = NULL;
	out->type = NULL;
	if (!out->name)
		return -ENOMEM;
	if (!find_var(&p->scope, a->var, p->addr, &var) && !find_var(&p->cu, a->var, 0, &var))
		return 1;
	err = probe_var__location(p, &var, &f);
	if (err == -ENOENT)
		return 1;
	if (err == -EDOM) {
		probe_sbuf__add(m, "Mapping for the register number %u missing on this architecture.\n",
		    f.regno);
		err = -ENOTSUP;
	}
	if (err) {
		say_location(m, err, a->var);
		return err;
	}
	last = var;
	if (a->fields) {
		err = probe_var__fields(&var, a->var, a->fields, a->user_access, &f, &last, m);
		if (err)
			return err;
	}
	err = probe_var__type(&last, a->type, &f, m);
	if (err)
		return err;
	out->value = format_fetch(p->d, &f, static_delta);
	out->type = f.type[0] ? arena__strndup(&p->d->strings, f.type, strlen(f.type)) : NULL;
	if (!out->value || (f.type[0] && !out->type))
		return -ENOMEM;
	return 0;
}

/* ---- $vars and $params ---------------------------------------------------- */

struct expand {
	struct place *p;
	bool vars;		/* locals too */
	const char **names;
	unsigned int nr, max;
};

/* perf's copy_variables_cb walk: the parameters (and locals) placed at the address. */
static int expand_scope(struct expand *e, Dwarf_Die *scope)
{
	Dwarf_Die child;

	if (dwarf_child(scope, &child))
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if ((tag == DW_TAG_formal_parameter || (tag == DW_TAG_variable && e->vars)) &&
		    dwarf_diename(&child) && probe_var__location(e->p, &child, NULL) == 0) {
			if (e->nr == e->max)
				return -E2BIG;
			e->names[e->nr++] = dwarf_diename(&child);
		}
		if (dwarf_haspc(&child, e->p->addr) == 1) {
			int err = expand_scope(e, &child);

			if (err)
				return err;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static bool names_variable(const struct ember_probe_arg *a)
{
	return isalpha((unsigned char)a->var[0]) || a->var[0] == '_';
}

static bool is_expansion(const struct ember_probe_arg *a)
{
	return !strcmp(a->var, "$vars") || !strcmp(a->var, "$params");
}

bool ember_probe_def__needs_dwarf_args(const struct ember_probe_def *def)
{
	for (unsigned int i = 0; i < def->nr_args; i++)
		if (names_variable(&def->args[i]) || is_expansion(&def->args[i]))
			return true;
	return false;
}

int probe_var__place(struct ember_probe_dwarf *d, const struct ember_probe_trace *t,
		      const char *func, struct place *p)
{
	int err;

	memset(p, 0, sizeof(*p));
	p->d = d;
	err = probe_dwarf__addr(d, t->offset, &p->addr);
	if (!err)
		err = probe_dwarf__scope(d, p->addr, func, &p->cu, &p->scope, &p->sp);
	if (!err)
		err = probe_dwarf__frame_base(d, &p->sp, p->addr, &p->fb, &p->nfb);
	return err;
}

/* The arguments of one place; those empty there get a NULL value. 0 or -errno. */
static int place_args(struct ember_probe_dwarf *d, const struct ember_probe_def *def,
		      struct ember_probe_trace *t, const char *func, struct probe_sbuf *m)
{
	const char *names[EMBER_PROBE_MAX_ARGS];
	struct ember_probe_arg expanded[EMBER_PROBE_MAX_ARGS];
	const struct ember_probe_arg *args[EMBER_PROBE_MAX_ARGS];
	unsigned int n = 0;
	int64_t static_delta;
	bool vars = false;
	struct place p;
	int err;

	err = probe_var__place(d, t, func, &p);
	if (err == -ENOMEM)
		return err;
	/* no function there in the debug information: perf says no more than that it failed */
	if (err)
		return -ENOENT;
	static_delta = (int64_t)p.addr - (int64_t)t->offset;
	/* $vars and $params become the variables they stand for, in place */
	for (unsigned int i = 0; i < def->nr_args; i++) {
		const struct ember_probe_arg *a = &def->args[i];
		struct expand e = { .p = &p, .names = names + n, .max = EMBER_PROBE_MAX_ARGS - n };

		/* a return probe's $vars stays as typed (perf's), for the kernel to refuse */
		if (!is_expansion(a) || t->retprobe) {
			if (n == EMBER_PROBE_MAX_ARGS)
				return -E2BIG;
			args[n++] = a;
			continue;
		}
		/* once $vars is seen, a later $params lists locals too (perf's) */
		vars = vars || !strcmp(a->var, "$vars");
		e.vars = vars;
		err = expand_scope(&e, &p.scope);
		if (err)
			return err;
		for (unsigned int k = 0; k < e.nr; k++) {
			memset(&expanded[n], 0, sizeof(expanded[n]));
			expanded[n].var = names[n];
			args[n] = &expanded[n];
			n++;
		}
	}
	t->nr_args = n;
	for (unsigned int i = 0; i < n; i++) {
		const struct ember_probe_arg *a = args[i];
		struct ember_probe_trace_arg *out = &t->args[i];

		if (!names_variable(a)) {
			/* registers, $retval, @sym, +8(%si): as typed */
			out->name = a->name;
			out->value = a->var;
			out->type = a->type;
			continue;
		}
		err = convert_arg(&p, a, out, static_delta, m);
		if (err < 0)
			return err;
	}
	return 0;
}

/* perf's value for an argument empty at a place but found at another (DEFAULT_VAR_VALUE). */
#define EMPTY_VALUE "\\0xdeade12d"

/*
 * perf's fill_empty_trace_arg(): an argument found at no place is an
 * error; where it is empty, it takes an immediate typed as where it was
 * found. perf walks the definition's arguments over the places' (after
 * $vars and $params): an index past a place's arguments counts as empty
 * only for the first, which is how $params standing for nothing fails.
 */
static int fill_empty(const struct ember_probe_def *def, struct ember_probe_trace *traces,
		      size_t nr, struct probe_sbuf *m)
{
	for (unsigned int i = 0; i < def->nr_args; i++) {
		const struct ember_probe_trace_arg *found = NULL;
		bool anywhere = false;

		for (size_t j = 0; j < nr && !found; j++) {
			if (i >= traces[j].nr_args)
				continue;
			anywhere = true;
			if (traces[j].args[i].value)
				found = &traces[j].args[i];
		}
		if (!found && (anywhere || i == 0)) {
			say_location(m, -ENOENT, def->args[i].var);
			return -ENOENT;
		}
		for (size_t j = 0; found && j < nr; j++) {
			struct ember_probe_trace_arg *a = &traces[j].args[i];

			if (i < traces[j].nr_args && !a->value) {
				a->value = EMPTY_VALUE;
				a->type = found->type;
			}
		}
	}
	return 0;
}

int ember_probe_dwarf__args(struct ember_probe_dwarf *d, const struct ember_probe_def *def,
			    struct ember_probe_trace *traces, size_t nr, char *msg, size_t msgsz)
{
	struct probe_sbuf m = { .buf = msg, .size = msgsz };
	int err;

	if (msgsz)
		msg[0] = '\0';
	for (size_t i = 0; i < nr; i++) {
		/* the place's function (its symbol) is the scope its variables are in */
		const char *func = traces[i].event[0] ? traces[i].event : NULL;

		err = place_args(d, def, &traces[i], func, &m);
		if (err)
			return err;
	}
	return nr ? fill_empty(def, traces, nr, &m) : 0;
}

