// SPDX-License-Identifier: GPL-2.0-only
/*
 * Open the events (falling back as perf does), set the tracepoint filters
 * (at open, by the event layer), map the ring buffers, and gather the fds
 * the read loop polls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/ember.h>
#include "record/events.h"
#include "record/open.h"
#include "record/overwrite.h"
#include "record/record.h"
#include "record/sideband.h"

static int open_error(struct record *rec, struct ember_evsel *evsel, int err)
{
	const struct perf_event_attr *a = ember_evsel__attr(evsel);
	const char *filter = ember_evsel__filter(evsel), *sys = "*", *name = "*";
	char buf[1024];

	if (filter && err == -EINVAL) {
		ember_evsel__tracepoint(evsel, &sys, &name);
		record_err("failed to set filter \"%s\" on event %s with %d (%s); the fields a "
			   "filter may use are in /sys/kernel/tracing/events/%s/%s/format",
			   filter, ember_evsel__name(evsel), -err, strerror(-err), sys, name);
		return 1;
	}
	if (a->sample_type & PERF_SAMPLE_BRANCH_STACK) {
		bool lbr = a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK;

		record_err("%s: PMU Hardware or event type doesn't support branch stack sampling "
			   "(%s)", ember_evsel__name(evsel),
			   lbr ? "--call-graph lbr needs a CPU with LBR; try --call-graph fp" :
				 "-b, -j and branch_type= need a hardware PMU with a branch record "
				 "(Intel LBR, AMD BRS, Arm BRBE); this machine has none");
		return 1;
	}
	if (a->aux_output) {
		record_err("%s: PMU Hardware doesn't support 'aux_output' feature (it needs an AUX "
			   "area event such as Intel PT as group leader)", ember_evsel__name(evsel));
		return 1;
	}
	if (err == -ESRCH && (rec->opts.target.pid || rec->opts.target.tid)) {
		record_err("no such %s: %s", rec->opts.target.pid ? "process" : "thread",
			   rec->opts.target.pid ? rec->opts.target.pid : rec->opts.target.tid);
		return 1;
	}
	ember_evsel__strerror_open(evsel, err, buf, sizeof(buf));
	record_err("cannot open event '%s': %s", ember_evsel__name(evsel), buf);
	return 1;
}

static int mmap_error(struct record *rec, int err, size_t pages)
{
	if (err == -EPERM || err == -ENOMEM)
		record_err("cannot map %zu pages of ring buffer per cpu: %s; consider "
			   "increasing /proc/sys/kernel/perf_event_mlock_kb, or try again with a "
			   "smaller value of -m/--mmap-pages", pages, strerror(-err));
	else
		record_err("cannot map the ring buffers: %s", strerror(-err));
	return 1;
}

/*
 * The buffers' fds, the backward buffers' (for their hang-ups only: they
 * are read at the end), the signalfd, the --control fd and the
 * --switch-output-event buffers, for poll().
 */
static int build_pollfds(struct record *rec)
{
	struct ember_evlist *evlist = rec->evlist, *sb = rec->opts.sb_evlist;
	/* none with --overwrite: every buffer is a backward one */
	int nr = ember_evlist__nr_mmaps(evlist), nr_sb = sb ? ember_evlist__nr_mmaps(sb) : 0, n = 0;

	rec->loop.pollfds =
	    calloc((size_t)(nr + rec->ow.nr + nr_sb) + 2, sizeof(*rec->loop.pollfds));
	if (!rec->loop.pollfds)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		rec->loop.pollfds[n].fd = ember_mmap__fd(ember_evlist__mmap_at(evlist, i));
		rec->loop.pollfds[n++].events = POLLIN;
	}
	for (int i = 0; i < rec->ow.nr; i++) {
		rec->loop.pollfds[n].fd = record_overwrite__fd(&rec->ow, i);
		rec->loop.pollfds[n++].events = 0;
	}
	rec->loop.sig_pollfd = n;
	rec->loop.pollfds[n].fd = rec->sig.fd;
	rec->loop.pollfds[n++].events = POLLIN;
	rec->ctl.pollfd = -1;
	if (rec->ctl.fd >= 0) {
		rec->ctl.pollfd = n;
		rec->loop.pollfds[n].fd = rec->ctl.fd;
		rec->loop.pollfds[n++].events = POLLIN;
	}
	for (int i = 0; i < nr_sb; i++) {
		rec->loop.pollfds[n].fd = ember_mmap__fd(ember_evlist__mmap_at(sb, i));
		rec->loop.pollfds[n++].events = POLLIN;
	}
	rec->loop.nr_pollfds = n;
	return 0;
}

int record_open(struct record *rec)
{
	struct ember_log old_log = { 0 };
	size_t pages = rec->opts.loop.mmap_pages ? rec->opts.loop.mmap_pages : RECORD_DEFAULT_PAGES;
	int err;

	/* Each failure is explained below in one line; the library's notes only with -v. */
	if (!rec->opts.verbose)
		old_log = ember_set_log(NULL, NULL);
	for (;;) {
		struct ember_evsel *failed;

		err = ember_evlist__open(rec->evlist);
		if (!err)
			break;
		failed = ember_evlist__failed(rec->evlist);
		if (!failed || !record_events__fallback(rec, failed, err))
			break;
	}
	if (!rec->opts.verbose)
		ember_set_log(old_log.fn, old_log.ctx);
	if (err) {
		struct ember_evsel *failed = ember_evlist__failed(rec->evlist);

		if (!failed) {
			record_err("cannot open the events: %s", strerror(-err));
			return 1;
		}
		return open_error(rec, failed, err);
	}

	/* the forward buffers; the backward ones apart (overwrite.c) */
	err = ember_evlist__mmap(rec->evlist, pages);
	if (!err && record_overwrite__wanted(rec->evlist))
		err = record_overwrite__mmap(&rec->ow, rec->evlist, pages);
	if (err)
		return mmap_error(rec, err, pages);
	rec->loop.mmap_bytes = pages * (size_t)sysconf(_SC_PAGESIZE);
	/* perf caps --mmap-flush at a quarter of the buffer */
	rec->loop.mmap_flush = rec->opts.loop.mmap_flush;
	if (rec->loop.mmap_flush > pages * (size_t)sysconf(_SC_PAGESIZE) / 4)
		rec->loop.mmap_flush = pages * (size_t)sysconf(_SC_PAGESIZE) / 4;
	err = record_sideband__open(rec->opts.sb_evlist);
	if (err)
		return err;
	if (build_pollfds(rec)) {
		record_err("out of memory");
		return 1;
	}
	return 0;
}

void record_close(struct record *rec)
{
	free(rec->loop.pollfds);
	rec->loop.pollfds = NULL;
	rec->loop.nr_pollfds = 0;
	record_overwrite__unmap(&rec->ow);
	record_sideband__close(rec->opts.sb_evlist);
	ember_evlist__close(rec->evlist);
}
