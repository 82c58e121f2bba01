// SPDX-License-Identifier: GPL-2.0-only
/*
 * countloop ROUNDS: hotloop's two hot functions (hot_a twice the work of
 * hot_b), ROUNDS times, with no library call while it runs. A profile of
 * it holds no sample in libc but the callers of main: perf 6.1 stops
 * asking addr2line about a library after 123 failed questions in a row
 * from the start (its A2L_FAIL_LIMIT), so whether a libc sample gets a
 * source line from perf would depend on how soon it came. It ends with
 * _exit() for the same reason: exit()'s handlers run in libc
 * (__unregister_atfork, say), where a sample got "sym+0" from perf once its
 * limit was reached and a source line from ember.
 */
#include <stdlib.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 1000;

	for (long r = 0; r < rounds; r++) {
		hot_a();
		hot_b();
	}
	_exit(0);
}
