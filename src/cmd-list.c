// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include "builtin.h"

int cmd_list(int argc, const char **argv)
{
	fprintf(stderr, "ember list: not built yet\n");
	return 1;
}
