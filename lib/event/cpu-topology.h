/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where a cpu sits: its socket (physical package), die, core and NUMA
 * node, as the kernel tells in /sys/devices/system/cpu/cpuN/topology and
 * /sys/devices/system/node. What perf stat --per-socket, --per-die,
 * --per-core and --per-node aggregate by.
 */
#ifndef EMBER_LIB_CPU_TOPOLOGY_H
#define EMBER_LIB_CPU_TOPOLOGY_H

struct ember_cpu_topo {
	int socket;	/* physical_package_id */
	int die;	/* die_id; 0 where the kernel has none */
	int core;	/* core_id */
	int node;	/* the NUMA node holding the cpu; 0 on a kernel without NUMA */
};

/*
 * Read cpu's topology under sysfs_root (NULL: "/sys"; tests pass a
 * directory of their own). Returns 0, or -errno when the cpu has no
 * topology directory (an offline or absent cpu): -ENOENT.
 */
int ember_cpu_topo__read(const char *sysfs_root, int cpu, struct ember_cpu_topo *topo);

#endif
