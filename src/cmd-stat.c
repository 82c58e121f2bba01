// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include "builtin.h"

int cmd_stat(int argc, const char **argv)
{
	fprintf(stderr, "ember stat: not built yet\n");
	return 1;
}
