// SPDX-License-Identifier: GPL-2.0-only
/*
 * One measurement run, as perf stat does it: fork the command corked,
 * open the counters on it (enable_on_exec), let it exec, wait for it,
 * read. Intervals (-I), the -D delay, --timeout and signals are handled
 * in the wait loop; all runs, the final print and the exit code here too.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <ember/workload.h>
#include "core/clock.h"
#include "stat/counts.h"
#include "stat/events.h"
#include "stat/open.h"
#include "stat/print.h"
#include "stat/run.h"

#define NSEC_PER_MSEC 1000000ULL

/* One run's state. */
struct run_state {
	struct ember_workload wl;
	bool workload;		/* ember started a command */
	bool exited;		/* and it has been reaped */
	bool limit;		/* --timeout or --interval-count ended the run */
	bool killed;		/* so ember ended the command */
	uint64_t t0, t1;	/* counting started and stopped, CLOCK_MONOTONIC ns */
	uint64_t next_tick;	/* -I */
	uint64_t timeout_at;	/* --timeout */
	struct rusage ru0;	/* RUSAGE_CHILDREN before the command ran */
	double user_s, sys_s;
};

static double tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + tv->tv_usec / 1e6;
}

static bool is_cpu_or_task_target(const struct stat_run *r)
{
	return r->target->cpu_wide || r->target->has_task;
}

static FILE *out_of(const struct stat_run *r)
{
	return r->display.out;
}

static void tool_times(const struct run_state *rs, uint64_t now, struct stat_tool_times *t)
{
	t->duration_ns = now - rs->t0;
	t->user_ns = (uint64_t)(rs->user_s * 1e9);
	t->system_ns = (uint64_t)(rs->sys_s * 1e9);
}

/* An interval block ending now. */
static void print_interval(struct stat_run *r, const struct run_state *rs, uint64_t now)
{
	struct stat_tool_times tools;

	tool_times(rs, now, &tools);
	stat_print__interval(r, &tools, now - rs->t0);
}

/* "cannot run 'x': No such file or directory"; the exit code a shell would give. */
static int exec_failed(struct stat_run *r, struct run_state *rs, int err)
{
	fprintf(stderr, "ember stat: cannot run '%s': %s\n", r->argv[0], strerror(-err));
	ember_workload__wait(&rs->wl);
	rs->exited = true;
	r->exec_failed = true;
	return err == -ENOENT ? 127 : 126;
}

/* Ember ends the command when a limit was reached: SIGTERM, as perf does. */
static void stop_workload(struct run_state *rs)
{
	if (!rs->workload || rs->exited || !rs->limit)
		return;
	kill(rs->wl.pid, SIGTERM);
	rs->killed = true;
}

static void reap_workload(struct stat_run *r, struct run_state *rs)
{
	struct rusage ru;

	if (!rs->workload || rs->exited)
		return;
	while (ember_workload__wait(&rs->wl) == -EINTR)
		;
	rs->exited = true;
	if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
		rs->user_s = tv_seconds(&ru.ru_utime) - tv_seconds(&rs->ru0.ru_utime);
		rs->sys_s = tv_seconds(&ru.ru_stime) - tv_seconds(&rs->ru0.ru_stime);
	}
}

/* --control has commands: act on them; stop listening once its writer is gone for good. */
static void control(struct stat_run *r)
{
	if (!r->control || !stat_control__process(r->control, r->evlist, r->config->quiet))
		r->waiter.ctl_fd = -1;
}

/*
 * Sleep through the -D delay with the events disabled. Returns false when
 * the measurement ended during it (the command exited, a signal).
 */
static bool wait_delay(struct stat_run *r, struct run_state *rs)
{
	uint64_t until = clock_now_ns() + (uint64_t)r->config->delay_ms * NSEC_PER_MSEC;
	struct stat_signal sig;

	for (;;) {
		switch (stat_waiter__wait(&r->waiter, until, &sig)) {
		case STAT_WAKE_DEADLINE:
			ember_evlist__enable(r->evlist);
			if (!r->config->quiet)
				fprintf(stderr, "Events enabled\n");
			return true;
		case STAT_WAKE_SIGNAL:
			if (rs->workload && sig.from_process)
				kill(rs->wl.pid, sig.signo);
			r->stop = true;
			r->last_signal = sig.signo;
			if (rs->workload)
				continue;
			r->stop_signal = sig.signo;
			return false;
		case STAT_WAKE_CONTROL:
			control(r);
			continue;
		default:
			return false;
		}
	}
}

