/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running the measurement: per run, start the command corked, open the
 * counters, let it exec, wait (printing intervals with -I), read, and at
 * the end print the counts. Holds everything the stages share.
 */
#ifndef EMBER_STAT_RUN_H
#define EMBER_STAT_RUN_H

#include <stdbool.h>
#include <ember/event.h>
#include "stat/counts.h"
#include "stat/display.h"
#include "stat/metrics.h"
#include "stat/open.h"
#include "stat/options.h"
#include "stat/target.h"
#include "stat/wait.h"

struct stat_run {
	const struct stat_config *config;
	struct ember_evlist *evlist;
	struct stat_target *target;
	struct stat_display display;
	struct stat_metrics metrics;
	struct stat_waiter waiter;
	struct stat_control *control;	/* --control, or NULL; not owned */
	struct stat_graveyard graveyard;	/* tracepoint fds, closed in the background */
	int argc;
	const char **argv;		/* the command, NULL-terminated; argc == 0: none */

	/* Results. */
	struct stat_stats walltime;	/* ns, per run */
	double *run_ns;			/* --table: each run's elapsed time */
	int nr_run_ns;
	double user_s, sys_s;		/* the command's rusage, last run */
	int runs;			/* runs completed */
	int nr_intervals;		/* intervals printed */
	bool not_counted;		/* a supported event never ran */
	bool stop;			/* a signal or a limit ended the measurement */
	int stop_signal;		/* SIGINT/SIGTERM that ended a run without a command */
	int last_signal;		/* the last SIGINT/SIGTERM received, or 0 */
	bool exec_failed;		/* the command could not be started */
};

/*
 * Do every run (or the interval loop) and print the results. Returns the
 * exit code for ember: the command's, 0 for a measurement ended by a
 * signal or a limit, 127 when the command could not be started, 1 on a
 * counting failure (already explained on stderr). When a signal ended a
 * measurement without a command (-a, -p, -C until ^C), r->stop_signal says
 * which: perf then dies of it once the counts are out, and so does ember.
 */
int stat_run__all(struct stat_run *r);

#endif
