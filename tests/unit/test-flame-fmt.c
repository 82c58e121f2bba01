// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SVG's and folded files' number formatting (lib/flame/xml.c) prints
 * what printf prints: flame_fmt_fixed() as "%.<prec>f" (ties to even on
 * the exact binary value), flame_fmt_num() as "%.0f" or "%.15g",
 * flame_fmt_rgb() as "rgb(%d,%d,%d)", on values chosen to sit on and
 * near the rounding ties and on random bit patterns.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "flame/flame-priv.h"
#include "test.h"

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Mismatches of v against printf, at most a few of them reported. */
static int check_value(double v)
{
	char a[512], b[512];
	int bad = 0, na, nb;

	for (int prec = 0; prec <= 3; prec++) {
		na = flame_fmt_fixed(a, sizeof(a), v, prec);
		nb = snprintf(b, sizeof(b), "%.*f", prec, v);
		if (na != nb || strcmp(a, b)) {
			fprintf(stderr, "  %%.%df of %.17g: '%s', printf '%s'\n", prec, v, a, b);
			bad++;
		}
	}
	na = flame_fmt_num(a, sizeof(a), v);
	if (v == floor(v) && fabs(v) <= EMBER_FLAME_MAX_COUNT)
		nb = snprintf(b, sizeof(b), "%.0f", v);
	else
		nb = snprintf(b, sizeof(b), "%.15g", v);
	if (na != nb || strcmp(a, b)) {
		fprintf(stderr, "  number %.17g: '%s', printf '%s'\n", v, a, b);
		bad++;
	}
	return bad;
}

TEST(flame_fmt_like_printf)
{
	static const double edges[] = {
		0, -0.0, 0.5, 1.5, 2.5, 0.05, 0.15, 0.25, 0.125, 0.375, 0.0005, 0.0015,
		1234.5, 1234.25, 1234.125, 1234.0625, 1e-300, 5e-324, 1e15,
		1125899906842623.5, 1125899906842624.0, 9007199254740992.0, 1e300,
		-1.5, -0.04, INFINITY, -INFINITY, NAN,
	};
	uint64_t s = 0x9e3779b97f4a7c15ull;
	int bad = 0;

	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		bad += check_value(edges[i]);
	for (int i = 0; i < 60000 && bad < 10; i++) {
		uint64_t r = next(&s);
		double v;

		switch (i % 5) {
		case 0: /* decimal ties and their neighbours */
			v = (double)(r % 100000000) / 1000.0;
			break;
		case 1: /* exact binary halves and quarters */
			v = (double)(r % 10000000) / 8.0;
			break;
		case 2: /* any magnitude */
			v = ldexp((double)(r >> 11), -(int)(next(&s) % 80));
			break;
		case 3: /* any bits: NaNs, infinities, subnormals, huge */
			memcpy(&v, &r, sizeof(v));
			break;
		default: /* SVG coordinates */
			v = 10 + (double)(r % 1000000) * (1180.0 / 987654.0);
			break;
		}
		bad += check_value(v);
		bad += check_value(-v);
	}
	CHECK_EQ(bad, 0);
}

TEST(flame_fmt_rgb_like_printf)
{
	static const int values[] = { 0, 1, 9, 10, 99, 100, 255, 999, 1000, -1, -255 };
	char a[64], b[64];

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		for (size_t j = 0; j < sizeof(values) / sizeof(values[0]); j++) {
			int na = flame_fmt_rgb(a, sizeof(a), values[i], values[j], 7);
			int nb = snprintf(b, sizeof(b), "rgb(%d,%d,%d)", values[i], values[j], 7);

			CHECK_EQ(na, nb);
			CHECK_STR(a, b);
		}
	}
	/* Cut short as snprintf cuts. */
	CHECK_EQ(flame_fmt_rgb(a, 8, 255, 255, 255), 16);
	CHECK_STR(a, "rgb(255");
}
