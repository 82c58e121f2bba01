// SPDX-License-Identifier: GPL-2.0-only
/* ember stat's counter arithmetic: aggregation per mode, multiplex scaling, interval deltas. */
#include <math.h>
#include "test.h"
#include "stat/counts.h"

static void set_raw(struct stat_counter *c, int cpu, int thread, uint64_t val, uint64_t ena,
		    uint64_t run)
{
	struct ember_counts *r = &c->raw[cpu * c->nr_threads + thread];

	r->val = val;
	r->ena = ena;
	r->run = run;
}

TEST(stat_counters_aggregate_modes)
{
	struct stat_counter *c = stat_counter__new(STAT_AGGR_GLOBAL, 2, 3);

	CHECK_EQ(stat_counter__nr_slots(STAT_AGGR_NONE, 2, 3), 2);
	CHECK_EQ(stat_counter__nr_slots(STAT_AGGR_THREAD, 2, 3), 3);
	CHECK(c != NULL);
	if (!c)
		return;
	CHECK_EQ(c->nr_slots, 1);
	for (int cpu = 0; cpu < 2; cpu++)
		for (int t = 0; t < 3; t++)
			set_raw(c, cpu, t, 10 * cpu + t, 100, 100);
	stat_counter__aggregate(c, STAT_AGGR_GLOBAL, false, true);
	CHECK_EQ(c->slots[0].counts.val, 0 + 1 + 2 + 10 + 11 + 12);
	CHECK_EQ(c->slots[0].counts.ena, 600);
	CHECK(c->slots[0].counted);
	stat_counter__delete(c);

	c = stat_counter__new(STAT_AGGR_NONE, 2, 3);
	for (int cpu = 0; cpu < 2; cpu++)
		for (int t = 0; t < 3; t++)
			set_raw(c, cpu, t, 10 * cpu + t, 100, 100);
	stat_counter__aggregate(c, STAT_AGGR_NONE, false, true);
	CHECK_EQ(c->slots[0].counts.val, 3);
	CHECK_EQ(c->slots[1].counts.val, 33);
	stat_counter__delete(c);

	c = stat_counter__new(STAT_AGGR_THREAD, 2, 3);
	for (int cpu = 0; cpu < 2; cpu++)
		for (int t = 0; t < 3; t++)
			set_raw(c, cpu, t, 10 * cpu + t, 100, 100);
	stat_counter__aggregate(c, STAT_AGGR_THREAD, false, true);
	CHECK_EQ(c->slots[0].counts.val, 10);
	CHECK_EQ(c->slots[2].counts.val, 14);
	stat_counter__delete(c);
}

TEST(stat_counters_scaling)
{
	struct stat_counter *c = stat_counter__new(STAT_AGGR_GLOBAL, 1, 1);

	if (!c)
		return;
	/* Ran a quarter of the time it was enabled: counts x4. */
	set_raw(c, 0, 0, 1000, 400, 100);
	stat_counter__aggregate(c, STAT_AGGR_GLOBAL, false, true);
	CHECK_EQ(c->slots[0].counts.val, 4000);
	CHECK_EQ(c->slots[0].counts.run, 100);
	/* --no-scale keeps the raw value. */
	stat_counter__aggregate(c, STAT_AGGR_GLOBAL, false, false);
	CHECK_EQ(c->slots[0].counts.val, 1000);
	/* Never ran: not counted, value 0. */
	set_raw(c, 0, 0, 5, 400, 0);
	stat_counter__aggregate(c, STAT_AGGR_GLOBAL, false, true);
	CHECK(!c->slots[0].counted);
	CHECK_EQ(c->slots[0].counts.val, 0);
	stat_counter__delete(c);
}

TEST(stat_counters_interval_deltas)
{
	struct stat_counter *c = stat_counter__new(STAT_AGGR_GLOBAL, 1, 1);

	if (!c)
		return;
	set_raw(c, 0, 0, 100, 1000, 1000);
	stat_counter__aggregate(c, STAT_AGGR_GLOBAL, true, true);
	CHECK_EQ(c->slots[0].counts.val, 100);
	set_raw(c, 0, 0, 150, 2000, 2000);
	stat_counter__aggregate(c, STAT_AGGR_GLOBAL, true, true);
	CHECK_EQ(c->slots[0].counts.val, 50);
	CHECK_EQ(c->slots[0].counts.ena, 1000);
	/* Nothing ran in this interval: <not counted>. */
	stat_counter__aggregate(c, STAT_AGGR_GLOBAL, true, true);
	CHECK(!c->slots[0].counted);
	/* A reopened counter starts again from zero. */
	set_raw(c, 0, 0, 7, 10, 10);
	stat_counter__aggregate(c, STAT_AGGR_GLOBAL, true, true);
	CHECK_EQ(c->slots[0].counts.val, 7);
	stat_counter__delete(c);
}

TEST(stat_counters_run_stats)
{
	struct stat_counter *c = stat_counter__new(STAT_AGGR_GLOBAL, 1, 1);
	uint64_t vals[] = { 10, 12, 14 };

	if (!c)
		return;
	for (int i = 0; i < 3; i++) {
		stat_counter__reset_raw(c);
		set_raw(c, 0, 0, vals[i], 5, 5);
		stat_counter__aggregate(c, STAT_AGGR_GLOBAL, false, true);
		stat_counter__update_stats(c);
	}
	CHECK(fabs(stat_stats__avg(&c->slots[0].res[0]) - 12) < 1e-12);
	CHECK(fabs(stat_stats__stddev(&c->slots[0].res[0]) - sqrt(4.0 / 3)) < 1e-12);
	CHECK_EQ(c->slots[0].nr_counted, 3);
	stat_counter__reset_stats(c);
	CHECK(stat_stats__avg(&c->slots[0].res[0]) == 0);
	stat_counter__delete(c);
}
