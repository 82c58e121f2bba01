// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Probe arguments by name, as perf probe turns them into fetch arguments
 * with DWARF: the variable found in the function's scopes that hold the
 * probe's address (then the unit's globals), its location there (a
 * register, a register plus offset, the frame base plus offset, a
 * location list entry, a static address), member and array accesses
 * added as dereferences and offsets, and perf's type for the result
 * (s32 for int, x64 for pointers and unsigned long, string from char *).
 * perf's messages are returned in its words.
 *
 * One difference: a static variable perf writes as "@name+0", which
 * uprobe_events refuses ("Please upgrade your kernel..."); ember writes
 * the address form uprobes take, "@+0xADDR" relative to the probed
 * file's mapping, so the probe works.
 */
#include <ctype.h>
#include <dwarf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/probe.h>
#include "probe/dwarf-file.h"
#include "probe/probe-priv.h"

/* Dereferences one argument may take: a member or index each, a string, the location's. */
#define MAX_REFS (EMBER_PROBE_MAX_FIELDS + 3)
/* perf's cut for basic types */
#define MAX_BASIC_BITS 64

/* A fetch argument being built: a base, then dereferences with offsets. */
struct fetch {
	bool konst;		/* DW_AT_const_value: the immediate \value */
	long value;
	unsigned int regno;	/* the DWARF register the kernel has no name for */
	const char *reg;	/* "%di", or NULL for a static address */
	Dwarf_Addr addr;	/* the static's DWARF address */
	long offs[MAX_REFS];	/* offs[0] innermost: a register's +OFF(...), or added to addr */
	int nref;
	char type[48];
};

/* One member access of an argument ("->name", ".name", "[3]"). */
struct field {
	char name[128];
	bool ref;		/* "->" */
	bool index;		/* "[N]" */
	long n;
};

/* Where perf's messages go. */
struct msgs {
	struct probe_sbuf b;
};

