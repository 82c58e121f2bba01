// SPDX-License-Identifier: GPL-2.0-only
/*
 * The read loop, as perf record 6.1's: read every ring buffer in turn
 * (records go to the writer whole, as the kernel wrote them), mark the end
 * of each pass that found data with FINISHED_ROUND so readers can sort by
 * time within bounded memory, and sleep in poll() only when a pass found
 * nothing. Each wake-up is counted for "Woken up N times".
 */
#include <errno.h>
#include <time.h>
#include <sys/wait.h>
#include "record/loop.h"
#include "record/output.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Byte offset of the time in a sample's body, or 0 when samples have no
 * time. Every evsel samples IP and TID, all or none TIME, and all or none
 * IDENTIFIER (events.c), so one offset fits every sample of the recording.
 */
static size_t time_offset(const struct record *rec)
{
	uint64_t st = rec->evlist->first->attr.sample_type;

	if (!(st & PERF_SAMPLE_TIME))
		return 0;
	return (st & PERF_SAMPLE_IDENTIFIER ? 8 : 0) + 16;
}

static void account(struct record *rec, const struct perf_event_header *ev, size_t toff)
{
	const uint8_t *body = (const uint8_t *)(ev + 1);

	if (ev->type == PERF_RECORD_SAMPLE) {
		uint64_t t;

		rec->stats.samples++;
		if (!toff || ev->size < sizeof(*ev) + toff + sizeof(t))
			return;
		__builtin_memcpy(&t, body + toff, sizeof(t));
		if (!rec->stats.first_time)
			rec->stats.first_time = t;
		rec->stats.last_time = t;
	} else if (ev->type == PERF_RECORD_LOST && ev->size >= sizeof(*ev) + 16) {
		uint64_t lost;

		__builtin_memcpy(&lost, body + 8, sizeof(lost));
		rec->stats.lost += lost;
	}
}

/* One pass over every buffer. Returns the bytes copied, or -errno from the writer. */
static int64_t read_pass(struct record *rec)
{
	static const struct perf_event_header round = {
		.type = EMBER_RECORD_FINISHED_ROUND,
		.size = sizeof(round),
	};
	struct ember_evlist *evlist = rec->evlist;
	size_t toff = time_offset(rec);
	int64_t total = 0;
	int err = 0;

	for (int i = 0; i < evlist->nr_mmaps && !err; i++) {
		struct ember_mmap *map = evlist->mmaps[i];
		const struct perf_event_header *ev;

		if (!ember_mmap__read_init(map))
			continue;
		while ((ev = ember_mmap__read_event(map)) != NULL) {
			account(rec, ev, toff);
			err = record_output__write(rec, ev, ev->size);
			if (err)
				break;
			total += ev->size;
		}
		ember_mmap__read_done(map);
	}
	if (!err && total)
		err = record_output__write(rec, &round, sizeof(round));
	return err ? err : total;
}

bool record_loop__reap(struct record *rec)
{
	pid_t r;

	if (!rec->wl_started || rec->wl_exited)
		return rec->wl_exited;
	do
		r = waitpid(rec->wl.pid, &rec->wl.status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == rec->wl.pid) {
		rec->wl.reaped = true;
		rec->wl_exited = true;
	}
	return rec->wl_exited;
}

/* Signals, the command's exit, and buffers whose task is gone. */
static void after_poll(struct record *rec)
{
	int nr_buffers = rec->nr_pollfds - 1, live = 0;
	struct pollfd *sigp = &rec->pollfds[nr_buffers];

	if (sigp->revents & POLLIN) {
		bool child = false;
		int sig = record_signals__read(&rec->sig, &child);

		if (sig) {
			rec->stop_signal = sig;
			rec->done = true;
		}
		if (child && record_loop__reap(rec))
			rec->done = true;
	}
	sigp->revents = 0;

	/* A per-task buffer hangs up when its task exits: stop polling it, end when all did. */
	for (int i = 0; i < nr_buffers; i++) {
		struct pollfd *p = &rec->pollfds[i];

		if (p->fd >= 0 && (p->revents & (POLLHUP | POLLERR)))
			p->fd = -1;
		if (p->fd >= 0)
			live++;
		p->revents = 0;
	}
	if (nr_buffers > 0 && !live)
		rec->draining = true;
}

/* Rewrite the header's data size at most once a period, when records came in since. */
static void maybe_sync(struct record *rec, bool *dirty)
{
	uint64_t now;

	if (!*dirty)
		return;
	now = now_ns();
	if (now - rec->last_sync_ns < RECORD_SYNC_INTERVAL_MS * 1000000ULL)
		return;
	rec->last_sync_ns = now;
	*dirty = false;
	record_output__sync(rec);
}

/*
 * Sleep until the buffers wake us (half full), a signal, or the next sync
 * is due: records already read must reach the file within a sync period.
 */
static int poll_timeout(const struct record *rec, bool dirty)
{
	uint64_t period = RECORD_SYNC_INTERVAL_MS * 1000000ULL, since;

	if (!dirty)
		return RECORD_SYNC_INTERVAL_MS;
	since = now_ns() - rec->last_sync_ns;
	return since >= period ? 0 : (int)((period - since + 999999) / 1000000);
}

int record_loop__run(struct record *rec)
{
	bool disabled = false, dirty = false;
	uint64_t last_check;

	rec->last_sync_ns = last_check = now_ns();
	for (;;) {
		int64_t n = read_pass(rec);
		int timeout;

		if (n < 0)
			return 1;
		dirty |= n > 0;
		maybe_sync(rec, &dirty);
		if (rec->write_err)
			return 1;
		if (n == 0) {
			if (rec->done || rec->draining)
				break;
			timeout = poll_timeout(rec, dirty);
			if (poll(rec->pollfds, (nfds_t)rec->nr_pollfds, timeout) > 0)
				rec->stats.waking++;
			after_poll(rec);
			last_check = now_ns();
		} else if (now_ns() - last_check >= RECORD_CHECK_INTERVAL_MS * 1000000ULL) {
			/* Records keep coming: look at signals and hang-ups without sleeping. */
			poll(rec->pollfds, (nfds_t)rec->nr_pollfds, 0);
			after_poll(rec);
			last_check = now_ns();
		}
		/* A command's events die with it; a target ember did not start is stopped here. */
		if (rec->done && !disabled && !rec->target_none) {
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
		n = read_pass(rec);
	while (n > 0);
	return n < 0 ? 1 : 0;
}
