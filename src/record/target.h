/* SPDX-License-Identifier: GPL-2.0-only */
/* What ember record watches: a command, processes, threads or cpus; their maps. */
#ifndef EMBER_RECORD_TARGET_H
#define EMBER_RECORD_TARGET_H

#include <stdbool.h>
#include <ember/event.h>
#include <ember/workload.h>

/* Which tasks and cpus, as the command line says. */
struct record_target_opts {
	const char *pid, *tid, *cpu_list;
	bool system_wide;
	bool per_thread;		/* --per-thread: one buffer per thread, not per cpu */
	bool no_inherit;
	const char *uid;		/* -u: the user whose processes to record */
};

/* What is recorded: the command ember runs, if any, and the maps the events open on. */
struct record_target {
	int argc;			/* the command to run, when there is one */
	const char **argv;
	char *uid_pids;			/* -u as a -p list; owned */
	struct ember_cpu_map *cpus;
	struct ember_thread_map *threads;
	bool forks;			/* runs a command */
	bool target_none;		/* ... and records only it (no -p/-t/-a/-C) */

	struct ember_workload wl;
	bool wl_prepared, wl_started, wl_exited;
	int wl_exec_err;		/* the command's exec failed with this errno */
	bool wl_tail_done;		/* --tail-synthesize: the command's COMM was written */
};


/*
 * Take the command (argc words from argv[0], maybe none) and derive
 * t->forks and t->target_none from it and the options; -u becomes a -p
 * list of the user's processes (o->pid). Returns 0 or an exit code
 * (message printed).
 */
int record_target__init(struct record_target *t, struct record_target_opts *o, int argc,
			const char **argv);

/*
 * Fork the command, held before its exec (t->wl), when there is one.
 * Returns 0 or an exit code (message printed).
 */
int record_target__prepare_workload(struct record_target *t);

/*
 * Build t->cpus and t->threads as perf does: every online cpu (or -C's)
 * per-cpu buffers on the command's pid, on -p/-t's threads, or on every
 * thread for -a/-C; and set them on evlist. Returns 0 or an exit code
 * (message printed).
 */
int record_target__maps(struct record_target *t, struct record_target_opts *o,
			struct ember_evlist *evlist);

/* Free the maps and the -u list. */
void record_target__exit(struct record_target *t);

#endif
