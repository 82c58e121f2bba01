// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Compile units by their own address ranges (see dwarf-units.h). */
#include <errno.h>
#include <stdlib.h>
#include "symbol/dwarf-units.h"

static int range_cmp(const void *a, const void *b)
{
	const struct dwarf_unit_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int dwarf_units__read(struct dwarf_units *u, Dwarf *dw)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die die;
	size_t cap = 0;

	if (u->read)
		return 0;
	u->read = true;
	while (!dwarf_get_units(dw, cu, &cu, NULL, NULL, &die, NULL)) {
		Dwarf_Addr base, lo, hi;

		for (ptrdiff_t o = 0; (o = dwarf_ranges(&die, o, &base, &lo, &hi)) > 0;) {
			if (hi <= lo)
				continue;
			if (u->nr == cap) {
				struct dwarf_unit_range *v;

				cap = cap ? 2 * cap : 64;
				v = realloc(u->v, cap * sizeof(*v));
				if (!v) {
					dwarf_units__exit(u);
					u->read = true;
					return -ENOMEM;
				}
				u->v = v;
			}
			u->v[u->nr++] = (struct dwarf_unit_range){ lo, hi, die };
		}
	}
	if (u->nr)
		qsort(u->v, u->nr, sizeof(*u->v), range_cmp);
	return 0;
}

Dwarf_Die *dwarf_units__next(struct dwarf_units *u, Dwarf_Addr addr, size_t *pos)
{
	size_t i = *pos;

	if (i == DWARF_UNITS_START) {
		size_t lo = 0, hi = u->nr;

		/* past the last range starting at or below addr */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (u->v[mid].lo <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		i = lo;
	}
	while (i-- > 0) {
		if (addr < u->v[i].hi) {
			*pos = i;
			return &u->v[i].die;
		}
	}
	*pos = 0;
	return NULL;
}

void dwarf_units__exit(struct dwarf_units *u)
{
	free(u->v);
	u->v = NULL;
	u->nr = 0;
	u->read = false;
}
