// SPDX-License-Identifier: GPL-2.0-only
/*
 * The read loop, as perf record 6.1's: read every ring buffer in turn
 * (records go to the writer whole, as the kernel wrote them), mark the end
 * of each pass that found data with FINISHED_ROUND so readers can sort by
 * time within bounded memory, and sleep in poll() only when a pass found
 * nothing. Each wake-up is counted for "Woken up N times".
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <ember/event.h>
#include <ember/mmap.h>
#include "core/clock.h"
#include "record/loop.h"
#include "record/output.h"
#include "record/overwrite.h"
#include "record/record.h"
#include "record/sideband.h"
#include "record/synth.h"
#include "record/warmup.h"

/*
 * Byte offset of the ip in a sample's body: every evsel samples IP and TID,
 * and all or none IDENTIFIER (events.c), so one offset fits every sample
 * of the recording.
 */
size_t record_loop__ip_offset(const struct record *rec)
{
	const struct ember_evsel *first = ember_evlist__next(rec->evlist, NULL);

	return ember_evsel__attr(first)->sample_type & PERF_SAMPLE_IDENTIFIER ? 8 : 0;
}

/* The time's, after the ip and the pid/tid words; 0 when samples have no time. */
size_t record_loop__time_offset(const struct record *rec)
{
	struct ember_evsel *pos;

	/* a time=0 term leaves some events without: no SAMPLE_TIME then */
	ember_evlist__for_each(rec->evlist, pos)
		if (!(ember_evsel__attr(pos)->sample_type & PERF_SAMPLE_TIME))
			return 0;
	return record_loop__ip_offset(rec) + 16;
}

void record_loop__account(struct record_stats *st, const struct perf_event_header *ev, size_t toff)
{
	const uint8_t *body = (const uint8_t *)(ev + 1);

	if (ev->type == PERF_RECORD_SAMPLE) {
		uint64_t t;

		st->samples++;
		if (!toff || ev->size < sizeof(*ev) + toff + sizeof(t))
			return;
		__builtin_memcpy(&t, body + toff, sizeof(t));
		/* buffers are read in turn (and backward ones newest first): keep the extremes */
		if (!st->first_time || t < st->first_time)
			st->first_time = t;
		if (t > st->last_time)
			st->last_time = t;
	} else if (ev->type == PERF_RECORD_LOST && ev->size >= sizeof(*ev) + 16) {
		uint64_t lost;

		__builtin_memcpy(&lost, body + 8, sizeof(lost));
		st->lost += lost;
	}
}

/* --affinity: run on the cpus of the buffer about to be read (perf's record__adjust_affinity). */
static void adjust_affinity(struct record *rec, int idx)
{
	int cpu;

	if (rec->opts.loop.affinity == RECORD_AFFINITY_SYS ||
	    idx >= ember_cpu_map__nr(rec->target.cpus))
		return;
	cpu = ember_cpu_map__cpu(rec->target.cpus, idx);
	if (cpu < 0 || cpu == rec->loop.affinity_cpu)
		return;
	if (rec->opts.loop.affinity == RECORD_AFFINITY_CPU) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	} else {
		/* node: the cpus of the buffer's NUMA node */
		char path[128];
		FILE *f;

		for (int node = 0; node < 1024; node++) {
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/node%d", cpu,
				 node);
			if (access(path, F_OK))
				continue;
			snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist",
				 node);
			f = fopen(path, "re");
			if (f) {
				char list[4096];

				if (fgets(list, sizeof(list), f)) {
					struct ember_cpu_map *m;

					list[strcspn(list, "\n")] = '\0';
					m = ember_cpu_map__new(list);
					if (m) {
						cpu_set_t set;

						CPU_ZERO(&set);
						for (int i = 0; i < ember_cpu_map__nr(m); i++)
							CPU_SET(ember_cpu_map__cpu(m, i), &set);
						sched_setaffinity(0, sizeof(set), &set);
						ember_cpu_map__put(m);
					}
				}
				fclose(f);
			}
			break;
		}
	}
	rec->loop.affinity_cpu = cpu;
}

/*
 * One pass over every buffer. `all`: read everything, else only the
 * buffers holding --mmap-flush bytes. Returns the bytes copied, or -errno
 * from the writer.
 */
