// SPDX-License-Identifier: GPL-2.0-only
/* forker N: forks N children that each exit at once; the parent reaps them. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;

	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid < 0)
			return 1;
		waitpid(pid, NULL, 0);
	}
	return 0;
}
