// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ring buffers on the real kernel: a syscalls:sys_enter_getpid sampling
 * event on this thread, N getpid() calls, exactly N samples read back
 * through a one-page buffer that wraps many times; lost records when the
 * buffer overflows; one buffer per cpu or per thread through the evlist.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <ember/event.h>
#include "test.h"
#include "test-util.h"
#include "event/evlist.h"

#define DENIED(err) ((err) == -EACCES || (err) == -EPERM)

/* A sampling attr for syscalls:<name>: every hit, as TID|TIME|RAW (40-byte records). */
static struct perf_event_attr getpid_attr(long id)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = (uint64_t)id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW,
		.wakeup_events = 1,
	};
	return attr;
}

/* The body of a TID|TIME|RAW sample. */
struct getpid_sample {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t raw_size;
	uint8_t raw[];	/* common fields (8 bytes), then int __syscall_nr */
};

struct tally {
	uint32_t pid, tid;	/* looked up once: getpid() itself would be sampled */
	int samples, bad, wraps, other;
	uint64_t pos, last_time;
};

/* Read every record of the snapshot, checking each sample. */
static void drain(struct ember_mmap *map, uint64_t data_size, struct tally *ty)
{
	const struct perf_event_header *ev;

	ember_mmap__read_init(map);
	while ((ev = ember_mmap__read_event(map)) != NULL) {
		const struct getpid_sample *s = (const void *)ev;

		if ((ty->pos % data_size) + ev->size > data_size)
			ty->wraps++;
		ty->pos += ev->size;
		if (ev->type != PERF_RECORD_SAMPLE) {
			ty->other++;
			continue;
		}
		ty->samples++;
		if (ev->size < sizeof(*s) + 12 || s->pid != ty->pid ||
		    s->tid != ty->tid || s->raw_size < 12 ||
		    *(const int32_t *)(s->raw + 8) != SYS_getpid || s->time < ty->last_time)
			ty->bad++;
		ty->last_time = s->time;
	}
	ember_mmap__read_done(map);
}

TEST(mmap_new_rejects_bad_sizes)
{
	errno = 0;
	CHECK(ember_mmap__new(0, 3) == NULL);
	CHECK_EQ(errno, EINVAL);
	errno = 0;
	CHECK(ember_mmap__new(0, 0) == NULL);
	CHECK_EQ(errno, EINVAL);
	errno = 0;
	CHECK(ember_mmap__new(-1, 1) == NULL);
	CHECK_EQ(errno, EINVAL);
	ember_mmap__delete(NULL);
}

/* Open the getpid tracepoint on this thread; NULL (and *reason) when it cannot run here. */
static struct ember_evsel *open_getpid(const char **reason)
{
	long id = test_tracepoint_id("syscalls", "sys_enter_getpid");
	struct perf_event_attr attr;
	struct ember_evsel *evsel;
	int err;

	if (id < 0) {
		*reason = "no syscalls:sys_enter_getpid tracepoint in tracefs";
		return NULL;
	}
	attr = getpid_attr(id);
	evsel = evsel__new(&attr, "syscalls:sys_enter_getpid");
	err = ember_evsel__open(evsel, NULL, NULL);
	if (err) {
		*reason = DENIED(err) ? "perf_event_open denied" : "cannot open the tracepoint";
		evsel__delete(evsel);
		return NULL;
	}
	return evsel;
}

TEST(mmap_reads_every_sample_across_wraps)
{
	const int n = 1000, batch = 20;
	long page = sysconf(_SC_PAGESIZE);
	const char *reason = NULL;
	struct ember_evsel *evsel = open_getpid(&reason);
	struct tally ty = { (uint32_t)getpid(), (uint32_t)syscall(SYS_gettid) };
	struct ember_mmap *map;

	if (!evsel)
		SKIP(reason);
	map = ember_mmap__new(ember_evsel__fd(evsel, 0, 0), 1);
	CHECK(map != NULL);
	if (!map) {
		evsel__delete(evsel);
		return;
	}
	CHECK_EQ(ember_mmap__fd(map), ember_evsel__fd(evsel, 0, 0));
	CHECK_EQ(ember_mmap__read_init(map), 0);
	CHECK(ember_mmap__read_event(map) == NULL);

	for (int done = 0; done < n; done += batch) {
		for (int i = 0; i < batch; i++)
			syscall(SYS_getpid);
		drain(map, (uint64_t)page, &ty);
	}
	CHECK_EQ(ty.samples, n);
	CHECK_EQ(ty.bad, 0);
	CHECK_EQ(ty.other, 0);
	CHECK_EQ(ember_mmap__lost(map), 0);
	/* 40-byte records in a 4 KiB ring: some straddle its end. */
	CHECK(ty.wraps > 0);
	ember_mmap__delete(map);
	evsel__delete(evsel);
}

