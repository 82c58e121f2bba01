// SPDX-License-Identifier: GPL-2.0-only
/* ember report: placeholder until the command lands (see the open issues). */
#include <stdio.h>
#include "builtin.h"

int cmd_report(int argc, const char **argv)
{
	fprintf(stderr, "ember report: not available in this build yet\n");
	return 1;
}
