// SPDX-License-Identifier: GPL-2.0-only
/* ember heatmap: placeholder until the command lands (see the open issues). */
#include <stdio.h>
#include "builtin.h"

int cmd_heatmap(int argc, const char **argv)
{
	fprintf(stderr, "ember heatmap: not available in this build yet\n");
	return 1;
}
