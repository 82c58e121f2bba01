// SPDX-License-Identifier: GPL-2.0-only
/*
 * syscallchain N [--loop]: N writes of one byte to stdout, each made
 * through a known call chain, main -> outer -> inner -> write (libc);
 * --loop: again every 50 ms until killed. tests/e2e/trace-dwarf.sh builds
 * it without frame pointers (-O2 -fomit-frame-pointer): only CFI unwinds
 * its stacks.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) static void inner(void)
{
	if (write(1, "x", 1) != 1)
		sink++;
	sink++;		/* not a tail call: inner's frame stays */
}

__attribute__((noinline)) static void outer(int n)
{
	for (int i = 0; i < n; i++)
		inner();
	sink++;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	bool loop = argc > 2 && !strcmp(argv[2], "--loop");

	do {
		outer(n);
		if (loop)
			usleep(50000);
	} while (loop);
	return 0;
}
