// SPDX-License-Identifier: GPL-2.0-only
/* The reader's short slice and start-up busy-poll for small buffers (see warmup.h). */
#include <sched.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <ember/event.h>
#include "record/warmup.h"

/*
 * A sample's size, roughly: the header and the usual fields, plus a
 * callchain of some 16 frames when there is one. An estimate, for the
 * "is this buffer small for its rate" test only.
 */
static uint64_t sample_bytes(const struct ember_evsel *evsel)
{
	return 64 + (ember_evsel__attr(evsel)->sample_type & PERF_SAMPLE_CALLCHAIN ? 128 : 0);
}

/*
 * True when one buffer holds less than RECORD_WARMUP_MS of samples: every
 * event sampling at its frequency on the buffer's cpu. Events sampling by
 * period (-c) have no rate to go by, and then nothing is assumed.
 */
static bool buffers_small(const struct ember_evlist *evlist, size_t mmap_bytes,
			  uint64_t *bytes_per_s_out)
{
	struct ember_evsel *pos;
	uint64_t bytes_per_s = 0;

	ember_evlist__for_each(evlist, pos) {
		const struct perf_event_attr *a = ember_evsel__attr(pos);

		if (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY)
			continue;	/* side-band only: no samples */
		if (!a->freq)
			return false;
		bytes_per_s += a->sample_freq * sample_bytes(pos);
	}
	*bytes_per_s_out = bytes_per_s;
	return bytes_per_s && mmap_bytes * 1000 < bytes_per_s * RECORD_WARMUP_MS;
}

/* The slice hint: the thread's own policy and nice value, a shorter slice. */
static void ask_short_slice(void)
{
	struct {
		uint32_t size, policy;
		uint64_t flags;
		int32_t nice;
		uint32_t priority;
		uint64_t runtime, deadline, period;
	} attr = {
		.size = sizeof(attr),
		.policy = SCHED_OTHER,
		.runtime = RECORD_WARMUP_SLICE_NS,
	};

	if (sched_getscheduler(0) != SCHED_OTHER)
		return;
	attr.nice = getpriority(PRIO_PROCESS, 0);
	/* a hint: a kernel without sched_setattr or a refusal changes nothing */
	(void)syscall(SYS_sched_setattr, 0, &attr, 0);
}

static bool may_run_elsewhere(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 1;
}

void record_warmup__begin(struct record_warmup *w, const struct ember_evlist *evlist,
			  size_t mmap_bytes, bool verbose, uint64_t now_ns)
{
	uint64_t bytes_per_s = 0;
	bool busy;

	w->until_ns = 0;
	if (!ember_evlist__nr_mmaps(evlist) || !buffers_small(evlist, mmap_bytes, &bytes_per_s))
		return;
	ask_short_slice();
	busy = may_run_elsewhere();
	if (busy)
		w->until_ns = now_ns + RECORD_WARMUP_MS * 1000000ULL;
	if (!verbose)
		return;
	fprintf(stderr,
		"a ring buffer holds about %.1f ms of samples: the reader asks for a %llu us "
		"time slice",
		(double)mmap_bytes * 1000 / (double)bytes_per_s, RECORD_WARMUP_SLICE_NS / 1000);
	if (busy)
		fprintf(stderr, " and polls without sleeping for its first %d ms", RECORD_WARMUP_MS);
	fputc('\n', stderr);
}

void record_warmup__pass(struct record_warmup *w)
{
	if (!w->until_ns)
		return;
	w->cpu = sched_getcpu();
	w->pass_had_data = false;
}

void record_warmup__data(struct record_warmup *w, const struct ember_cpu_map *cpus, int buffer)
{
	if (!w->until_ns)
		return;
	if (!w->pass_had_data) {
		w->pass_had_data = true;
		w->own_cpu_data = false;
	}
	if (buffer < ember_cpu_map__nr(cpus) &&
	    ember_cpu_map__cpu(cpus, buffer) == w->cpu)
		w->own_cpu_data = true;
}

bool record_warmup__busy(struct record_warmup *w, uint64_t now_ns)
{
	if (!w->until_ns)
		return false;
	if (now_ns >= w->until_ns) {
		w->until_ns = 0;
		return false;
	}
	return !w->own_cpu_data;
}
