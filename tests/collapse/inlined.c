// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload for ember collapse --inline: leaf() is inlined into mid(),
 * mid() into outer(), so one address has a three-level inline chain.
 * Built by tests/e2e/collapse-inline.sh with -O2 -g.
 */
#include <stdlib.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) void leaf(unsigned long i)
{
	sink += i * 7;
}

static inline __attribute__((always_inline)) void mid(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		leaf(i);
}

__attribute__((noinline)) void outer(unsigned long n)
{
	mid(n);
	sink ^= n;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 200;

	for (unsigned long r = 0; r < rounds; r++)
		outer(1000000);
	return 0;
}
