// SPDX-License-Identifier: GPL-2.0-only
/* exitcode N: exits with status N (for exit-status pass-through tests). */
#include <stdlib.h>

int main(int argc, char **argv)
{
	return argc > 1 ? atoi(argv[1]) : 0;
}
