// SPDX-License-Identifier: GPL-2.0-only
/*
 * failcalls N: N rmdir(2) of a path that does not exist (ENOENT) and N
 * close(-1) (EBADF), for the error counts of syscall summaries: the
 * dynamic loader makes neither call.
 */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;

	for (long i = 0; i < n; i++) {
		if (rmdir("/nonexistent/ember-failcalls") == 0)
			return 1;
		if (close(-1) == 0)
			return 1;
	}
	return 0;
}
