// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include "util/sysctl.h"

unsigned int sysctl__kernel_uint(const char *name, unsigned int dflt)
{
	char path[128];
	unsigned int v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	f = fopen(path, "re");
	if (!f)
		return dflt;
	if (fscanf(f, "%u", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}