/* Wait for the end of the measurement, printing intervals on the way. */
static void wait_loop(struct stat_run *r, struct run_state *rs)
{
	const struct stat_config *c = r->config;
	uint64_t interval_ns = (uint64_t)c->interval_ms * NSEC_PER_MSEC;
	struct stat_signal sig;

	rs->next_tick = interval_ns ? rs->t0 + interval_ns : 0;
	rs->timeout_at = c->timeout_ms ? rs->t0 + (uint64_t)c->timeout_ms * NSEC_PER_MSEC : 0;

	for (;;) {
		uint64_t deadline = rs->next_tick, now;

		if (rs->timeout_at && (!deadline || rs->timeout_at < deadline))
			deadline = rs->timeout_at;
		switch (stat_waiter__wait(&r->waiter, deadline, &sig)) {
		case STAT_WAKE_DEADLINE:
			now = clock_now_ns();
			if (rs->next_tick && now >= rs->next_tick) {
				print_interval(r, rs, now);
				while (rs->next_tick <= now)
					rs->next_tick += interval_ns;
				if (c->interval_count &&
				    r->nr_intervals >= (int)c->interval_count) {
					r->stop = rs->limit = true;
					return;
				}
			}
			if (rs->timeout_at && now >= rs->timeout_at) {
				r->stop = rs->limit = true;
				return;
			}
			break;
		case STAT_WAKE_SIGNAL:
			r->stop = true;
			r->last_signal = sig.signo;
			/* The command decides when to end; ember reports when it does. */
			if (rs->workload) {
				if (sig.from_process)
					kill(rs->wl.pid, sig.signo);
				break;
			}
			r->stop_signal = sig.signo;
			return;
		case STAT_WAKE_CONTROL:
			control(r);
			break;
		default:
			return;
		}
	}
}

static int open_counters(struct stat_run *r, struct run_state *rs)
{
	const struct stat_config *c = r->config;
	struct stat_open_opts opts = {
		.enable_on_exec = rs->workload && !is_cpu_or_task_target(r) && c->delay_ms == 0,
		.inherit = !c->no_inherit,
		.scale = true,
	};

	ember_evlist__set_maps(r->evlist, r->target->cpus, r->target->threads);
	if (!ember_evlist__nr_entries(r->evlist))
		return 0;
	return stat_open__counters(r->evlist, &opts, c->verbose);
}

/* Start counting: enable, let the command exec, sit out the delay. 0, or an exit code. */
static int start(struct stat_run *r, struct run_state *rs)
{
	bool enable_now = !(rs->workload && !is_cpu_or_task_target(r)) && r->config->delay_ms == 0;
	int err;

	/* -D N: enabled after N ms; -D -1: never (perf leaves that to --control). */
	if (r->config->delay_ms && !r->config->quiet)
		fprintf(stderr, "Events disabled\n");
	if (enable_now)
		ember_evlist__enable(r->evlist);
	getrusage(RUSAGE_CHILDREN, &rs->ru0);
	rs->t0 = clock_now_ns();
	if (rs->workload) {
		err = ember_workload__start(&rs->wl);
		if (err)
			return exec_failed(r, rs, err);
	}
	if (r->config->delay_ms > 0) {
		if (!wait_delay(r, rs))
			return 0;
		rs->t0 = clock_now_ns();
	}
	return 0;
}

/* The run's exit code: the command's, 0 when ember stopped it or ran none. */
static int run_exit_code(const struct stat_run *r, const struct run_state *rs)
{
	int status = rs->wl.status;

	if (!rs->workload || rs->killed)
		return 0;
	/* -r 0 ends with ^C killing the last run: that is no news. */
	if (WIFSIGNALED(status) && !r->config->quiet && r->config->run_count != 0)
		fprintf(stderr, "%s: %s\n", r->argv[0], strsignal(WTERMSIG(status)));
	return ember_workload__exit_code(&rs->wl);
}

static int watch_targets(struct stat_run *r, struct run_state *rs)
{
	const struct stat_config *c = r->config;
	int err = 0;

	if (rs->workload)
		return stat_waiter__watch(&r->waiter, rs->wl.pid, false);
	/* -p alone: counting ends when every listed process has exited. */
	if (c->pid) {
		const char *p = c->pid;

		while (*p && !err) {
			char *end;
			long pid = strtol(p, &end, 10);

			if (end == p)
				break;
			err = stat_waiter__watch(&r->waiter, (pid_t)pid, false);
			p = *end == ',' ? end + 1 : end;
		}
	} else if (c->tid && r->target->threads) {
		int nr = ember_thread_map__nr(r->target->threads);

		for (int i = 0; i < nr && !err; i++)
			err = stat_waiter__watch(&r->waiter,
						 ember_thread_map__pid(r->target->threads, i), true);
	}
	return err;
}

/* --pre/--post: CMD run by the shell; its failure ends ember stat, as perf's does. */
static int run_hook(const char *opt, const char *cmd)
{
	int st;

	if (!cmd)
		return 0;
	st = system(cmd);
	if (st) {
		fprintf(stderr, "ember stat: --%s '%s' failed (status %d)\n", opt, cmd,
			WIFEXITED(st) ? WEXITSTATUS(st) : st);
		return -1;
	}
	return 0;
}

