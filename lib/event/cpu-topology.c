// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Reading a cpu's socket, die, core and NUMA node from sysfs. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/event.h>

/* One integer from a sysfs file: 0 or -errno. */
static int read_int(const char *path, int *val)
{
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f)
		return -errno;
	if (fscanf(f, "%d", val) != 1)
		err = -EINVAL;
	fclose(f);
	return err;
}

static int topo_int(const char *root, int cpu, const char *name, int *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", root, cpu, name);
	return read_int(path, val);
}

/*
 * The cpu's node: the kernel links cpuN/nodeM when NUMA is configured.
 * No link at all means one memory node, node 0.
 */
static int node_of(const char *root, int cpu)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;
	int node = 0;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d", root, cpu);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		char *end;
		long n;

		if (strncmp(de->d_name, "node", 4))
			continue;
		n = strtol(de->d_name + 4, &end, 10);
		if (end != de->d_name + 4 && !*end && n >= 0 && n < INT_MAX) {
			node = (int)n;
			break;
		}
	}
	closedir(dir);
	return node;
}

int ember_cpu_topo__read(const char *sysfs_root, int cpu, struct ember_cpu_topo *topo)
{
	const char *root = sysfs_root ? sysfs_root : "/sys";
	int err;

	memset(topo, 0, sizeof(*topo));
	err = topo_int(root, cpu, "physical_package_id", &topo->socket);
	if (err)
		return err;
	err = topo_int(root, cpu, "core_id", &topo->core);
	if (err)
		return err;
	/* die_id came with Linux 5.2; before it every socket is one die. */
	if (topo_int(root, cpu, "die_id", &topo->die))
		topo->die = 0;
	topo->node = node_of(root, cpu);
	return 0;
}
