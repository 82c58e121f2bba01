// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A probe argument's members and elements ("r->a.b[2]") as perf probe
 * turns them into offsets and dereferences from the variable's DWARF
 * type, and the fetch type perf gives the result (s32 for int, x64 for
 * unsigned and pointers, string for char * when asked, casts kept).
 */
#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/dwarf-var.h"

/* perf's cut for basic types */
#define MAX_BASIC_BITS 64

/* One member access of an argument ("->name", ".name", "[3]"). */
struct field {
	char name[128];
	bool ref;		/* "->" */
	bool index;		/* "[N]" */
	long n;
};

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
			  struct fetch *f, Dwarf_Die *last, struct probe_sbuf *m, int unnamed,
			  bool user)
{
	Dwarf_Die type, mem;
	int tag;
	long offs;

	if (unnamed >= UNNAMED_DEPTH_MAX)
		return -ELOOP;

	if (!probe_type__real(die, &type)) {
		probe_sbuf__add(m, "Failed to get the type of %s.\n", varname);
		return -ENOENT;
	}
	tag = dwarf_tag(&type);
	if (fl->index && (tag == DW_TAG_array_type || tag == DW_TAG_pointer_type)) {
		Dwarf_Word size;
		int bs;

		mem = type;	/* the array (or pointer) type: its element is the next's */
		if (!probe_type__real(&mem, &type)) {
			probe_sbuf__add(m, "Failed to get the type of %s.\n", varname);
			return -ENOENT;
		}
		if (tag == DW_TAG_pointer_type && add_ref(f))
			return -E2BIG;
		if (!f->nref) {
			probe_sbuf__add(m, "Structure on a register is not supported yet.\n");
			return -ENOTSUP;
		}
		bs = dwarf_bytesize(&type);
		size = bs > 0 ? (Dwarf_Word)bs : 0;
		f->offs[f->nref - 1] += (long)size * fl->n;
		f->user[f->nref - 1] = user;
		goto next;
	}
	if (tag == DW_TAG_pointer_type) {
		if (!fl->ref) {
			probe_sbuf__add(m, "Semantic error: %s must be referred by '->'\n", fl->name);
			return -EINVAL;
		}
		if (!probe_type__real(&type, &type)) {
			probe_sbuf__add(m, "Failed to get the type of %s.\n", varname);
			return -ENOENT;
		}
		tag = dwarf_tag(&type);
		if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
			probe_sbuf__add(m, "%s is not a data structure nor a union.\n", varname);
			return -EINVAL;
		}
		if (add_ref(f))
			return -E2BIG;
	} else {
		if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
			probe_sbuf__add(m, "%s is not a data structure nor a union.\n", varname);
			return -EINVAL;
		}
		if (fl->index) {
			probe_sbuf__add(m, "Semantic error: %s is not a pointer nor array.\n", varname);
			return -EINVAL;
		}
		if (fl->ref && dwarf_diename(die)) {
			probe_sbuf__add(m, "Semantic error: %s must be referred by '.'\n", fl->name);
			return -EINVAL;
		}
		if (!f->nref) {
			probe_sbuf__add(m, "Structure on a register is not supported yet.\n");
			return -ENOTSUP;
		}
	}
	if (!find_member(&type, fl->name, &mem, 0)) {
		probe_sbuf__add(m, "%s(type:%s) has no member %s.\n", varname, probe_var__name(&type), fl->name);
		return -EINVAL;
	}
	if (tag == DW_TAG_union_type) {
		offs = 0;
	} else if (member_offset(&mem, &offs)) {
		probe_sbuf__add(m, "Failed to get the offset of %s.\n", fl->name);
		return -ENOENT;
	}
	f->offs[f->nref - 1] += offs;
	f->user[f->nref - 1] = user;
	/* an unnamed member: the same field again, inside it */
	if (!dwarf_diename(&mem))
		return convert_fields(&mem, varname, fl, n, f, last, m, unnamed + 1, user);
next:
	if (n > 1)
		return convert_fields(&mem, fl->name, fl + 1, n - 1, f, last, m, 0, user);
	*last = mem;
	return 0;
}

static bool is_sign_cast(const char *cast)
{
	return !strcmp(cast, "s") || !strcmp(cast, "u") || !strcmp(cast, "x");
}

static bool is_string_cast(const char *cast)
{
	return !strcmp(cast, "string") || !strcmp(cast, "ustring");
}

int probe_var__type(Dwarf_Die *die, const char *cast, struct fetch *f, struct probe_sbuf *m)
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
		probe_sbuf__add(m, "Failed to get a type information of %s.\n", probe_var__name(die));
		return -ENOENT;
	}
	if (cast && is_string_cast(cast)) {
		tag = dwarf_tag(&type);
		if (tag != DW_TAG_pointer_type && tag != DW_TAG_array_type) {
			probe_sbuf__add(m, "Failed to cast into string: %s(%s) is not a pointer nor array.\n",
			    probe_var__name(die), probe_var__name(&type));
			return -EINVAL;
		}
		if (!probe_type__real(&type, &type)) {
			probe_sbuf__add(m, "Failed to get a type information.\n");
			return -ENOENT;
		}
		if (tag == DW_TAG_pointer_type && add_ref(f))
			return -E2BIG;
		if (!dwarf_diename(&type) || (strcmp(dwarf_diename(&type), "char") &&
					      strcmp(dwarf_diename(&type), "unsigned char"))) {
			probe_sbuf__add(m, "Failed to cast into string: %s is not (unsigned) char *.\n",
			    probe_var__name(die));
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
		probe_sbuf__add(m, "%s exceeds max-bitwidth. Cut down to %d bits.\n", probe_var__name(&type),
		    MAX_BASIC_BITS);
		bits = MAX_BASIC_BITS;
	}
	snprintf(f->type, sizeof(f->type), "%c%d", prefix, bits);
	return 0;
}

int probe_var__fields(Dwarf_Die *var, const char *varname, const char *fields, bool user,
		      struct fetch *f, Dwarf_Die *last, struct probe_sbuf *m)
{
	struct field fl[EMBER_PROBE_MAX_FIELDS];
	int n = split_fields(fields, fl, EMBER_PROBE_MAX_FIELDS);

	if (n < 0)
		return n;
	return convert_fields(var, varname, fl, n, f, last, m, 0, user);
}