static int64_t read_pass_flush(struct record *rec, bool all)
{
	static const struct perf_event_header round = {
		.type = EMBER_RECORD_FINISHED_ROUND,
		.size = sizeof(round),
	};
	struct ember_evlist *evlist = rec->evlist;
	size_t toff = record_loop__time_offset(rec);
	size_t copied = 0, release = rec->loop.mmap_bytes / 4 ?: 1;
	int64_t total = 0;
	int err = 0;

	record_warmup__pass(&rec->warmup);
	for (int i = 0; i < ember_evlist__nr_mmaps(evlist) && !err; i++) {
		struct ember_mmap *map = ember_evlist__mmap_at(evlist, i);
		const struct perf_event_header *ev;
		size_t avail;

		avail = ember_mmap__read_init(map);
		if (!avail || (!all && avail < rec->loop.mmap_flush))
			continue;
		record_warmup__data(&rec->warmup, rec->target.cpus, i);
		adjust_affinity(rec, i);
		while ((ev = ember_mmap__read_event(map)) != NULL) {
			record_loop__account(&rec->out.stats, ev, toff);
			err = record_output__write_ring(&rec->out, ev, ev->size);
			if (err)
				break;
			total += ev->size;
			copied += ev->size;
			/*
			 * A full buffer is copied in one go: hand back each
			 * quarter as soon as it is copied, so the kernel has room
			 * to write while we copy the rest.
			 */
			if (copied >= release) {
				ember_mmap__read_done(map);
				copied = 0;
			}
		}
		ember_mmap__read_done(map);
		copied = 0;
	}
	if (!err && total) {
		err = record_output__write(&rec->out, &round, sizeof(round));
		if (!err)
			record_output__flush(&rec->out);
		err = rec->out.write_err;
	}
	return err ? err : total;
}

static int64_t read_pass(struct record *rec)
{
	return read_pass_flush(rec, rec->loop.done || rec->loop.draining);
}

bool record_loop__reap(struct record *rec)
{
	if (!rec->target.wl_started || rec->target.wl_exited)
		return rec->target.wl_exited;
	/* --tail-synthesize: describe the command while it is a zombie, as perf does */
	if (rec->opts.synth.tail_synthesize && rec->target.target_none &&
	    !rec->target.wl_tail_done && ember_workload__exited(&rec->target.wl))
		record_synth__workload_tail(rec);
	if (ember_workload__try_wait(&rec->target.wl) > 0)
		rec->target.wl_exited = true;
	return rec->target.wl_exited;
}

void record_loop__check_exec(struct record *rec, bool wait)
{
	int r;

	if (!rec->target.wl_started)
		return;
	r = ember_workload__exec_result(&rec->target.wl, wait);
	if (r < 0) {
		rec->target.wl_exec_err = -r;
		rec->loop.done = true;
	}
}

/* Signals, the command's exit, and buffers whose task is gone. */
static void after_poll(struct record *rec)
{
	int nr_buffers = rec->loop.sig_pollfd, live = 0;
	struct pollfd *sigp = &rec->loop.pollfds[nr_buffers];

	if (sigp->revents & POLLIN) {
		bool child = false, usr2 = false;
		int sig = record_signals__read(&rec->sig, &child, &usr2);

		if (sig) {
			rec->loop.stop_signal = sig;
			rec->loop.done = true;
		}
		if (usr2)
			rec->loop.usr2 = true;
		if (child && record_loop__reap(rec))
			rec->loop.done = true;
	}
	sigp->revents = 0;
	if (rec->ctl.pollfd >= 0 && rec->loop.pollfds[rec->ctl.pollfd].revents) {
		record_control__process(rec, rec->loop.pollfds[rec->ctl.pollfd].revents);
		rec->loop.pollfds[rec->ctl.pollfd].revents = 0;
	}

	/* A per-task buffer hangs up when its task exits: stop polling it, end when all did. */
	for (int i = 0; i < nr_buffers; i++) {
		struct pollfd *p = &rec->loop.pollfds[i];

		if (p->fd >= 0 && (p->revents & (POLLHUP | POLLERR)))
			p->fd = -1;
		if (p->fd >= 0)
			live++;
		p->revents = 0;
	}
	if (nr_buffers > 0 && !live)
		rec->loop.draining = true;
}

/* Rewrite the header's data size at most once a period, when records came in since. */
static void maybe_sync(struct record *rec, bool *dirty)
{
	uint64_t now;

	if (!*dirty)
		return;
	now = clock_now_ns();
	if (now - rec->loop.last_sync_ns < RECORD_SYNC_INTERVAL_MS * 1000000ULL)
		return;
	rec->loop.last_sync_ns = now;
	*dirty = false;
	record_output__sync(&rec->out);
}

/*
 * Sleep until the buffers wake us (half full), a signal, or the next sync
 * is due: records already read must reach the file within a sync period.
 */
static int poll_timeout(const struct record *rec, bool dirty)
{
	uint64_t period = RECORD_SYNC_INTERVAL_MS * 1000000ULL, since, now = clock_now_ns();
	int timeout = RECORD_SYNC_INTERVAL_MS;

	if (dirty) {
		since = now - rec->loop.last_sync_ns;
		timeout = since >= period ? 0 : (int)((period - since + 999999) / 1000000);
	}
	/* -D's enable and --switch-output's time are deadlines too */
	for (int i = 0; i < 2; i++) {
		uint64_t at = i ? rec->loop.switch_at_ns : rec->loop.enable_at_ns;
		int ms;

		if (!at)
			continue;
		ms = at <= now ? 0 : (int)((at - now + 999999) / 1000000);
		if (ms < timeout)
			timeout = ms;
	}
	return timeout;
}

