// SPDX-License-Identifier: GPL-2.0-only
/*
 * dwarfpaths MS: known call paths for --call-graph dwarf unwinding, for
 * about MS milliseconds. tests/e2e/dwarf-unwind.sh builds it without frame
 * pointers (-O2 -fomit-frame-pointer), so only CFI unwinds it:
 *   main -> outer -> middle -> inner          (the workload's own frames)
 *   main -> sort_round -> qsort (libc) -> by_value   (libc in the chain)
 * inner and by_value are where the time goes.
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;
static int values[4096];

__attribute__((noinline)) static void inner(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i * 7;
}

__attribute__((noinline)) static void middle(int n)
{
	inner(n);
	sink++;
}

__attribute__((noinline)) static void outer(int n)
{
	middle(n);
	sink++;
}

__attribute__((noinline)) static int by_value(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	for (int i = 0; i < 20; i++)
		sink += (unsigned long)i;
	return (x > y) - (x < y);
}

__attribute__((noinline)) static void sort_round(void)
{
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		values[i] = (int)((i * 2654435761u) % 10007);
	qsort(values, sizeof(values) / sizeof(values[0]), sizeof(values[0]), by_value);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 500, start = now_ms();

	while (now_ms() - start < ms) {
		outer(200000);
		sort_round();
	}
	return 0;
}
