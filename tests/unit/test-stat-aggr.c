// SPDX-License-Identifier: GPL-2.0-only
/* Topology aggregation: sysfs reading, slot grouping and labels, on a sysfs tree made here. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ember/event.h>
#include "test.h"
#include "stat/target.h"
#include "stat/counts.h"

static void put_file(const char *root, int cpu, const char *name, int val)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", root, cpu, name);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%d\n", val);
		fclose(f);
	}
}

/* cpu: socket, die, core, node. */
static void make_cpu(const char *root, int cpu, int socket, int die, int core, int node)
{
	char path[512];

	snprintf(path, sizeof(path), "mkdir -p %s/devices/system/cpu/cpu%d/topology "
		 "%s/devices/system/cpu/cpu%d/node%d", root, cpu, root, cpu, node);
	if (system(path))
		return;
	put_file(root, cpu, "physical_package_id", socket);
	put_file(root, cpu, "die_id", die);
	put_file(root, cpu, "core_id", core);
}

TEST(stat_aggr_topology)
{
	char root[] = "/tmp/ember-topo-XXXXXX", cmd[600];
	struct ember_cpu_topo topo;
	struct stat_aggr_map m;
	struct ember_cpu_map *cpus;
	int list[] = { 0, 1, 2, 3, 4, 5 };
	char label[32];

	if (!mkdtemp(root)) {
		CHECK(0);
		return;
	}
	/* Two sockets, SMT pairs: cpus 0,1 core 0; 2,3 core 1 of socket 0; 4,5 core 0 of socket 1. */
	make_cpu(root, 0, 0, 0, 0, 0);
	make_cpu(root, 1, 0, 0, 0, 0);
	make_cpu(root, 2, 0, 0, 1, 0);
	make_cpu(root, 3, 0, 0, 1, 0);
	make_cpu(root, 4, 1, 0, 0, 1);
	make_cpu(root, 5, 1, 0, 0, 1);

	CHECK_EQ(ember_cpu_topo__read(root, 4, &topo), 0);
	CHECK_EQ(topo.socket, 1);
	CHECK_EQ(topo.core, 0);
	CHECK_EQ(topo.node, 1);
	CHECK(ember_cpu_topo__read(root, 9, &topo) < 0);

	cpus = ember_cpu_map__from_array(list, 6);
	CHECK(cpus != NULL);
	if (!cpus)
		goto out;
	CHECK_EQ(stat_aggr_map__build(&m, STAT_AGGR_CORE, cpus, root), 0);
	CHECK_EQ(m.nr, 3);
	CHECK_EQ(m.cpu_slot[0], 0);
	CHECK_EQ(m.cpu_slot[3], 1);
	CHECK_EQ(m.cpu_slot[5], 2);
	CHECK_EQ(m.nr_cpus[2], 2);
	stat_aggr__label(STAT_AGGR_CORE, &m.ids[1], label, sizeof(label));
	CHECK_STR(label, "S0-D0-C1");
	stat_aggr__label(STAT_AGGR_CORE, &m.ids[2], label, sizeof(label));
	CHECK_STR(label, "S1-D0-C0");
	stat_aggr_map__exit(&m);

	CHECK_EQ(stat_aggr_map__build(&m, STAT_AGGR_SOCKET, cpus, root), 0);
	CHECK_EQ(m.nr, 2);
	CHECK_EQ(m.nr_cpus[0], 4);
	stat_aggr__label(STAT_AGGR_SOCKET, &m.ids[1], label, sizeof(label));
	CHECK_STR(label, "S1");

	/* The counter folds cpus into their socket's slot. */
	{
		struct stat_counter *c = stat_counter__new_grouped(m.nr, m.cpu_slot, 6, 1);

		CHECK(c != NULL);
		if (c) {
			for (int i = 0; i < 6; i++)
				c->raw[i] = (struct ember_counts){ .val = 1u << i, .ena = 10, .run = 10 };
			stat_counter__aggregate(c, STAT_AGGR_SOCKET, false, true);
			CHECK_EQ(c->slots[0].counts.val, 15);
			CHECK_EQ(c->slots[1].counts.val, 48);
			stat_counter__delete(c);
		}
	}
	stat_aggr_map__exit(&m);

	CHECK_EQ(stat_aggr_map__build(&m, STAT_AGGR_NODE, cpus, root), 0);
	CHECK_EQ(m.nr, 2);
	stat_aggr__label(STAT_AGGR_NODE, &m.ids[1], label, sizeof(label));
	CHECK_STR(label, "N1");
	stat_aggr_map__exit(&m);
	ember_cpu_map__put(cpus);
out:
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK_EQ(system(cmd), 0);
}
