// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include "builtin.h"

int cmd_record(int argc, const char **argv)
{
	fprintf(stderr, "ember record: not built yet\n");
	return 1;
}
