// SPDX-License-Identifier: GPL-2.0-only
/* ember collapse: placeholder until the command lands (see the open issues). */
#include <stdio.h>
#include "builtin.h"

int cmd_collapse(int argc, const char **argv)
{
	fprintf(stderr, "ember collapse: not available in this build yet\n");
	return 1;
}
