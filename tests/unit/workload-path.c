// SPDX-License-Identifier: GPL-2.0-only
/* Where the unit tests find the workloads built beside them. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "test.h"

const char *unit_workload_path(const char *name, char *buf, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	if (snprintf(buf, size, "%s/workloads/%s", exe, name) >= (int)size)
		return NULL;
	return access(buf, R_OK) ? NULL : buf;
}
