// SPDX-License-Identifier: GPL-2.0-only
/*
 * The time-ordering queue with stable memory (a mapped file): records in
 * it are handed out in place, others copied, in the same order either way,
 * also across a partial flush that compacts what stays behind.
 */
#include <stdint.h>
#include "session/ordered.h"
#include "test.h"

struct rec {
	struct perf_event_header hdr;
	uint64_t tag;
};

struct got {
	const struct perf_event_header *at[16];
	uint64_t tags[16];
	int nr;
};

static int collect(const struct perf_event_header *hdr, uint64_t file_offset,
			const void *data, void *ctx)
{
	struct got *g = ctx;

	g->at[g->nr] = hdr;
	g->tags[g->nr++] = ((const struct rec *)hdr)->tag;
	return 0;
}

TEST(ordered_stable_records_are_not_copied)
{
	static struct rec file[4], other[2];
	struct ordered_queue q;
	struct got g = { 0 };
	int i;

	for (i = 0; i < 4; i++)
		file[i] = (struct rec){ .hdr = { .type = 9, .size = sizeof(struct rec) },
					.tag = i };
	for (i = 0; i < 2; i++)
		other[i] = (struct rec){ .hdr = { .type = 9, .size = sizeof(struct rec) },
					 .tag = 10 + i };
	ordered_queue__init(&q);
	ordered_queue__stable(&q, file, sizeof(file));
	ordered_queue__push(&q, &file[0].hdr, 40, 0, NULL);
	ordered_queue__push(&q, &other[0].hdr, 10, 0, NULL);
	ordered_queue__push(&q, &file[1].hdr, 30, 0, NULL);
	ordered_queue__push(&q, &other[1].hdr, 35, 0, NULL);
	ordered_queue__push(&q, &file[2].hdr, 20, 0, NULL);
	/* the copy is what is delivered, not the caller's buffer */
	other[0].tag = other[1].tag = 99;

	/* up to 30: the rest (35 copied, 40 in place) is compacted */
	CHECK_EQ(ordered_queue__flush(&q, 30, collect, &g), 0);
	CHECK_EQ(g.nr, 3);
	CHECK_EQ(g.tags[0], 10);
	CHECK(g.at[0] != &other[0].hdr);
	CHECK_EQ(g.tags[1], 2);
	CHECK(g.at[1] == &file[2].hdr);
	CHECK_EQ(g.tags[2], 1);
	CHECK(g.at[2] == &file[1].hdr);

	ordered_queue__push(&q, &file[3].hdr, 38, 0, NULL);
	CHECK_EQ(ordered_queue__flush(&q, UINT64_MAX, collect, &g), 0);
	CHECK_EQ(g.nr, 6);
	CHECK_EQ(g.tags[3], 11);
	CHECK(g.at[3] != &other[1].hdr);
	CHECK_EQ(g.tags[4], 3);
	CHECK(g.at[4] == &file[3].hdr);
	CHECK_EQ(g.tags[5], 0);
	CHECK(g.at[5] == &file[0].hdr);
	ordered_queue__exit(&q);
}
