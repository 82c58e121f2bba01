/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What ember stat counts on (a command, processes, threads or cpus)
 * and how the cpus group by topology for --per-socket and the like.
 */
#ifndef EMBER_STAT_TARGET_H
#define EMBER_STAT_TARGET_H

#include <stdbool.h>
#include <sys/types.h>
#include <ember/event.h>
#include "stat/options.h"

/*
 * perf stat's topology aggregation (--per-socket, --per-die, --per-core,
 * --per-node): which slot each counted cpu folds into, each slot's id
 * (socket, die, core, node), how many cpus it holds, and its label
 * ("S0", "S0-D0", "S0-D0-C1", "N0").
 */

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

/*
 * What ember stat counts on: a command it starts, processes or threads
 * (-p, -t), or cpus (-a, -C). Holds the cpu and thread maps, the threads'
 * names for --per-thread, and the header's description.
 */

struct stat_target {
	struct ember_cpu_map *cpus;
	struct ember_thread_map *threads;
	bool cpu_wide;		/* -a or -C: counting on cpus, whoever runs */
	bool has_task;		/* -p or -t */
	bool all_threads;	/* -a --per-thread: every thread of the system */
	char **comms;		/* per thread (--per-thread), owned */
	int nr_comms;
	char *what;		/* "'system wide'", "process id '42'", "'sleep 1'"; owned */
	struct stat_aggr_map aggr;	/* --per-socket/-die/-core/-node: the cpus' slots */
};

/*
 * Build the maps for the options; argv is the command (argc may be 0).
 * Prints one line and returns -errno on a bad cpu list or a pid that is
 * gone (-ESRCH). The thread map of a command comes later, from
 * stat_target__set_workload().
 */
int stat_target__init(struct stat_target *t, const struct stat_config *config, int argc,
		      const char **argv);
/* Count the started command (pid): its thread map replaces the previous. 0 or -errno. */
int stat_target__set_workload(struct stat_target *t, pid_t pid);
/* The name of the thread at idx (for --per-thread lines), "" when unknown. */
const char *stat_target__comm(const struct stat_target *t, int idx);
void stat_target__exit(struct stat_target *t);

#endif
