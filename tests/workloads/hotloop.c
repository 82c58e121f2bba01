// SPDX-License-Identifier: GPL-2.0-only
/*
 * hotloop MS: spins for about MS milliseconds, with two hot functions
 * (hot_a twice as much work as hot_b), for profiles with a known answer.
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void hot_b(void)
{
	for (int i = 0; i < 100000; i++)
		sink += i;
}

__attribute__((noinline)) static void hot_a(void)
{
	for (int i = 0; i < 200000; i++)
		sink += i * 3;
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
		hot_a();
		hot_b();
	}
	return 0;
}