__attribute__((format(printf, 2, 3)))
static void say(struct msgs *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(m->b.len < m->b.size ? m->b.buf + m->b.len : NULL,
		      m->b.len < m->b.size ? m->b.size - m->b.len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->b.len += (size_t)n;
	if (m->b.size && m->b.len >= m->b.size)
		m->b.buf[m->b.size - 1] = '\0';
}

static const char *diename(Dwarf_Die *die)
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

/* The context of one place. */
struct place {
	struct ember_probe_dwarf *d;
	Dwarf_Die cu, scope, sp;
	Dwarf_Addr addr;
	Dwarf_Op *fb;		/* the frame base, or NULL */
	size_t nfb;
	bool range;		/* -V --range: locals placed later count, as -ERANGE */
};

/*
 * perf's convert_variable_location(): the location of var at the place,
 * into f when not NULL. 0, -ENOENT / -EINVAL (no location there),
 * -ENOTSUP (a form perf does not read).
 */
static int var_location(struct place *p, Dwarf_Die *var, struct fetch *f)
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
		else if (static_addr(p->d, diename(var), &f->addr))
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

/* ---- members and array elements ----------------------------------------- */

/* Split "->a.b[2]" into fields; the parser checked its form. */
static int split_fields(const char *s, struct field *fl, int max)
{
	int n = 0;

	while (*s && n < max) {
		struct field *f = &fl[n++];

		memset(f, 0, sizeof(*f));
		if (*s == '[') {
			char *end;

			f->index = true;
			f->n = strtol(s + 1, &end, 0);
			snprintf(f->name, sizeof(f->name), "%.*s", (int)(strchr(s, ']') + 1 - s), s);
			s = strchr(s, ']') + 1;
			continue;
		}
		if (*s == '-') {
			f->ref = true;
			s += 2;
		} else {
			s++;
		}
		size_t len = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (len >= sizeof(f->name))
			return -E2BIG;
		memcpy(f->name, s, len);
		f->name[len] = '\0';
		s += len;
	}
	return n;
}

/* How many unnamed members deep a member is looked for (looping DWARF stops here). */
#define UNNAMED_DEPTH_MAX 16

/* A member named name of struct or union type, also inside unnamed members. */
static bool find_member(Dwarf_Die *type, const char *name, Dwarf_Die *out, int depth)
{
	Dwarf_Die child;

	if (depth >= UNNAMED_DEPTH_MAX || dwarf_child(type, &child))
		return false;
	do {
		const char *n;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		n = dwarf_diename(&child);
		if (n && !strcmp(n, name)) {
			*out = child;
			return true;
		}
		if (!n) {
			Dwarf_Die t, tmp;

			if (probe_type__real(&child, &t) && find_member(&t, name, &tmp, depth + 1)) {
				*out = child;	/* the unnamed one: perf walks in again */
				return true;
			}
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static int member_offset(Dwarf_Die *member, long *offs)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr(member, DW_AT_data_member_location, &attr))
		return -ENOENT;
	if (dwarf_formudata(&attr, &w) == 0) {
		*offs = (long)w;
		return 0;
	}
	if (dwarf_getlocation(&attr, &ops, &nops) || nops != 1 || ops[0].atom != DW_OP_plus_uconst)
		return -ENOENT;
	*offs = (long)ops[0].number;
	return 0;
}

static int add_ref(struct fetch *f)
{
	if (f->nref == MAX_REFS)
		return -E2BIG;
	f->offs[f->nref++] = 0;
	return 0;
}

/*
 * perf's convert_variable_fields(): the accesses fl[0..n) from the
 * variable (or member) die, into f; *last gets the die whose type the
 * result has.
 */
static int convert_fields(Dwarf_Die *die, const char *varname, struct field *fl, int n,
			  struct fetch *f, Dwarf_Die *last, struct msgs *m, int unnamed)
{
	Dwarf_Die type, mem;
	int tag;
	long offs;

	if (unnamed >= UNNAMED_DEPTH_MAX)
		return -ELOOP;

	if (!probe_type__real(die, &type)) {
		say(m, "Failed to get the type of %s.\n", varname);
		return -ENOENT;
	}
	tag = dwarf_tag(&type);
	if (fl->index && (tag == DW_TAG_array_type || tag == DW_TAG_pointer_type)) {
		Dwarf_Word size;
		int bs;

		mem = type;	/* the array (or pointer) type: its element is the next's */
		if (!probe_type__real(&mem, &type)) {
			say(m, "Failed to get the type of %s.\n", varname);
			return -ENOENT;
		}
		if (tag == DW_TAG_pointer_type && add_ref(f))
			return -E2BIG;
		if (!f->nref) {
			say(m, "Structure on a register is not supported yet.\n");
			return -ENOTSUP;
		}
		bs = dwarf_bytesize(&type);
		size = bs > 0 ? (Dwarf_Word)bs : 0;
		f->offs[f->nref - 1] += (long)size * fl->n;
		goto next;
	}
	if (tag == DW_TAG_pointer_type) {
		if (!fl->ref) {
			say(m, "Semantic error: %s must be referred by '->'\n", fl->name);
			return -EINVAL;
		}
		if (!probe_type__real(&type, &type)) {
			say(m, "Failed to get the type of %s.\n", varname);
			return -ENOENT;
		}
		tag = dwarf_tag(&type);
		if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
			say(m, "%s is not a data structure nor a union.\n", varname);
			return -EINVAL;
		}
		if (add_ref(f))
			return -E2BIG;
	} else {
		if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
			say(m, "%s is not a data structure nor a union.\n", varname);
			return -EINVAL;
		}
		if (fl->index) {
			say(m, "Semantic error: %s is not a pointer nor array.\n", varname);
			return -EINVAL;
		}
		if (fl->ref && dwarf_diename(die)) {
			say(m, "Semantic error: %s must be referred by '.'\n", fl->name);
			return -EINVAL;
		}
		if (!f->nref) {
			say(m, "Structure on a register is not supported yet.\n");
			return -ENOTSUP;
		}
	}
	if (!find_member(&type, fl->name, &mem, 0)) {
		say(m, "%s(type:%s) has no member %s.\n", varname, diename(&type), fl->name);
		return -EINVAL;
	}
	if (tag == DW_TAG_union_type) {
		offs = 0;
	} else if (member_offset(&mem, &offs)) {
		say(m, "Failed to get the offset of %s.\n", fl->name);
		return -ENOENT;
	}
	f->offs[f->nref - 1] += offs;
	/* an unnamed member: the same field again, inside it */
	if (!dwarf_diename(&mem))
		return convert_fields(&mem, varname, fl, n, f, last, m, unnamed + 1);
next:
	if (n > 1)
		return convert_fields(&mem, fl->name, fl + 1, n - 1, f, last, m, 0);
	*last = mem;
	return 0;
}