TEST(mmap_counts_lost_records)
{
	const int n = 1000;
	long page = sysconf(_SC_PAGESIZE);
	const char *reason = NULL;
	struct ember_evsel *evsel = open_getpid(&reason);
	struct tally ty = { (uint32_t)getpid(), (uint32_t)syscall(SYS_gettid) };
	struct ember_mmap *map;

	if (!evsel)
		SKIP(reason);
	map = ember_mmap__new(ember_evsel__fd(evsel, 0, 0), 1);
	CHECK(map != NULL);
	if (!map) {
		evsel__delete(evsel);
		return;
	}
	/* 40 KB of samples into 4 KiB without reading: most are dropped. */
	for (int i = 0; i < n; i++)
		syscall(SYS_getpid);
	drain(map, (uint64_t)page, &ty);
	/* With room again, the kernel reports the drop before the next sample. */
	syscall(SYS_getpid);
	drain(map, (uint64_t)page, &ty);

	CHECK(ember_mmap__lost(map) > 0);
	CHECK_EQ(ty.other, 1);
	CHECK_EQ((uint64_t)ty.samples + ember_mmap__lost(map), (uint64_t)n + 1);
	CHECK_EQ(ty.bad, 0);
	ember_mmap__delete(map);
	evsel__delete(evsel);
}

/*
 * Enter and exit tracepoints of getpid sampled with their ids into an
 * evlist's buffers on cpus x this thread; count each evsel's samples.
 */
static void evlist_round_trip(struct unit_test *t, struct ember_cpu_map *cpus, int want_mmaps)
{
	long enter = test_tracepoint_id("syscalls", "sys_enter_getpid");
	long exit_ = test_tracepoint_id("syscalls", "sys_exit_getpid");
	struct ember_thread_map *self = ember_thread_map__new_pid(0);
	struct ember_evlist *evlist = ember_evlist__new();
	struct perf_event_attr attr;
	struct ember_evsel *a, *b;
	int err, na = 0, nb = 0, unknown = 0;

	attr = getpid_attr(enter);
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID;
	attr.disabled = 1;
	a = ember_evlist__add_attr(evlist, &attr, "syscalls:sys_enter_getpid");
	attr.config = (uint64_t)exit_;
	b = ember_evlist__add_attr(evlist, &attr, "syscalls:sys_exit_getpid");
	ember_evlist__set_maps(evlist, cpus, self);

	err = ember_evlist__open(evlist);
	if (err) {
		t->skip_reason = DENIED(err) ? "perf_event_open denied" : "cannot open tracepoints";
		goto out;
	}
	CHECK_EQ(ember_evlist__mmap(evlist, 3), -EINVAL);
	CHECK_EQ(evlist->nr_mmaps, 0);
	CHECK_EQ(ember_evlist__mmap(evlist, 4), 0);
	CHECK_EQ(evlist->nr_mmaps, want_mmaps);
	CHECK_EQ(evlist->nr_pollfds, want_mmaps);
	CHECK_EQ(ember_evlist__mmap(evlist, 4), -EBUSY);
	CHECK_EQ(ember_evlist__poll(evlist, 0), 0);

	CHECK_EQ(ember_evlist__enable(evlist), 0);
	for (int i = 0; i < 10; i++)
		syscall(SYS_getpid);
	CHECK_EQ(ember_evlist__disable(evlist), 0);
	CHECK(ember_evlist__poll(evlist, 1000) >= 1);

	for (int m = 0; m < evlist->nr_mmaps; m++) {
		struct ember_mmap *map = evlist->mmaps[m];
		const struct perf_event_header *ev;

		ember_mmap__read_init(map);
		while ((ev = ember_mmap__read_event(map)) != NULL) {
			struct ember_evsel *owner;

			if (ev->type != PERF_RECORD_SAMPLE)
				continue;
			owner = evlist__id2evsel(evlist, *(const uint64_t *)(ev + 1));
			na += owner == a;
			nb += owner == b;
			unknown += !owner;
		}
		ember_mmap__read_done(map);
	}
	CHECK_EQ(na, 10);
	CHECK_EQ(nb, 10);
	CHECK_EQ(unknown, 0);
	ember_evlist__munmap(evlist);
	CHECK_EQ(evlist->nr_mmaps, 0);
out:
	ember_evlist__delete(evlist);
	ember_thread_map__put(self);
}

TEST(evlist_mmap_per_thread)
{
	struct ember_cpu_map *any = ember_cpu_map__new_any();

	if (test_tracepoint_id("syscalls", "sys_enter_getpid") < 0 ||
	    test_tracepoint_id("syscalls", "sys_exit_getpid") < 0) {
		ember_cpu_map__put(any);
		SKIP("no syscalls:sys_{enter,exit}_getpid tracepoints in tracefs");
	}
	evlist_round_trip(t, any, 1);
	ember_cpu_map__put(any);
}

TEST(evlist_mmap_per_cpu)
{
	struct ember_cpu_map *cpus = ember_cpu_map__new(NULL);

	if (test_tracepoint_id("syscalls", "sys_enter_getpid") < 0 ||
	    test_tracepoint_id("syscalls", "sys_exit_getpid") < 0) {
		ember_cpu_map__put(cpus);
		SKIP("no syscalls:sys_{enter,exit}_getpid tracepoints in tracefs");
	}
	evlist_round_trip(t, cpus, ember_cpu_map__nr(cpus));
	ember_cpu_map__put(cpus);
}
