// SPDX-License-Identifier: GPL-2.0-only
/*
 * probelines N: a target for ember probe's places from DWARF. probe_twice()
 * is inlined into both of its callers (two copies, none out of line),
 * probe_first() and probe_second() have lines of their own before and
 * after the copy, probe_loop() calls one or the other N times: odd rounds
 * probe_first(i), even ones probe_second(i). The sink keeps every line.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

static inline __attribute__((always_inline)) long probe_twice(long v)
{
	sink += v;
	return v * 2;
}

__attribute__((noinline)) long probe_first(long v)
{
	long r = probe_twice(v);

	sink += r;
	return r + 1;
}

__attribute__((noinline)) long probe_second(long v)
{
	long r = probe_twice(v + 1);

	sink -= r;
	return r - 1;
}

__attribute__((noinline)) long probe_loop(int n)
{
	long total = 0;

	for (int i = 0; i < n; i++) {
		if (i % 2)
			total += probe_first(i);
		else
			total += probe_second(i);
	}
	return total;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;

	printf("%ld\n", probe_loop(n));
	return 0;
}