/* One run: returns its exit code, or -1 after a failure that was explained. */
static int run_once(struct stat_run *r, bool first)
{
	const struct stat_config *c = r->config;
	struct run_state rs = { .workload = r->argc > 0 };
	struct stat_tool_times tools;
	struct ember_evsel *pos;
	int err, code;

	if (c->sync)
		sync();
	/* As perf: --pre before each run, --post after it. */
	if (run_hook("pre", c->pre_cmd))
		return -1;
	if (rs.workload) {
		err = ember_workload__prepare(&rs.wl, r->argv);
		if (err) {
			fprintf(stderr, "ember stat: cannot start '%s': %s\n", r->argv[0],
				strerror(-err));
			return -1;
		}
		err = stat_target__set_workload(r->target, rs.wl.pid);
		if (err) {
			ember_workload__abort(&rs.wl);
			fprintf(stderr, "ember stat: %s\n", strerror(-err));
			return -1;
		}
	}
	if (first) {
		err = stat_evsel__setup_counters(r->evlist, c->aggr_mode,
						 ember_cpu_map__nr(r->target->cpus),
						 r->target->threads ?
						 ember_thread_map__nr(r->target->threads) : 1,
						 &r->target->aggr);
	} else {
		err = 0;
		ember_evlist__for_each(r->evlist, pos)
			stat_counter__reset_raw(stat_evsel(pos)->counter);
	}
	if (!err)
		err = open_counters(r, &rs);
	if (!err)
		err = watch_targets(r, &rs);
	if (err) {
		if (rs.workload)
			ember_workload__abort(&rs.wl);
		if (err == -ENOMEM)
			fprintf(stderr, "ember stat: out of memory\n");
		return -1;
	}

	code = start(r, &rs);
	if (code) {
		stat_graveyard__bury(&r->graveyard, r->evlist);
		stat_waiter__unwatch_all(&r->waiter);
		return code;
	}
	if (!rs.exited && !(r->stop && !rs.workload))
		wait_loop(r, &rs);
	rs.t1 = clock_now_ns();
	stop_workload(&rs);
	reap_workload(r, &rs);
	ember_evlist__disable(r->evlist);
	stat_waiter__unwatch_all(&r->waiter);

	r->user_s = rs.user_s;
	r->sys_s = rs.sys_s;
	if (c->interval_ms) {
		/* The last, partial interval; none after --interval-count's last one. */
		if (!c->interval_count || r->nr_intervals < (int)c->interval_count)
			print_interval(r, &rs, rs.t1);
		if (c->summary)
			stat_print__prepare_summary(r, (double)(rs.t1 - rs.t0));
	} else {
		tool_times(&rs, rs.t1, &tools);
		stat_counts__read(r->evlist, &tools);
		stat_counts__process(r->evlist, c, &r->metrics, false, out_of(r));
		stat_metrics__update_walltime(&r->metrics, (double)(rs.t1 - rs.t0));
	}
	stat_stats__update(&r->walltime, (double)(rs.t1 - rs.t0));
	if (c->table) {
		double *v = realloc(r->run_ns, (r->nr_run_ns + 1) * sizeof(*v));

		if (v) {
			v[r->nr_run_ns++] = (double)(rs.t1 - rs.t0);
			r->run_ns = v;
		}
	}
	stat_graveyard__bury(&r->graveyard, r->evlist);
	r->runs++;
	if (run_hook("post", c->post_cmd))
		return -1;
	return run_exit_code(r, &rs);
}

/* -r 0: after each run's counts, start the next one from zero. */
static void reset_for_next_run(struct stat_run *r)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(r->evlist, pos)
		stat_counter__reset_stats(stat_evsel(pos)->counter);
	stat_metrics__reset(&r->metrics);
	stat_stats__init(&r->walltime);
	r->nr_run_ns = 0;
	r->runs = 0;
}

int stat_run__all(struct stat_run *r)
{
	bool forever = r->config->run_count == 0;
	int code = 0, err;

	stat_metrics__init(&r->metrics);
	stat_stats__init(&r->walltime);
	err = stat_waiter__init(&r->waiter);
	if (err) {
		fprintf(stderr, "ember stat: cannot set up signal handling: %s\n", strerror(-err));
		return 1;
	}
	if (r->control)
		r->waiter.ctl_fd = r->control->ctl_fd;
	for (int i = 0; forever || i < r->config->run_count; i++) {
		if (r->config->verbose > 0 && r->config->run_count != 1)
			fprintf(out_of(r), "[ ember stat: executing run #%d ... ]\n", i + 1);
		code = run_once(r, i == 0);
		if (code < 0) {
			code = 1;
			goto out;
		}
		if (r->exec_failed)
			break;
		if (r->stop) {
			/* As perf: the run ^C cut short is not printed, and ^C is ember's end. */
			if (forever) {
				r->runs = 0;
				r->stop_signal = r->last_signal;
				code = 0;
			}
			break;
		}
		if (forever && r->runs) {
			stat_print__summary(r);
			reset_for_next_run(r);
		}
	}
	if (r->runs && (!r->config->interval_ms || r->config->summary))
		stat_print__summary(r);
out:
	free(r->run_ns);
	r->run_ns = NULL;
	stat_graveyard__release(&r->graveyard);
	stat_waiter__exit(&r->waiter);
	stat_metrics__exit(&r->metrics);
	return code;
}
