/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Counts as Perl keeps them in `$collapsed{$stack} += $period`: an exact
 * unsigned 64-bit integer while the sum fits, a double after that,
 * printed as Perl prints numbers ("%.15g", "Inf").
 */
#ifndef EMBER_LIB_COLLAPSE_COUNT_H
#define EMBER_LIB_COLLAPSE_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pnum {
	uint64_t u;
	double d;
	bool is_double;
};

#define PNUM_TEXT_MAX 32

/* The number a string of decimal digits stands for (leading zeros allowed). */
void pnum_from_digits(struct pnum *n, const char *s, size_t len);
void pnum_add(struct pnum *acc, const struct pnum *x);
/* Writes the number as Perl prints it; returns the length. */
size_t pnum_format(const struct pnum *n, char buf[PNUM_TEXT_MAX]);

#endif
