// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember record: run a command (or watch processes, threads or cpus) and
 * write its samples to perf.data as perf record 6.1 does, for perf report,
 * perf script or ember's own readers. This file composes the stages in
 * src/record/:
 *
 *	options → events → output mode → signals → fork the command → maps →
 *	open + mmap → header → synthesized records → enable, exec the command →
 *	read loop → drain → lost samples → features and final header
 *
 * Unlike perf, nothing is read back after recording: the build-ids of
 * the executable maps are noted as their records pass (no ~/.debug cache),
 * so starting and finishing cost milliseconds.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/ember.h>
#include "core/clock.h"
#include "builtin.h"
#include "record/control.h"
#include "record/events.h"
#include "record/loop.h"
#include "record/open.h"
#include "record/options.h"
#include "record/output.h"
#include "record/overwrite.h"
#include "record/record.h"
#include "record/synth.h"
#include "record/target.h"
#include "record/warmup.h"

void record_err(const char *fmt, ...)
{
	va_list ap;

	fputs("ember record: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int print_all(enum ember_log_level level, void *ctx, const char *fmt, va_list ap)
{
	return vfprintf(stderr, fmt, ap);
}

/* -D: only the tracking dummy of a running target starts now (mmaps, tasks). */
static void enable_tracking(struct record *rec)
{
	struct ember_evsel *t = rec->tracking;
	const struct perf_event_attr *a = t ? ember_evsel__attr(t) : NULL;

	if (!a || a->type != PERF_TYPE_SOFTWARE || a->config != PERF_COUNT_SW_DUMMY)
		return;
	ember_evsel__enable(t);
}

/* The command did not start: one line, and a shell's status (127 not found, 126 not runnable). */
static int cannot_run(struct record *rec)
{
	record_err("cannot run '%s': %s", rec->target.argv[0], strerror(rec->target.wl_exec_err));
	ember_workload__wait(&rec->target.wl);
	rec->target.wl_exited = true;
	return rec->target.wl_exec_err == ENOENT ? 127 : 126;
}

/*
 * Finish the file's start, enable the events of a running target and let
 * the command exec. 0 or an exit code. Nothing waits after the enable or
 * the go: from then on the buffers fill (at -F max one page in under a
 * millisecond) and only the read loop empties them. So the synthesized
 * records are written out first, and the loop learns how the exec went
 * (record_loop__check_exec), as perf learns it from a failed child's SIGUSR1.
 */
static int start(struct record *rec)
{
	int err;

	if (rec->target.forks && record_synth__workload_comm(rec))
		return 1;
	if (record_synth__finished_init(rec) || record_output__sync(&rec->out))
		return 1;
	/* A command's events enable themselves at its exec (enable_on_exec); -D's wait. */
	if (!rec->target.target_none && !rec->opts.loop.delay_ms)
		ember_evlist__enable(rec->evlist);
	else if (!rec->target.target_none)
		enable_tracking(rec);
	if (!rec->opts.loop.delay_ms)
		record_warmup__begin(&rec->warmup, rec->evlist, rec->loop.mmap_bytes,
				     rec->opts.verbose, clock_now_ns());
	if (rec->target.forks) {
		rec->target.wl_started = true;
		err = ember_workload__go(&rec->target.wl);
		if (err) {
			rec->target.wl_exec_err = -err;
			return cannot_run(rec);
		}
	}
	if (rec->opts.loop.delay_ms) {
		/* perf's messages; with -1 the events wait for --control's "enable" */
		if (!rec->opts.quiet)
			fprintf(stderr, "Events disabled\n");
		if (rec->opts.loop.delay_ms > 0)
			rec->loop.enable_at_ns = clock_now_ns() +
					    (uint64_t)rec->opts.loop.delay_ms * 1000000ULL;
	}
	return 0;
}

/* The command outlives the recording (^C, -p target gone, write error): stop it as perf does. */
static void stop_workload(struct record *rec)
{
	if (!rec->target.forks || !rec->target.wl_prepared)
		return;
	if (!rec->target.wl_started) {
		ember_workload__abort(&rec->target.wl);
		return;
	}
	if (rec->target.wl_exited || record_loop__reap(rec))
		return;
	kill(rec->target.wl.pid, SIGTERM);
	ember_workload__wait(&rec->target.wl);
	rec->target.wl_exited = true;
}

static int exit_code(struct record *rec)
{
	if (rec->out.write_err) {
		record_output__report_error(&rec->out);
		return 1;
	}
	if (rec->target.forks)
		return ember_workload__exit_code(&rec->target.wl);
	return rec->loop.stop_signal ? 128 + rec->loop.stop_signal : 0;
}

/* Everything after the events are open. Returns an exit code. */
static int record_run(struct record *rec)
{
	int ret;

	ret = record_output__open(rec);
	/* --tail-synthesize (and --overwrite): the existing tasks are described at the end */
	if (!ret && !rec->opts.synth.tail_synthesize)
		ret = record_synth__start(rec);
	if (!ret)
		ret = start(rec);
	if (!ret)
		ret = record_loop__run(rec);
	if (ret != 127 && ret != 126) {
		record_loop__check_exec(rec, true);
		if (rec->target.wl_exec_err)
			ret = cannot_run(rec);
	}
	if (ret == 127 || ret == 126) {
		/* Leave a complete file, but no summary: the command never ran. */
		record_close(rec);
		record_output__close(rec, false);
		return ret;
	}
	if (!ret && !rec->opts.quiet)
		fprintf(stderr, "[ ember record: Woken up %llu times to write data ]\n",
			(unsigned long long)rec->out.stats.waking);
	if (rec->opts.synth.tail_synthesize && rec->target.target_none &&
	    !rec->target.wl_tail_done && rec->target.wl_started && !rec->target.wl_exited &&
	    !rec->out.write_err)
		record_synth__workload_tail(rec);
	stop_workload(rec);
	if (!rec->out.write_err) {
		record_loop__drain(rec);
		if (rec->opts.synth.tail_synthesize && !rec->out.write_err && !ret)
			ret = record_synth__start(rec);
		/* the flight recorder's contents: what the backward buffers hold at the end */
		if (rec->ow.nr && !rec->out.write_err)
			record_overwrite__snapshot(&rec->ow, &rec->out,
						   record_loop__time_offset(rec));
		record_loop__lost_samples(rec);
	}
	record_close(rec);
	/* After a failure the file is still finished (readable), without perf's summary. */
	if (record_output__close(rec, !ret) && !rec->out.write_err)
		ret = 1;
	if (!ret && rec->opts.verbose && (rec->out.stats.lost || rec->out.stats.lost_samples))
		record_err("the kernel dropped %llu samples: the ring buffers were full; "
			   "a larger -m or a lower -F keeps them",
			   (unsigned long long)(rec->out.stats.lost + rec->out.stats.lost_samples));
	if (ret && !rec->out.write_err)
		return ret;
	return exit_code(rec);
}

/*
 * Everything before the events open: the command's own line, the events
 * and their attrs, the target, the output mode, --control, signals, the
 * command forked and held, -r. Returns 0 or an exit code.
 */
static int prepare(struct record *rec, int argc, const char **argv)
{
	int ret;

	ret = record_target__init(&rec->target, &rec->opts.target, argc, argv);
	if (!ret)
		ret = record_output__init(rec);
	if (!ret)
		ret = record_events__setup(rec);
	if (!ret)
		ret = record_control__open(&rec->ctl, rec->opts.control);
	if (ret)
		return ret;
	ret = record_signals__init(&rec->sig,
				   rec->opts.output.switch_output || rec->opts.loop.overwrite);
	if (ret) {
		record_err("cannot set up signal handling: %s", strerror(-ret));
		return 1;
	}
	ret = record_target__prepare_workload(&rec->target);
	if (!ret && rec->opts.loop.realtime_prio) {
		struct sched_param param = { .sched_priority = rec->opts.loop.realtime_prio };

		if (sched_setscheduler(0, SCHED_FIFO, &param)) {
			record_err("Could not set realtime priority: %s", strerror(errno));
			ret = 1;
		}
	}
	return ret;
}

int cmd_record(int argc, const char **argv)
{
	struct record rec = {
		.sig = { .fd = -1 }, .out = { .out_fd = -1 },
		.ctl = { .fd = -1, .ack = -1, .pollfd = -1 },
	};
	struct ember_log old_log = { 0 };
	bool print_set = false;
	int ret;

	rec.out.orig_argc = argc;
	rec.out.orig_argv = calloc((size_t)argc + 1, sizeof(*rec.out.orig_argv));
	rec.evlist = ember_evlist__new();
	if (!rec.out.orig_argv || !rec.evlist) {
		record_err("out of memory");
		ret = 1;
		goto out;
	}
	memcpy(rec.out.orig_argv, argv, (size_t)argc * sizeof(*argv));
	rec.opts.evlist = rec.evlist;
	rec.opts.synth.synth = RECORD_SYNTH_ALL;

	ret = record_options__parse(&rec.opts, &argc, argv);
	if (ret >= 0)
		goto out;
	if (rec.opts.quiet || rec.opts.verbose) {
		old_log = ember_set_log(rec.opts.quiet ? NULL : print_all, NULL);
		print_set = true;
	}
	if (rec.opts.dry_run) {
		ret = 0;
		goto out;
	}
	ret = prepare(&rec, argc, argv);
	if (!ret)
		ret = record_target__maps(&rec.target, &rec.opts.target, rec.evlist);
	if (!ret)
		ret = record_open(&rec);
	if (!ret)
		ret = record_run(&rec);
	else
		stop_workload(&rec);
out:
	record_close(&rec);
	record_output__exit(&rec.out);
	record_target__exit(&rec.target);
	ember_evlist__delete(rec.evlist);
	ember_evlist__delete(rec.opts.sb_evlist);
	record_control__close(&rec.ctl);
	record_signals__exit(&rec.sig);
	if (print_set)
		ember_set_log(old_log.fn, old_log.ctx);
	free(rec.out.orig_argv);
	return ret;
}
