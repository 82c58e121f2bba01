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
};

static int collect(const struct perf_event_header *hdr, uint64_t file_offset, void *ctx)
{
	struct seen *s = ctx;
	const struct rec *r = (const void *)hdr;

	s->tags[s->nr++] = r->tag;
	return s->stop_after && s->nr == s->stop_after ? 7 : 0;
}

static void push(struct ordered_queue *q, uint64_t time, uint64_t tag)
{
	struct rec r = { .hdr = { .type = 9, .size = sizeof(r) }, .tag = tag };

	ordered_queue__push(q, &r.hdr, time, tag * 8);
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
