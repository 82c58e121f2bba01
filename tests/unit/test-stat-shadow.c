// SPDX-License-Identifier: GPL-2.0-only
/* ember stat's derived metrics and running statistics. */
#include <math.h>
#include "test.h"
#include "stat/metrics.h"

static struct perf_event_attr attr_of(unsigned int type, unsigned long long config)
{
	struct perf_event_attr a = { .type = type, .config = config };
	return a;
}

TEST(stat_shadow_kinds)
{
	struct perf_event_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);

	CHECK_EQ(stat_kind__of(&a), STAT_KIND_CLOCK);
	a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	CHECK_EQ(stat_kind__of(&a), STAT_KIND_OTHER);
	a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES);
	CHECK_EQ(stat_kind__of(&a), STAT_KIND_BRANCH_MISSES);
	a = attr_of(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D |
					(PERF_COUNT_HW_CACHE_OP_READ << 8) |
					(PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
	CHECK_EQ(stat_kind__of(&a), STAT_KIND_L1D_LOAD_MISSES);
	a = attr_of(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_LL);
	CHECK_EQ(stat_kind__of(&a), STAT_KIND_LL_LOADS);
	a = attr_of(PERF_TYPE_HW_CACHE,
		    PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_WRITE << 8));
	CHECK_EQ(stat_kind__of(&a), STAT_KIND_OTHER);
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	CHECK(stat_ctx__of(&a) != 0);
}

TEST(stat_shadow_software_metrics)
{
	struct stat_metrics sh;
	struct stat_metric m[2];

	stat_metrics__init(&sh);
	/* No clock counter: no metric at all. */
	CHECK_EQ(stat_metrics__metrics(&sh, STAT_KIND_OTHER, 0, 0, 49, 1, m), 1);
	CHECK(m[0].unit == NULL);

	stat_metrics__update(&sh, STAT_KIND_CLOCK, 0, 0, 740000);	/* 0.74 ms */
	stat_metrics__update_walltime(&sh, 1458312);
	CHECK_EQ(stat_metrics__metrics(&sh, STAT_KIND_CLOCK, 0, 0, 0.74, 1e-6, m), 1);
	CHECK_STR(m[0].unit, "CPUs utilized");
	CHECK(fabs(m[0].val - 0.74e6 / 1458312) < 1e-9);

	stat_metrics__metrics(&sh, STAT_KIND_OTHER, 0, 0, 49, 1, m);
	CHECK_STR(m[0].unit, "K/sec");
	CHECK_STR(m[0].fmt, "%8.3f");
	CHECK(fabs(m[0].val - 66.216) < 0.001);
	stat_metrics__metrics(&sh, STAT_KIND_OTHER, 0, 0, 0, 1, m);
	CHECK_STR(m[0].unit, "/sec");
	stat_metrics__metrics(&sh, STAT_KIND_OTHER, 0, 0, 1e6, 1, m);
	CHECK_STR(m[0].unit, "G/sec");
	/* Clocks serve counters of any context ("page-faults:u" per "task-clock"), as in perf. */
	stat_metrics__metrics(&sh, STAT_KIND_OTHER, 3, 0, 49, 1, m);
	CHECK_STR(m[0].unit, "K/sec");
	/* Hardware ratios only pair counters of the same context. */
	stat_metrics__update(&sh, STAT_KIND_BRANCHES, 1, 0, 100);
	stat_metrics__metrics(&sh, STAT_KIND_BRANCH_MISSES, 0, 0, 1, 1, m);
	CHECK(m[0].fmt == NULL);
	stat_metrics__metrics(&sh, STAT_KIND_BRANCH_MISSES, 1, 0, 1, 1, m);
	CHECK_STR(m[0].fmt, "%7.2f%%");
	/* Nor has another cpu. */
	stat_metrics__metrics(&sh, STAT_KIND_OTHER, 0, 1, 49, 1, m);
	CHECK(m[0].unit == NULL);

	/* Two clocks average, as perf's runtime stats do. */
	stat_metrics__update(&sh, STAT_KIND_CLOCK, 0, 0, 760000);
	stat_metrics__metrics(&sh, STAT_KIND_OTHER, 0, 0, 75, 1, m);
	CHECK(fabs(m[0].val - 100.0) < 1e-9);

	stat_metrics__reset(&sh);
	stat_metrics__metrics(&sh, STAT_KIND_CLOCK, 0, 0, 0.74, 1e-6, m);
	CHECK(m[0].fmt == NULL);
	stat_metrics__exit(&sh);
}