/* ---- types -------------------------------------------------------------- */

static bool is_sign_cast(const char *cast)
{
	return !strcmp(cast, "s") || !strcmp(cast, "u") || !strcmp(cast, "x");
}

static bool is_string_cast(const char *cast)
{
	return !strcmp(cast, "string") || !strcmp(cast, "ustring");
}

/* perf's convert_variable_type(): the fetch type of die's value, cast as asked. */
static int convert_type(Dwarf_Die *die, const char *cast, struct fetch *f, struct msgs *m)
{
	Dwarf_Die type;
	int bits, size, tag;
	char prefix;

	if (cast && !is_string_cast(cast) && !is_sign_cast(cast)) {
		snprintf(f->type, sizeof(f->type), "%s", cast);
		return 0;
	}
	bits = dwarf_bitsize(die);
	if (bits > 0) {
		int boffs = dwarf_bitoffset(die), total = dwarf_bytesize(die);

		if (boffs < 0 || total < 0)
			return -ENOENT;
		snprintf(f->type, sizeof(f->type), "b%d@%d/%d", bits, boffs, total * 8);
		return 0;
	}
	if (!probe_type__real(die, &type)) {
		say(m, "Failed to get a type information of %s.\n", diename(die));
		return -ENOENT;
	}
	if (cast && is_string_cast(cast)) {
		tag = dwarf_tag(&type);
		if (tag != DW_TAG_pointer_type && tag != DW_TAG_array_type) {
			say(m, "Failed to cast into string: %s(%s) is not a pointer nor array.\n",
			    diename(die), diename(&type));
			return -EINVAL;
		}
		if (!probe_type__real(&type, &type)) {
			say(m, "Failed to get a type information.\n");
			return -ENOENT;
		}
		if (tag == DW_TAG_pointer_type && add_ref(f))
			return -E2BIG;
		if (!dwarf_diename(&type) || (strcmp(dwarf_diename(&type), "char") &&
					      strcmp(dwarf_diename(&type), "unsigned char"))) {
			say(m, "Failed to cast into string: %s is not (unsigned) char *.\n",
			    diename(die));
			return -EINVAL;
		}
		snprintf(f->type, sizeof(f->type), "%s", cast);
		return 0;
	}
	if (cast)
		prefix = cast[0];
	else
		prefix = probe_type__is_signed(&type) ? 's' : 'x';
	size = dwarf_bytesize(&type);
	if (size <= 0)
		return 0;	/* no size: the kernel's default type */
	bits = size * 8;
	if (bits > MAX_BASIC_BITS) {
		say(m, "%s exceeds max-bitwidth. Cut down to %d bits.\n", diename(&type),
		    MAX_BASIC_BITS);
		bits = MAX_BASIC_BITS;
	}
	snprintf(f->type, sizeof(f->type), "%c%d", prefix, bits);
	return 0;
}

