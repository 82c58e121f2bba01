// SPDX-License-Identifier: GPL-2.0-only
/*
 * What runs already, and what the ring buffers say since: the processes'
 * comms and maps synthesized into the machine at the start (perf top's
 * machine__synthesize_threads), then each buffer drained in turn, its
 * records in their order: side-band ones taken by the machine, samples
 * added to the histograms.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ember/mmap.h>
#include <ember/synth.h>
#include "core/array.h"
#include "top/top.h"
#include "util/proc-alive.h"

static int to_machine(void *ctx, const struct perf_event_header *rec)
{
	int err = ember_machine__process_event(ctx, rec);

	/* a malformed record is skipped, as perf skips what it cannot use */
	return err == -ENOMEM ? err : 0;
}

int top_live__synthesize(struct top *t)
{
	struct ember_synth_opts so = { .emit = to_machine, .ctx = t->machine };
	struct ember_synth s;
	int err;

	err = ember_synth__init(&s, &so);
	if (err)
		return err;
	/*
	 * One thread at a time: one that exited since, or whose maps may not
	 * be read (a kernel thread of -u root), is left out, not fatal.
	 */
	for (int i = 0; !err && i < t->nr_target_pids; i++) {
		err = ember_synth__threads(&s, &t->target_pids[i], 1);
		if (err == -ESRCH || err == -EACCES)
			err = 0;
	}
	if (!t->nr_target_pids)
		err = ember_synth__all_processes(&s);
	ember_synth__exit(&s);
	/* the kernel's maps from the running kernel, named "[kernel]" as perf top's */
	if (!err || err == -ESRCH)
		err = ember_machine__create_kernel_maps(t->machine);
	return err == -ESRCH ? 0 : err;
}

/* A record of a ring buffer taken: side-band into the machine, a sample into its histogram. */
static int take(struct top *t, const struct perf_event_header *hdr)
{
	switch (hdr->type) {
	case PERF_RECORD_SAMPLE:
		return top_samples__add(t, hdr);
	case PERF_RECORD_LOST:
		t->nr_lost_records++;
		t->lost += ((const uint64_t *)(hdr + 1))[1];
		t->lost_total += ((const uint64_t *)(hdr + 1))[1];
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		t->lost += ((const uint64_t *)(hdr + 1))[0];
		t->lost_total += ((const uint64_t *)(hdr + 1))[0];
		return 0;
	default:
		return to_machine(t->machine, hdr);
	}
}

/* The record copied at the end of the queue (records are 8-byte multiples). 0 or -ENOMEM. */
static int queue(struct top *t, const struct perf_event_header *hdr)
{
	/* doubled (asked for one byte past its end) until the record fits */
	while (t->queue_len + hdr->size > t->queue_alloc)
		if (array__reserve((void **)&t->queue, &t->queue_alloc, t->queue_alloc, 1))
			return -ENOMEM;
	memcpy(t->queue + t->queue_len, hdr, hdr->size);
	t->queue_len += hdr->size;
	return 0;
}

static int drain_one(struct top *t, struct ember_mmap *map, bool later)
{
	const struct perf_event_header *hdr;
	int err = 0;

	if (!ember_mmap__read_init(map))
		return 0;
	while (!err && (hdr = ember_mmap__read_event(map)) != NULL)
		err = later ? queue(t, hdr) : take(t, hdr);
	ember_mmap__read_done(map);
	return err;
}

static int drain(struct top *t, bool later)
{
	int n = ember_evlist__nr_mmaps(t->evlist);

	for (int i = 0; i < n; i++) {
		int err = drain_one(t, ember_evlist__mmap_at(t->evlist, i), later);

		if (err)
			return err;
	}
	return 0;
}

int top_live__drain(struct top *t)
{
	return drain(t, false);
}

int top_live__queue(struct top *t)
{
	return drain(t, true);
}

int top_live__take_queued(struct top *t)
{
	size_t pos = 0;
	int err = 0;

	while (!err && pos < t->queue_len) {
		const struct perf_event_header *hdr = (const void *)(t->queue + pos);

		err = take(t, hdr);
		pos += hdr->size;
	}
	t->queue_len = 0;
	return err;
}

bool top_live__targets_gone(const struct top *t)
{
	if (!t->nr_target_pids)
		return false;
	for (int i = 0; i < t->nr_target_pids; i++)
		if (proc__alive(t->target_pids[i]))	/* a zombie counts as gone */
			return false;
	return true;
}