TEST(stat_shadow_hardware_metrics)
{
	struct stat_metrics sh;
	struct stat_metric m[2];

	stat_metrics__init(&sh);
	stat_metrics__metrics(&sh, STAT_KIND_INSTRUCTIONS, 0, 0, 100, 1, m);
	CHECK(m[0].fmt == NULL);
	CHECK_STR(m[0].unit, "insn per cycle");
	stat_metrics__metrics(&sh, STAT_KIND_CYCLES, 0, 0, 100, 1, m);
	CHECK_STR(m[0].unit, "Ghz");

	stat_metrics__update(&sh, STAT_KIND_CYCLES, 0, 0, 200);
	stat_metrics__update(&sh, STAT_KIND_STALLED_FRONT, 0, 0, 50);
	stat_metrics__update(&sh, STAT_KIND_BRANCHES, 0, 0, 1000);
	stat_metrics__update(&sh, STAT_KIND_CLOCK, 0, 0, 100);
	CHECK_EQ(stat_metrics__metrics(&sh, STAT_KIND_INSTRUCTIONS, 0, 0, 100, 1, m), 2);
	CHECK(fabs(m[0].val - 0.5) < 1e-9);
	CHECK_STR(m[1].unit, "stalled cycles per insn");
	CHECK(fabs(m[1].val - 0.5) < 1e-9);
	stat_metrics__metrics(&sh, STAT_KIND_BRANCH_MISSES, 0, 0, 10, 1, m);
	CHECK_STR(m[0].fmt, "%7.2f%%");
	CHECK_STR(m[0].unit, "of all branches");
	CHECK(fabs(m[0].val - 1.0) < 1e-9);
	stat_metrics__metrics(&sh, STAT_KIND_STALLED_FRONT, 0, 0, 50, 1, m);
	CHECK_STR(m[0].unit, "frontend cycles idle");
	CHECK(fabs(m[0].val - 25.0) < 1e-9);
	stat_metrics__metrics(&sh, STAT_KIND_CYCLES, 0, 0, 200, 1, m);
	CHECK_STR(m[0].unit, "GHz");
	CHECK(fabs(m[0].val - 2.0) < 1e-9);
	stat_metrics__metrics(&sh, STAT_KIND_L1D_LOAD_MISSES, 0, 0, 1, 1, m);
	CHECK(m[0].fmt == NULL);
	CHECK_STR(m[0].unit, "of all L1-dcache accesses");
	stat_metrics__exit(&sh);
}

TEST(stat_stats_noise)
{
	struct stat_stats s;

	stat_stats__init(&s);
	CHECK(stat_stats__stddev(&s) == 0);
	stat_stats__update(&s, 10);
	CHECK(stat_stats__stddev(&s) == 0);
	stat_stats__update(&s, 12);
	stat_stats__update(&s, 14);
	CHECK(fabs(stat_stats__avg(&s) - 12) < 1e-12);
	/* sample variance 4, error of the mean sqrt(4/3) */
	CHECK(fabs(stat_stats__stddev(&s) - sqrt(4.0 / 3)) < 1e-12);
	CHECK(fabs(stat_stats__rel_stddev(stat_stats__stddev(&s), 12) - 100 * sqrt(4.0 / 3) / 12) <
	      1e-9);
	CHECK(stat_stats__rel_stddev(1, 0) == 0);
}
