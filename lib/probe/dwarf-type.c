// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * C types from DWARF as perf probe reads them: the real type under the
 * qualifiers and typedefs, signedness, and the name -V prints ("long
 * unsigned int", "struct pv_record*", "char**" for an array of pointers).
 */
#include <dwarf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "probe/dwarf-file.h"

static Dwarf_Die *type_of(Dwarf_Die *die, Dwarf_Die *mem)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr))
		return NULL;
	return dwarf_formref_die(&attr, mem);
}

static bool is_qualifier(int tag)
{
	return tag == DW_TAG_const_type || tag == DW_TAG_restrict_type ||
	       tag == DW_TAG_volatile_type || tag == DW_TAG_shared_type;
}

/* How many types deep a chain is followed: DWARF that loops is refused, not followed. */
#define TYPE_DEPTH_MAX 64

Dwarf_Die *probe_type__unqualified(Dwarf_Die *die, Dwarf_Die *mem)
{
	int depth = 0;

	do
		die = type_of(die, mem);
	while (die && is_qualifier(dwarf_tag(die)) && ++depth < TYPE_DEPTH_MAX);
	return depth < TYPE_DEPTH_MAX ? die : NULL;
}

Dwarf_Die *probe_type__real(Dwarf_Die *die, Dwarf_Die *mem)
{
	int depth = 0;

	do
		die = probe_type__unqualified(die, mem);
	while (die && dwarf_tag(die) == DW_TAG_typedef && ++depth < TYPE_DEPTH_MAX);
	return depth < TYPE_DEPTH_MAX ? die : NULL;
}

bool probe_type__is_signed(Dwarf_Die *type)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc;

	if (!dwarf_attr(type, DW_AT_encoding, &attr) || dwarf_formudata(&attr, &enc))
		return false;
	return enc == DW_ATE_signed || enc == DW_ATE_signed_char || enc == DW_ATE_signed_fixed;
}

static int type_name(Dwarf_Die *die, char *buf, size_t size, int depth)
{
	Dwarf_Die mem, *type = probe_type__unqualified(die, &mem);
	const char *kind = "", *name;
	int tag, n;

	if (!type || depth >= TYPE_DEPTH_MAX)
		return -ENOENT;
	tag = dwarf_tag(type);
	if (tag == DW_TAG_subroutine_type)
		return snprintf(buf, size, "(function_type)");
	if (tag != DW_TAG_array_type && tag != DW_TAG_pointer_type) {
		name = dwarf_diename(type);
		if (tag == DW_TAG_union_type)
			kind = "union ";
		else if (tag == DW_TAG_structure_type)
			kind = "struct ";
		else if (tag == DW_TAG_enumeration_type)
			kind = "enum ";
		else if (!name)
			return -ENOENT;
		return snprintf(buf, size, "%s%s", kind, name ? name : "");
	}
	/* what it points at (or holds), then a star; perf 6.1 has no name for void* */
	n = type_name(type, buf, size, depth + 1);
	if (n < 0)
		return n;
	return n + snprintf((size_t)n < size ? buf + n : NULL, (size_t)n < size ? size - (size_t)n : 0,
			    "*");
}

int probe_type__name(Dwarf_Die *die, char *buf, size_t size)
{
	return type_name(die, buf, size, 0);
}
