// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's own start-of-recording records, byte for byte against what perf
 * 6.1 wrote in real recordings (THREAD_MAP, CPU_MAP, ID_INDEX), perf's
 * choice among the three cpu map encodings, ID_INDEX splitting, bad input.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "synth/synth-int.h"

struct rcollect {
	uint8_t last[65536];
	int nr;
	size_t total;		/* entries seen across ID_INDEX records */
	int fail;
};

static int rcollect(void *ctx, const struct perf_event_header *h)
{
	struct rcollect *r = ctx;

	if (r->fail)
		return r->fail;
	memcpy(r->last, h, h->size);
	r->nr++;
	if (h->type == SYNTH_RECORD_ID_INDEX)
		r->total += ((const uint64_t *)h)[1];
	return 0;
}

static struct rcollect *rc_new(void)
{
	return calloc(1, sizeof(struct rcollect));
}

TEST(synth_cpu_map_encodings)
{
	/* perf record -p on 2 cpus: PERF_RECORD_CPU_MAP: 0-1 */
	static const uint8_t range01[] = { 0x4a, 0, 0, 0, 0, 0, 0x10, 0,
					   2, 0, 0, 0, 0, 0, 1, 0 };
	struct rcollect *r = rc_new();
	uint8_t d[64];
	uint16_t v;
	uint32_t w;

	CHECK_EQ(ember_synth__cpu_map(rcollect, r, (const int[]){ 0, 1 }, 2), 0);
	CHECK(!memcmp(r->last, range01, sizeof(range01)));

	/* Only "any cpu": a u16 list holding 0xffff. */
	CHECK_EQ(ember_synth__cpu_map_data(d, sizeof(d), (const int[]){ -1 }, 1), 8);
	memcpy(&v, d, 2);
	CHECK_EQ(v, 0);
	memcpy(&v, d + 2, 2);
	CHECK_EQ(v, 1);
	memcpy(&v, d + 4, 2);
	CHECK_EQ(v, 0xffff);

	/* Any cpu plus a range: a range with any_cpu set. */
	CHECK_EQ(ember_synth__cpu_map_data(d, sizeof(d), (const int[]){ -1, 2, 3, 4 }, 4), 8);
	memcpy(&v, d, 2);
	CHECK_EQ(v, 2);
	CHECK_EQ(d[2], 1);
	memcpy(&v, d + 4, 2);
	CHECK_EQ(v, 2);
	memcpy(&v, d + 6, 2);
	CHECK_EQ(v, 4);

	/* A sparse list with a high cpu: u16 list (10 bytes against a 14-byte mask). */
	CHECK_EQ(ember_synth__cpu_map_data(d, sizeof(d), (const int[]){ 0, 2, 40 }, 3), 16);
	memcpy(&v, d, 2);
	CHECK_EQ(v, 0);
	memcpy(&v, d + 2, 2);
	CHECK_EQ(v, 3);
	memcpy(&v, d + 8, 2);
	CHECK_EQ(v, 40);

	/* Sizes equal (10 and 10): perf takes the mask. */
	CHECK_EQ(ember_synth__cpu_map_data(d, sizeof(d), (const int[]){ 0, 2, 7 }, 3), 16);
	memcpy(&v, d, 2);
	CHECK_EQ(v, 1);
	memcpy(&w, d + 6, 4);
	CHECK_EQ(w, 0x85);

	/* Many sparse cpus: a 32-bit mask (type 1, nr words, long_size 4, packed). */
	{
		int cpus[40], n = 0;

		for (int c = 0; c < 41; c++)
			if (c != 5)
				cpus[n++] = c;
		CHECK_EQ(ember_synth__cpu_map_data(d, sizeof(d), cpus, n), 16);
		memcpy(&v, d, 2);
		CHECK_EQ(v, 1);
		memcpy(&v, d + 2, 2);
		CHECK_EQ(v, 2);
		memcpy(&v, d + 4, 2);
		CHECK_EQ(v, 4);
		memcpy(&w, d + 6, 4);
		CHECK_EQ(w, 0xffffffdfU);
		memcpy(&w, d + 10, 4);
		CHECK_EQ(w, 0x1ff);
		CHECK_EQ(ember_synth__cpu_map_data(NULL, 0, cpus, n), 16);
		CHECK_EQ(ember_synth__cpu_map_data(d, 8, cpus, n), -E2BIG);
	}

	CHECK_EQ(ember_synth__cpu_map_data(d, sizeof(d), (const int[]){ 1, 0 }, 2), -EINVAL);
	CHECK_EQ(ember_synth__cpu_map_data(d, sizeof(d), (const int[]){ 0 }, 0), -EINVAL);
	CHECK_EQ(ember_synth__cpu_map_data(d, sizeof(d), (const int[]){ -2 }, 1), -EINVAL);
	CHECK_EQ(ember_synth__cpu_map_data(d, sizeof(d), (const int[]){ 0, -1 }, 2), -EINVAL);
	free(r);
}

