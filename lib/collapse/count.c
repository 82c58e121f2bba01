// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collapse/count.h"

void pnum_from_digits(struct pnum *n, const char *s, size_t len)
{
	uint64_t u = 0;
	size_t z = 0;

	while (z < len && s[z] == '0')
		z++;
	for (size_t i = z; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (u > (UINT64_MAX - d) / 10)
			goto big;
		u = u * 10 + d;
	}
	*n = (struct pnum){ .u = u };
	return;
big:
	/* Beyond UV_MAX Perl converts the digits to a double (Inf past DBL_MAX). */
	if (len - z > 400) {
		*n = (struct pnum){ .d = INFINITY, .is_double = true };
	} else {
		char buf[512];

		memcpy(buf, s + z, len - z);
		buf[len - z] = '\0';
		*n = (struct pnum){ .d = strtod(buf, NULL), .is_double = true };
	}
}

void pnum_add(struct pnum *acc, const struct pnum *x)
{
	if (!acc->is_double && !x->is_double && acc->u <= UINT64_MAX - x->u) {
		acc->u += x->u;
		return;
	}
	acc->d = (acc->is_double ? acc->d : (double)acc->u) + (x->is_double ? x->d : (double)x->u);
	acc->is_double = true;
}

size_t pnum_format(const struct pnum *n, char buf[PNUM_TEXT_MAX])
{
	int len;

	if (!n->is_double) {
		/* every stack's count is written: digits by hand, not through printf */
		char tmp[20];
		uint64_t u = n->u;
		size_t i = sizeof(tmp);

		do {
			tmp[--i] = '0' + u % 10;
			u /= 10;
		} while (u);
		memcpy(buf, tmp + i, sizeof(tmp) - i);
		buf[sizeof(tmp) - i] = '\0';
		return sizeof(tmp) - i;
	}
	if (isinf(n->d))
		len = snprintf(buf, PNUM_TEXT_MAX, "Inf");
	else
		len = snprintf(buf, PNUM_TEXT_MAX, "%.15g", n->d);
	return len < 0 ? 0 : (size_t)len;
}
