// SPDX-License-Identifier: GPL-2.0-only
/*
 * mixwork MS: spins for about MS milliseconds in a few functions of
 * different shapes (an integer loop, floating point, an array walk, a
 * switch), for annotate's per-instruction comparisons with perf.
 * Built with -DMIXWORK_LIB -shared -fPIC it is a library whose lib_work()
 * does the same; built with -DMIXWORK_USE_LIB the program calls it too.
 */
#include <stdlib.h>
#include <time.h>

/* the library's own copies, not the program's (which a library call would reach otherwise) */
#ifdef MIXWORK_LIB
#define WORK static
#else
#define WORK
#endif

static volatile unsigned long sink;
static double dsink;
static int table[4096];

__attribute__((noinline)) WORK unsigned long int_work(unsigned long n)
{
	unsigned long x = 1;

	for (unsigned long i = 0; i < n; i++)
		x = x * 2654435761u + (i >> 3);
	return x;
}

__attribute__((noinline)) WORK double float_work(int n)
{
	double d = 0;

	for (int i = 1; i < n; i++)
		d += 1.0 / (double)i * (i & 1 ? 1 : -1);
	return d;
}

__attribute__((noinline)) WORK int array_work(int rounds)
{
	int s = 0;

	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < 4096; i++)
			s += table[(i * 7 + r) & 4095]++;
	return s;
}

__attribute__((noinline)) WORK int switch_work(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++) {
		switch (i % 5) {
		case 0: s += i; break;
		case 1: s ^= i; break;
		case 2: s -= i >> 1; break;
		case 3: s *= 3; break;
		default: s |= 1; break;
		}
	}
	return s;
}

#ifdef MIXWORK_LIB
unsigned long lib_work(int n)
{
	return int_work((unsigned long)n) + (unsigned long)switch_work(n);
}
#else
#ifdef MIXWORK_USE_LIB
unsigned long lib_work(int n);
#endif

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
		sink += int_work(20000);
		dsink += float_work(20000);
		sink += (unsigned long)array_work(4);
		sink += (unsigned long)switch_work(20000);
#ifdef MIXWORK_USE_LIB
		sink += lib_work(20000);
#endif
	}
	return 0;
}
#endif
