/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf stat's topology aggregation (--per-socket, --per-die, --per-core,
 * --per-node): which slot each counted cpu folds into, each slot's id
 * (socket, die, core, node), how many cpus it holds, and its label
 * ("S0", "S0-D0", "S0-D0-C1", "N0").
 */
#ifndef EMBER_STAT_AGGR_H
#define EMBER_STAT_AGGR_H

#include <ember/event.h>
#include "stat/stat-config.h"

struct stat_aggr_id {
	int socket, die, core, node;
};

struct stat_aggr_map {
	int nr;				/* slots */
	struct stat_aggr_id *ids;	/* [slot], sorted as perf sorts them */
	int *nr_cpus;			/* [slot]: perf's "aggregate-number" */
	int *cpu_slot;			/* [index in the cpu map]: its slot */
	int nr_map_cpus;
};

/*
 * Group the cpus of `cpus` for a topology mode, reading sysfs under
 * sysfs_root (NULL: /sys). Returns 0 or -errno; free with __exit (also
 * safe on a zeroed map).
 */
int stat_aggr_map__build(struct stat_aggr_map *m, enum stat_aggr_mode mode,
			 const struct ember_cpu_map *cpus, const char *sysfs_root);
void stat_aggr_map__exit(struct stat_aggr_map *m);

/* The slot's label as perf prints it: "S0", "S0-D0", "S0-D0-C1", "N0". */
void stat_aggr__label(enum stat_aggr_mode mode, const struct stat_aggr_id *id, char *buf,
		      size_t size);

#endif
