// SPDX-License-Identifier: GPL-2.0-only
/*
 * The time-ordering queue against a reference: random rounds of records
 * from a few or many "cpus" (each ascending, as a cpu buffer is, or not
 * at all), flushed at random limits, some flushes stopped early by the
 * callback; every record must come out once, in (time, arrival) order
 * among those flushed together, and exactly those up to the limit. The
 * records are copied (no stable memory) and, in every other round,
 * partly in a stable buffer, so both kinds of entries move around.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "session/ordered.h"
#include "test.h"

#define MAX_RECS 4096

struct rec {
	struct perf_event_header hdr;
	uint64_t tag;
};

struct ref {
	uint64_t time, tag;
	int done;
};

struct run_ctx {
	struct ref *ref;
	size_t nr_ref;
	uint64_t limit;
	int stop_after, nr_seen, bad;
	uint64_t last_time, last_tag;
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int deliver(const struct perf_event_header *hdr, uint64_t file_offset,
			const void *data, void *arg)
{
	struct run_ctx *c = arg;
	const struct rec *r = (const void *)hdr;
	struct ref *ref = &c->ref[r->tag];

	/* Each once, at most the limit, in (time, arrival) order, offset and data kept. */
	if (r->tag >= c->nr_ref || ref->done || ref->time > c->limit || file_offset != r->tag * 8 ||
	    data != ref ||
	    (c->nr_seen && (ref->time < c->last_time ||
			    (ref->time == c->last_time && r->tag < c->last_tag))))
		c->bad++;
	ref->done = 1;
	c->last_time = ref->time;
	c->last_tag = r->tag;
	c->nr_seen++;
	return c->stop_after && c->nr_seen == c->stop_after ? 5 : 0;
}

TEST(ordered_random_rounds_against_reference)
{
	static struct ref ref[MAX_RECS];
	static struct rec stable[MAX_RECS];
	uint64_t s = 0x2545f4914f6cdd1dull;

	for (int iter = 0; iter < 300; iter++) {
		struct ordered_queue q;
		struct run_ctx c = { .ref = ref };
		size_t nr = 0;
		int cpus = 1 + rnd(&s) % (iter % 3 ? 4 : 16);
		uint64_t now = 1000;
		bool use_stable = iter % 2;

		ordered_queue__init(&q);
		if (use_stable)
			ordered_queue__stable(&q, stable, sizeof(stable));
		memset(ref, 0, sizeof(ref));
		while (nr < MAX_RECS - 64) {
			int batch = 1 + rnd(&s) % 60;
			uint64_t cpu_time[16];
			int ret;

			for (int k = 0; k < cpus; k++)
				cpu_time[k] = now + rnd(&s) % 50;
			/* A round: each cpu's records ascending, cpus one after another. */
			for (int k = 0; k < cpus && nr < MAX_RECS - 64; k++) {
				for (int j = 0; j < batch / cpus + 1; j++) {
					struct rec r = { .hdr = { .type = 9, .size = sizeof(r) },
							 .tag = nr };

					cpu_time[k] += rnd(&s) % 3; /* ties too */
					if (iter % 7 == 0)
						cpu_time[k] = now + rnd(&s) % 100; /* no order at all */
					ref[nr].time = cpu_time[k];
					ref[nr].tag = nr;
					if (use_stable && rnd(&s) % 2) {
						stable[nr] = r;
						ordered_queue__push(&q, &stable[nr].hdr, cpu_time[k], nr * 8,
								    &ref[nr]);
					} else {
						ordered_queue__push(&q, &r.hdr, cpu_time[k], nr * 8, &ref[nr]);
					}
					nr++;
				}
			}
			now += 40;
			c.nr_ref = nr;
			c.limit = now - rnd(&s) % 80;
			c.nr_seen = 0;
			c.stop_after = rnd(&s) % 5 == 0 ? 1 + rnd(&s) % 20 : 0;
			ret = ordered_queue__flush(&q, c.limit, deliver, &c);
			if (ret && ret != 5)
				c.bad++;
			/* Without a stop, nothing at most the limit stays behind. */
			if (!ret)
				for (size_t i = 0; i < nr; i++)
					if (!ref[i].done && ref[i].time <= c.limit)
						c.bad++;
		}
		c.limit = UINT64_MAX;
		c.nr_seen = 0;
		c.stop_after = 0;
		CHECK_EQ(ordered_queue__flush(&q, UINT64_MAX, deliver, &c), 0);
		for (size_t i = 0; i < nr; i++)
			if (!ref[i].done)
				c.bad++;
		CHECK_EQ(c.bad, 0);
		ordered_queue__exit(&q);
		if (c.bad)
			break;
	}
}
