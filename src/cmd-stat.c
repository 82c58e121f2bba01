// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember stat: run a command (or watch processes or cpus) and print counter
 * totals in perf stat 6.1's layouts. This file composes the stages in
 * src/stat/: options → events → target → run (open, count, read) → print.
 */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/event.h>
#include "builtin.h"
#include "stat/cgroup.h"
#include "stat/events.h"
#include "stat/options.h"
#include "stat/print.h"
#include "stat/run.h"
#include "stat/target.h"
#include "stat/wait.h"

/* As perf stat: a ^C that ended counting without a command is also ember's end. */
static void die_of(int signo)
{
	fflush(NULL);
	signal(signo, SIG_DFL);
	raise(signo);
}

/* --control: its fds or fifos for the run. Returns 0 or an exit code (message printed). */
static int open_control(struct stat_control *ctl, const char *spec)
{
	int err = stat_control__parse(ctl, spec);

	if (err == -EINVAL)
		return stat_options__usage_error("--control takes fd:CTL-FD[,ACK-FD] or "
						 "fifo:CTL-FIFO[,ACK-FIFO]");
	if (err) {
		fprintf(stderr, "ember stat: --control %s: %s\n", spec, strerror(-err));
		return 1;
	}
	return 0;
}

/* Count and print, once the events are set up. Returns the exit code. */
static int count(struct stat_opts *o, struct ember_evlist *evlist, int argc, const char **argv,
		 int *stop_signal)
{
	struct stat_config *c = &o->config;
	struct stat_control control;
	struct stat_target target;
	struct stat_run run = {
		.config = c, .evlist = evlist, .target = &target, .argc = argc, .argv = argv,
	};
	bool close_out = false;
	int ret;

	stat_control__init(&control);
	if (stat_target__init(&target, c, argc, argv)) {
		ret = c->cpu_list ? 2 : 1;
		goto out;
	}
	if (o->control_spec) {
		ret = open_control(&control, o->control_spec);
		if (ret)
			goto out;
		run.control = &control;
	}
	ret = stat_print__open_output(c, &close_out);
	if (ret)
		goto out;
	stat_display__init(&run.display, c);
	ret = stat_run__all(&run);
	ret = stat_print__close_output(c, &run.display, close_out, ret);
	*stop_signal = run.stop_signal;
out:
	stat_control__exit(&control);
	stat_target__exit(&target);
	return ret;
}

int cmd_stat(int argc, const char **argv)
{
	struct stat_cgroups cgroups = { 0 };
	struct ember_evlist *evlist = NULL;
	struct stat_opts o;
	int ret, stop_signal = 0;

	ret = stat_options__parse(&o, &argc, argv);
	if (ret >= 0)
		goto out;
	/* perf groups digits by the locale (--big-num); CSV and JSON stay in the C locale. */
	if (o.config.big_num && o.config.output_mode == STAT_OUTPUT_STD)
		setlocale(LC_NUMERIC, "");
	evlist = ember_evlist__new();
	if (!evlist) {
		ret = 1;
		goto out;
	}
	ret = stat_events__setup(evlist, &o, &cgroups);
	if (!ret)
		ret = count(&o, evlist, argc, argv, &stop_signal);
	stat_evsel__exit_all(evlist);
	ember_evlist__delete(evlist);
out:
	stat_options__exit(&o);
	stat_cgroups__exit(&cgroups);
	if (stop_signal && !ret)
		die_of(stop_signal);
	return ret;
}
