// SPDX-License-Identifier: GPL-2.0-only
/* sleeper N MS: sleeps N times for MS milliseconds: at least N context switches. */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	long ms = argc > 2 ? atol(argv[2]) : 1;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	for (int i = 0; i < n; i++)
		nanosleep(&ts, NULL);
	return 0;
}