/* ---- one argument ----------------------------------------------------- */

/* perf's message for a variable it cannot place. */
static void say_location(struct msgs *m, int err, const char *var)
{
	if (err == -ENOTSUP) {
		say(m, "Sorry, we don't support this variable location yet.\n");
		return;
	}
	say(m, "Failed to find the location of the '%s' variable at this address.\n"
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
		if (snprintf(tmp, sizeof(tmp), "%+ld(%s)", f->offs[i], buf) >= (int)sizeof(tmp))
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
		       struct ember_probe_trace_arg *out, int64_t static_delta, struct msgs *m)
{
	struct field fl[EMBER_PROBE_MAX_FIELDS];
	Dwarf_Die var, last;
	struct fetch f;
	int nf = 0, err;

	/* not here, or no place here: maybe at another place of the definition (perf's) */
	out->name = arg_name(p->d, a);
	out->value = NULL;
	out->type = NULL;
	if (!out->name)
		return -ENOMEM;
	if (!find_var(&p->scope, a->var, p->addr, &var) && !find_var(&p->cu, a->var, 0, &var))
		return 1;
	err = var_location(p, &var, &f);
	if (err == -ENOENT)
		return 1;
	if (err == -EDOM) {
		say(m, "Mapping for the register number %u missing on this architecture.\n",
		    f.regno);
		err = -ENOTSUP;
	}
	if (err) {
		say_location(m, err, a->var);
		return err;
	}
	last = var;
	if (a->fields) {
		nf = split_fields(a->fields, fl, EMBER_PROBE_MAX_FIELDS);
		if (nf < 0)
			return nf;
		err = convert_fields(&var, a->var, fl, nf, &f, &last, m, 0);
		if (err)
			return err;
	}
	err = convert_type(&last, a->type, &f, m);
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
		    dwarf_diename(&child) && var_location(e->p, &child, NULL) == 0) {
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

static int open_place(struct ember_probe_dwarf *d, const struct ember_probe_trace *t,
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
		      struct ember_probe_trace *t, const char *func, struct msgs *m)
{
	const char *names[EMBER_PROBE_MAX_ARGS];
	struct ember_probe_arg expanded[EMBER_PROBE_MAX_ARGS];
	const struct ember_probe_arg *args[EMBER_PROBE_MAX_ARGS];
	unsigned int n = 0;
	int64_t static_delta;
	bool vars = false;
	struct place p;
	int err;

	err = open_place(d, t, func, &p);
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

		if (!is_expansion(a)) {
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
		      size_t nr, struct msgs *m)
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
	struct msgs m = { .b = { .buf = msg, .size = msgsz } };
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

/* ---- -V: the variables at a place ------------------------------------------ */

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
				diename(&p->sp) : "", (unsigned long long)(start - entry),
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
				first ? diename(&p->sp) : "", (unsigned long long)(start - entry),
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
		    ((err = var_location(p, &die, NULL)) == 0 || err == -ERANGE)) {
			char line[1024], type[512];
			struct probe_sbuf b = { .buf = line, .size = sizeof(line) };
			int ok = 0;

			if (p->range)
				probe_sbuf__add(&b, "%s\t", !child ? "[EXT]" : err ? "[INV]" : "[VAL]");
			if (probe_type__name(&die, type, sizeof(type)) < 0)
				snprintf(type, sizeof(type), "(unknown_type)");
			probe_sbuf__add(&b, "%s\t%s", type, diename(&die));
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

	err = open_place(d, t, func, &p);
	if (err == -ENOMEM)
		return err;
	if (err || dwarf_entrypc(&p.sp, &entry)) {
		/* perf names the address it has no function for */
		snprintf(where, wsz, "%llx", (unsigned long long)p.addr);
		return -ENOENT;
	}
	snprintf(where, wsz, "%s+%llu", diename(&p.sp), (unsigned long long)(p.addr - entry));
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