TEST(synth_thread_map_record)
{
	/* perf record -p 12003: PERF_RECORD_THREAD_MAP nr: 1 thread: 12003 */
	static const uint8_t want[40] = { 0x49, 0, 0, 0, 0, 0, 0x28, 0, 1, 0, 0, 0, 0, 0, 0, 0,
					  0xe3, 0x2e, 0, 0, 0, 0, 0, 0 };
	struct rcollect *r = rc_new();
	const char *comms[] = { "bash", NULL };
	uint64_t pid;

	CHECK_EQ(ember_synth__thread_map(rcollect, r, (const pid_t[]){ 12003 }, NULL, 1), 0);
	CHECK(!memcmp(r->last, want, sizeof(want)));

	/* -a: thread -1, stored as u64 -1. */
	CHECK_EQ(ember_synth__thread_map(rcollect, r, (const pid_t[]){ -1, 7 }, comms, 2), 0);
	CHECK_EQ(((struct perf_event_header *)r->last)->size, 16 + 2 * 24);
	memcpy(&pid, r->last + 16, 8);
	CHECK_EQ(pid, UINT64_MAX);
	CHECK_STR((const char *)r->last + 24, "bash");
	CHECK_EQ(r->last[40 + 8], 0);

	{
		static pid_t many[3000];

		CHECK_EQ(ember_synth__thread_map(rcollect, r, many, NULL, 3000), -E2BIG);
	}
	free(r);
}

TEST(synth_id_index_record)
{
	/* perf record -a: id 2330 idx 0 cpu 0 tid -1 ... */
	struct ember_synth_id_index_entry e[2] = {
		{ .id = 2330, .idx = 0, .cpu = 0, .tid = (uint64_t)-1 },
		{ .id = 2331, .idx = 1, .cpu = 1, .tid = (uint64_t)-1 },
	};
	struct rcollect *r = rc_new();
	const uint64_t *u = (const uint64_t *)r->last;
	struct ember_synth_id_index_entry *many;

	CHECK_EQ(ember_synth__id_index(rcollect, r, e, 2), 0);
	CHECK_EQ(r->last[0], 69);
	CHECK_EQ(((struct perf_event_header *)r->last)->size, 16 + 2 * 32);
	CHECK_EQ(u[1], 2);
	CHECK_EQ(u[2], 2330);
	CHECK_EQ(u[5], UINT64_MAX);
	CHECK_EQ(u[6], 2331);
	CHECK_EQ(u[7], 1);
	CHECK_EQ(u[8], 1);

	/* Split as perf: at most 2047 entries a record. */
	many = calloc(5000, sizeof(*many));
	r->nr = 0;
	r->total = 0;
	CHECK_EQ(ember_synth__id_index(rcollect, r, many, 5000), 0);
	CHECK_EQ(r->nr, 3);
	CHECK_EQ(r->total, 5000);
	CHECK_EQ(u[1], 5000 - 2 * 2047);
	r->nr = 0;
	CHECK_EQ(ember_synth__id_index(rcollect, r, many, 0), 0);
	CHECK_EQ(r->nr, 0);
	r->fail = -ENOSPC;
	CHECK_EQ(ember_synth__id_index(rcollect, r, many, 5000), -ENOSPC);
	free(many);
	free(r);
}

TEST(synth_finished_init_record)
{
	struct rcollect *r = rc_new();
	const struct perf_event_header *h = (const void *)r->last;

	CHECK_EQ(ember_synth__finished_init(rcollect, r), 0);
	CHECK_EQ(h->type, 82);
	CHECK_EQ(h->size, 8);
	CHECK_EQ(h->misc, 0);
	free(r);
}
