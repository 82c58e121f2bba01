// SPDX-License-Identifier: GPL-2.0-only
/* The time-ordering queue: perf's order (time, then arrival) and its round limits. */
#include <stdlib.h>
#include <string.h>
#include "session/ordered.h"
#include "test.h"

struct rec {
	struct perf_event_header hdr;
	uint64_t tag;
};

struct seen {
	uint64_t tags[64];
	int nr;
	int stop_after;
	int bad_data;		/* records handed back without the data pushed with them */
};

/* What push() queues with a record: something of its own to hand back. */
static const char tag_data[64];

static int collect(const struct perf_event_header *hdr, uint64_t file_offset,
			const void *data, void *ctx)
{
	struct seen *s = ctx;
	const struct rec *r = (const void *)hdr;

	s->tags[s->nr++] = r->tag;
	s->bad_data += data != &tag_data[r->tag % 64];
	return s->stop_after && s->nr == s->stop_after ? 7 : 0;
}

static void push(struct ordered_queue *q, uint64_t time, uint64_t tag)
{
	struct rec r = { .hdr = { .type = 9, .size = sizeof(r) }, .tag = tag };

	ordered_queue__push(q, &r.hdr, time, tag * 8, &tag_data[tag % 64]);
}

TEST(ordered_sorts_by_time_then_arrival)
{
	struct ordered_queue q;
	struct seen s = { 0 };

	ordered_queue__init(&q);
	push(&q, 30, 1);
	push(&q, 10, 2);
	push(&q, 20, 3);
	push(&q, 10, 4); /* same time as 2: after it */
	push(&q, 5, 5);
	CHECK_EQ(ordered_queue__flush(&q, UINT64_MAX, collect, &s), 0);
	CHECK_EQ(s.nr, 5);
	CHECK_EQ(s.bad_data, 0);
	CHECK_EQ(s.tags[0], 5);
	CHECK_EQ(s.tags[1], 2);
	CHECK_EQ(s.tags[2], 4);
	CHECK_EQ(s.tags[3], 3);
	CHECK_EQ(s.tags[4], 1);
	ordered_queue__exit(&q);
}

TEST(ordered_flush_stops_at_limit_and_keeps_the_rest)
{
	struct ordered_queue q;
	struct seen s = { 0 };

	ordered_queue__init(&q);
	for (int i = 0; i < 40; i++)
		push(&q, (uint64_t)(40 - i), (uint64_t)i);
	CHECK_EQ(ordered_queue__flush(&q, 20, collect, &s), 0);
	CHECK_EQ(s.nr, 20);
	CHECK_EQ(s.tags[0], 39); /* time 1 */
	CHECK_EQ(q.nr, 20);
	/* Late arrival below the last flushed time: counted, still delivered in order. */
	push(&q, 3, 100);
	CHECK_EQ(q.nr_unordered, 1);
	push(&q, 25, 101);
	CHECK_EQ(ordered_queue__flush(&q, UINT64_MAX, collect, &s), 0);
	CHECK_EQ(s.nr, 42);
	CHECK_EQ(s.tags[20], 100);
	CHECK_EQ(s.tags[21], 19); /* time 21 */
	CHECK_EQ(q.nr, 0);
	ordered_queue__exit(&q);
}

TEST(ordered_callback_stop_is_returned)
{
	struct ordered_queue q;
	struct seen s = { .stop_after = 2 };

	ordered_queue__init(&q);
	for (int i = 0; i < 5; i++)
		push(&q, (uint64_t)i, (uint64_t)i);
	CHECK_EQ(ordered_queue__flush(&q, UINT64_MAX, collect, &s), 7);
	CHECK_EQ(s.nr, 2);
	CHECK_EQ(q.nr, 3); /* the rest waits */
	s.stop_after = 0;
	CHECK_EQ(ordered_queue__flush(&q, UINT64_MAX, collect, &s), 0);
	CHECK_EQ(s.nr, 5);
	CHECK_EQ(s.tags[4], 4);
	ordered_queue__exit(&q);
}

struct seen_all {
	uint64_t prev_time, prev_tag;
	int nr, bad;
	uint64_t *time_of;	/* by tag */
};

static int check_order(const struct perf_event_header *hdr, uint64_t file_offset,
			const void *data, void *ctx)
{
	struct seen_all *s = ctx;
	const struct rec *r = (const void *)hdr;
	uint64_t t = s->time_of[r->tag];

	if (s->nr && (t < s->prev_time || (t == s->prev_time && r->tag < s->prev_tag)))
		s->bad++;
	s->bad += data != &tag_data[r->tag % 64]; /* each record with its own data */
	s->prev_time = t;
	s->prev_tag = r->tag;
	s->nr++;
	return 0;
}

/* Interleaved ascending runs (per-CPU buffers), many ties, flushed in rounds: perf's order. */
TEST(ordered_merges_runs_stably)
{
	enum { N = 5000 };
	uint64_t *time_of = calloc(N, sizeof(*time_of));
	struct seen_all s = { .time_of = time_of };
	struct ordered_queue q;
	uint64_t tag = 0, cpu_time[4] = { 0, 3, 1, 7 };

	ordered_queue__init(&q);
	srand(7);
	while (tag < N) {
		/* a round: each cpu adds a run of its own ascending times */
		for (int c = 0; c < 4 && tag < N; c++) {
			int len = rand() % 40;

			for (int i = 0; i < len && tag < N; i++) {
				cpu_time[c] += rand() % 3; /* ties within and across runs */
				time_of[tag] = cpu_time[c];
				push(&q, cpu_time[c], tag++);
			}
		}
		uint64_t limit = cpu_time[0];

		/* nothing to come is older than every cpu's last time */
		for (int c = 1; c < 4; c++)
			if (cpu_time[c] < limit)
				limit = cpu_time[c];
		CHECK_EQ(ordered_queue__flush(&q, limit, check_order, &s), 0);
	}
	CHECK_EQ(ordered_queue__flush(&q, UINT64_MAX, check_order, &s), 0);
	CHECK_EQ(s.nr, N);
	CHECK_EQ(s.bad, 0);
	ordered_queue__exit(&q);
	free(time_of);
}