/* -D: the sampling events start once the delay after the exec is over. */
static void check_delay(struct record *rec)
{
	if (!rec->loop.enable_at_ns || clock_now_ns() < rec->loop.enable_at_ns)
		return;
	rec->loop.enable_at_ns = 0;
	ember_evlist__enable(rec->evlist);
	if (!rec->opts.quiet)
		fprintf(stderr, "Events enabled\n");
}

/* --max-size: perf's stop once the file holds that much. */
static void check_max_size(struct record *rec)
{
	uint64_t size;

	if (!rec->opts.output.max_size || rec->loop.done || !rec->out.writer)
		return;
	size = ember_data_writer__data_size(rec->out.writer);
	if (size < rec->opts.output.max_size)
		return;
	if (!rec->opts.quiet)
		fprintf(stderr, "[ ember record: perf size limit reached (%llu KB), stopping "
			"session ]\n", (unsigned long long)(size >> 10));
	rec->loop.done = true;
}

/* --switch-output: SIGUSR2, a size or a period ends the current file. 0 or 1. */
static int check_switch(struct record *rec)
{
	bool due = false;

	if (!rec->opts.output.switch_output || rec->loop.done || !rec->out.writer)
		return 0;
	if (rec->opts.output.switch_signal && rec->loop.usr2)
		due = true;
	if (rec->opts.output.switch_size &&
	    ember_data_writer__data_size(rec->out.writer) >= rec->opts.output.switch_size)
		due = true;
	if (rec->loop.switch_at_ns && clock_now_ns() >= rec->loop.switch_at_ns) {
		due = true;
		rec->loop.switch_at_ns =
		    clock_now_ns() + rec->opts.output.switch_time_s * 1000000000ULL;
	}
	if (!due)
		return 0;
	rec->loop.usr2 = false;
	/* the flight recorder's contents go with the file being finished */
	if (rec->ow.nr &&
	    record_overwrite__snapshot(&rec->ow, &rec->out, record_loop__time_offset(rec)))
		return 1;
	/* --tail-synthesize: each file ends with its description of the tasks */
	if (rec->opts.synth.tail_synthesize) {
		rec->target.wl_tail_done = false;
		if (record_synth__workload_tail(rec) || record_synth__start(rec))
			return 1;
	}
	if (record_output__switch(rec) || record_synth__restart(rec))
		return 1;
	rec->target.wl_tail_done = false;	/* the new file describes the command again */
	return 0;
}

int record_loop__run(struct record *rec)
{
	bool disabled = false, dirty = false;
	uint64_t last_check;

	rec->loop.last_sync_ns = last_check = clock_now_ns();
	rec->loop.affinity_cpu = -1;
	if (rec->opts.output.switch_time_s)
		rec->loop.switch_at_ns =
		    last_check + rec->opts.output.switch_time_s * 1000000000ULL;
	for (;;) {
		int64_t n = read_pass(rec);
		bool busy;
		int timeout;

		if (n < 0)
			return 1;
		/* the command was let go without waiting for its exec: did it run? */
		record_loop__check_exec(rec, false);
		dirty |= n > 0;
		maybe_sync(rec, &dirty);
		if (rec->out.write_err)
			return 1;
		check_delay(rec);
		check_max_size(rec);
		if (rec->loop.usr2 && rec->ow.nr && !rec->opts.output.switch_output) {
			rec->loop.usr2 = false;
			if (record_overwrite__snapshot(&rec->ow, &rec->out,
						       record_loop__time_offset(rec)))
				return 1;
		}
		if (record_sideband__fired(rec->opts.sb_evlist))
			rec->loop.usr2 = true;
		if (check_switch(rec))
			return 1;
		if (n == 0) {
			if (rec->loop.done || rec->loop.draining)
				break;
			/* small buffers, just started: look again without sleeping */
			busy = record_warmup__busy(&rec->warmup, clock_now_ns());
			timeout = busy ? 0 : poll_timeout(rec, dirty);
			if (poll(rec->loop.pollfds, (nfds_t)rec->loop.nr_pollfds, timeout) > 0 &&
			    !busy)
				rec->out.stats.waking++;
			after_poll(rec);
			last_check = clock_now_ns();
		} else if (clock_now_ns() - last_check >= RECORD_CHECK_INTERVAL_MS * 1000000ULL) {
			/* Records keep coming: look at signals and hang-ups without sleeping. */
			poll(rec->loop.pollfds, (nfds_t)rec->loop.nr_pollfds, 0);
			after_poll(rec);
			last_check = clock_now_ns();
		}
		/* A command's events die with it; a target ember did not start is stopped here. */
		if (rec->loop.done && !disabled && !rec->target.target_none) {
			ember_evlist__disable(rec->evlist);
			disabled = true;
		}
	}
	return 0;
}

int record_loop__drain(struct record *rec)
{
	int64_t n;

	do
		n = read_pass_flush(rec, true);
	while (n > 0);
	return n < 0 ? 1 : 0;
}
