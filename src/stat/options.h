/* SPDX-License-Identifier: GPL-2.0-only */
/* ember stat's command line: the options every stage reads, and their parsing and checks. */
#ifndef EMBER_STAT_OPTIONS_H
#define EMBER_STAT_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>
#include "stat/cgroup.h"

/* How counts from several cpus and threads are combined into printed lines. */
enum stat_aggr_mode {
	STAT_AGGR_GLOBAL,	/* one line per event (the default) */
	STAT_AGGR_NONE,		/* -A/--no-aggr/--per-cpu: one line per event and cpu */
	STAT_AGGR_THREAD,	/* --per-thread: one line per event and thread */
	STAT_AGGR_SOCKET,	/* --per-socket: one line per socket and event */
	STAT_AGGR_DIE,		/* --per-die */
	STAT_AGGR_CORE,		/* --per-core */
	STAT_AGGR_NODE,		/* --per-node: per NUMA node */
};

/* The modes whose slots are groups of cpus by topology (target.h). */
static inline bool stat_aggr__is_topology(enum stat_aggr_mode mode)
{
	return mode == STAT_AGGR_SOCKET || mode == STAT_AGGR_DIE || mode == STAT_AGGR_CORE ||
	       mode == STAT_AGGR_NODE;
}

enum stat_output_mode {
	STAT_OUTPUT_STD,	/* perf's aligned columns */
	STAT_OUTPUT_CSV,	/* -x SEP */
	STAT_OUTPUT_JSON,	/* -j/--json: one JSON object per line */
};

struct stat_config {
	/* What to count. */
	const char **event_specs;	/* each -e argument, in order; owned array */
	int nr_event_specs;
	int detailed;			/* -d, -dd, -ddd */
	bool null_run;			/* -n: no counters, only elapsed time */

	/* Where. */
	const char *pid;		/* -p PID[,PID] */
	const char *tid;		/* -t TID[,TID] */
	const char *cpu_list;		/* -C */
	bool system_wide;		/* -a */
	bool no_inherit;		/* -i: children are not counted */

	/* How long. */
	int run_count;			/* -r N */
	unsigned int interval_ms;	/* -I */
	unsigned int interval_count;	/* --interval-count */
	unsigned int timeout_ms;	/* --timeout */
	int delay_ms;			/* -D: counting starts this late */
	bool sync;			/* -S: sync() before each run */
	const char *pre_cmd;		/* --pre: run by the shell before each run */
	const char *post_cmd;		/* --post: ... and after it */

	/* How it is printed. */
	enum stat_aggr_mode aggr_mode;
	enum stat_output_mode output_mode;
	const char *csv_sep;		/* " " for the std layout */
	bool big_num;			/* locale thousands grouping (-B, default on) */
	bool metric_only;		/* --metric-only */
	bool summary;			/* --summary: the totals after -I's intervals */
	bool no_csv_summary;		/* --no-csv-summary: without the "summary" column */
	bool table;			/* --table: each run's elapsed time, with -r */
	bool interval_clear;		/* --interval-clear */
	bool cgroups;			/* some events count in a cgroup: a cgroup column */
	bool scale;			/* scale multiplexed counts by ena/run (-c, default on) */
	int unit_width;			/* width of the unit column, at least 4 */
	int verbose;
	bool quiet;			/* -q: nothing but errors */
	const char *output_name;	/* -o FILE */
	bool append;			/* --append */
	int log_fd;			/* --log-fd, -1 when unset */

	FILE *out;			/* where counts go: stderr, -o FILE or --log-fd */
};

/* The command line: the options every stage reads, and those that only set them up. */
struct stat_opts {
	struct stat_config config;
	const char *metrics;		/* -M: ember has no metrics */
	bool topdown, transaction, smi_cost;
	const char *iostat;		/* --iostat[=list|PORTS]: refused, no IIO PMUs */
	bool per_core, per_socket, per_die, per_node;
	bool no_aggr, per_thread, json, group, all_user, all_kernel;
	bool big_num_given;
	struct stat_cgroup_opt *filters;	/* each --filter and the -e it follows */
	int nr_filters;
	const char *cputype;
	int td_level;
	bool ignored;				/* options without effect on this machine */
	struct stat_cgroup_opt *cgroup_opts;	/* each -G, in order */
	int nr_cgroup_opts;
	const char *for_each_cgroup;
	const char *control_spec;	/* --control */
};

/*
 * Parse ember stat's command line into *o (zeroed or not: set here) and
 * check the combinations, deriving the aggregation and output modes.
 * *argc becomes the number of words of the command to run, which start
 * at argv[0]. Returns -1 to go on, or the exit code (0 after --help, 2 on
 * a usage error, 1 for what this machine cannot do; the message printed).
 * Free with stat_options__exit().
 */
int stat_options__parse(struct stat_opts *o, int *argc, const char **argv);
void stat_options__exit(struct stat_opts *o);

/* Say "ember stat: MSG (see 'ember stat --help')" on stderr. Returns 2, the usage error's code. */
int stat_options__usage_error(const char *msg);

#endif
