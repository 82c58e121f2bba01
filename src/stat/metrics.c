// SPDX-License-Identifier: GPL-2.0-only
/* Derived metrics: the store of totals and perf 6.1's metric for each kind of counter. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stat/metrics.h"

/* The totals metrics divide by. */
enum stat_total {
	TOTAL_NSECS,
	TOTAL_CYCLES,
	TOTAL_STALLED_FRONT,
	TOTAL_STALLED_BACK,
	TOTAL_BRANCHES,
	TOTAL_CACHEREFS,
	TOTAL_L1D,
	TOTAL_L1I,
	TOTAL_LL,
	TOTAL_DTLB,
	TOTAL_ITLB,
	TOTAL_NONE,
};

struct stat_metrics_entry {
	enum stat_total total;
	int ctx, slot;
	struct stat_stats stats;
};

#define CTX_BIT_USER	(1 << 0)
#define CTX_BIT_KERNEL	(1 << 1)
#define CTX_BIT_HV	(1 << 2)
#define CTX_BIT_HOST	(1 << 3)
#define CTX_BIT_IDLE	(1 << 4)

int stat_ctx__of(const struct perf_event_attr *attr)
{
	int ctx = 0;

	if (attr->exclude_kernel)
		ctx |= CTX_BIT_KERNEL;
	if (attr->exclude_user)
		ctx |= CTX_BIT_USER;
	if (attr->exclude_hv)
		ctx |= CTX_BIT_HV;
	if (attr->exclude_host)
		ctx |= CTX_BIT_HOST;
	if (attr->exclude_idle)
		ctx |= CTX_BIT_IDLE;
	return ctx;
}

static enum stat_kind hw_kind(unsigned long long config)
{
	switch (config) {
	case PERF_COUNT_HW_CPU_CYCLES:
		return STAT_KIND_CYCLES;
	case PERF_COUNT_HW_INSTRUCTIONS:
		return STAT_KIND_INSTRUCTIONS;
	case PERF_COUNT_HW_BRANCH_INSTRUCTIONS:
		return STAT_KIND_BRANCHES;
	case PERF_COUNT_HW_BRANCH_MISSES:
		return STAT_KIND_BRANCH_MISSES;
	case PERF_COUNT_HW_CACHE_REFERENCES:
		return STAT_KIND_CACHE_REFS;
	case PERF_COUNT_HW_CACHE_MISSES:
		return STAT_KIND_CACHE_MISSES;
	case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND:
		return STAT_KIND_STALLED_FRONT;
	case PERF_COUNT_HW_STALLED_CYCLES_BACKEND:
		return STAT_KIND_STALLED_BACK;
	default:
		return STAT_KIND_OTHER;
	}
}

/* Only read accesses and read misses pair up, as in perf. */
static enum stat_kind cache_kind(unsigned long long config)
{
	unsigned int cache = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;
	bool miss = res == PERF_COUNT_HW_CACHE_RESULT_MISS;

	if (op != PERF_COUNT_HW_CACHE_OP_READ || config >> 24)
		return STAT_KIND_OTHER;
	if (!miss && res != PERF_COUNT_HW_CACHE_RESULT_ACCESS)
		return STAT_KIND_OTHER;
	switch (cache) {
	case PERF_COUNT_HW_CACHE_L1D:
		return miss ? STAT_KIND_L1D_LOAD_MISSES : STAT_KIND_L1D_LOADS;
	case PERF_COUNT_HW_CACHE_L1I:
		return miss ? STAT_KIND_L1I_LOAD_MISSES : STAT_KIND_L1I_LOADS;
	case PERF_COUNT_HW_CACHE_LL:
		return miss ? STAT_KIND_LL_LOAD_MISSES : STAT_KIND_LL_LOADS;
	case PERF_COUNT_HW_CACHE_DTLB:
		return miss ? STAT_KIND_DTLB_LOAD_MISSES : STAT_KIND_DTLB_LOADS;
	case PERF_COUNT_HW_CACHE_ITLB:
		return miss ? STAT_KIND_ITLB_LOAD_MISSES : STAT_KIND_ITLB_LOADS;
	default:
		return STAT_KIND_OTHER;
	}
}

enum stat_kind stat_kind__of(const struct perf_event_attr *attr)
{
	switch (attr->type) {
	case PERF_TYPE_SOFTWARE:
		if (attr->config == PERF_COUNT_SW_TASK_CLOCK ||
		    attr->config == PERF_COUNT_SW_CPU_CLOCK)
			return STAT_KIND_CLOCK;
		return STAT_KIND_OTHER;
	case PERF_TYPE_HARDWARE:
		return hw_kind(attr->config);
	case PERF_TYPE_HW_CACHE:
		return cache_kind(attr->config);
	default:
		return STAT_KIND_OTHER;
	}
}

/* Which total a kind of counter contributes to. */
static enum stat_total total_of(enum stat_kind kind)
{
	switch (kind) {
	case STAT_KIND_CLOCK:
		return TOTAL_NSECS;
	case STAT_KIND_CYCLES:
		return TOTAL_CYCLES;
	case STAT_KIND_STALLED_FRONT:
		return TOTAL_STALLED_FRONT;
	case STAT_KIND_STALLED_BACK:
		return TOTAL_STALLED_BACK;
	case STAT_KIND_BRANCHES:
		return TOTAL_BRANCHES;
	case STAT_KIND_CACHE_REFS:
		return TOTAL_CACHEREFS;
	case STAT_KIND_L1D_LOADS:
		return TOTAL_L1D;
	case STAT_KIND_L1I_LOADS:
		return TOTAL_L1I;
	case STAT_KIND_LL_LOADS:
		return TOTAL_LL;
	case STAT_KIND_DTLB_LOADS:
		return TOTAL_DTLB;
	case STAT_KIND_ITLB_LOADS:
		return TOTAL_ITLB;
	default:
		return TOTAL_NONE;
	}
}

void stat_metrics__init(struct stat_metrics *sh)
{
	memset(sh, 0, sizeof(*sh));
}

void stat_metrics__exit(struct stat_metrics *sh)
{
	free(sh->entries);
	stat_metrics__init(sh);
}

void stat_metrics__reset(struct stat_metrics *sh)
{
	sh->nr = 0;
	stat_stats__init(&sh->walltime);
}

static struct stat_metrics_entry *find(const struct stat_metrics *sh, enum stat_total total,
				       int ctx, int slot)
{
	for (int i = 0; i < sh->nr; i++) {
		struct stat_metrics_entry *e = &sh->entries[i];

		if (e->total == total && e->ctx == ctx && e->slot == slot)
			return e;
	}
	return NULL;
}

int stat_metrics__update(struct stat_metrics *sh, enum stat_kind kind, int ctx, int slot,
			 double count)
{
	enum stat_total total = total_of(kind);
	struct stat_metrics_entry *e;

	if (total == TOTAL_NONE)
		return 0;
	if (total == TOTAL_NSECS)
		ctx = 0;
	e = find(sh, total, ctx, slot);
	if (!e) {
		if (sh->nr == sh->alloc) {
			int alloc = sh->alloc ? sh->alloc * 2 : 16;
			void *p = realloc(sh->entries, alloc * sizeof(*sh->entries));

			if (!p)
				return -ENOMEM;
			sh->entries = p;
			sh->alloc = alloc;
		}
		e = &sh->entries[sh->nr++];
		e->total = total;
		e->ctx = ctx;
		e->slot = slot;
		stat_stats__init(&e->stats);
	}
	stat_stats__update(&e->stats, count);
	return 0;
}

void stat_metrics__update_walltime(struct stat_metrics *sh, double ns)
{
	stat_stats__update(&sh->walltime, ns);
}

/* The mean of a total; *present tells whether any counter fed it. */
static double total_avg(const struct stat_metrics *sh, enum stat_total total, int ctx, int slot,
			bool *present)
{
	/* perf 6.1 divides by the clocks whatever the modifiers: "page-faults:u" per task-clock. */
	const struct stat_metrics_entry *e = find(sh, total, total == TOTAL_NSECS ? 0 : ctx, slot);

	if (present)
		*present = e && e->stats.n > 0;
	return e ? stat_stats__avg(&e->stats) : 0.0;
}

static void set(struct stat_metric *m, const char *fmt, const char *unit, double val)
{
	m->fmt = fmt;
	m->unit = unit;
	m->val = val;
}

/* "x% of all <what>": a miss count over its access count. */
static void miss_ratio(const struct stat_metrics *sh, enum stat_total total, int ctx, int slot,
		       double avg, const char *unit, struct stat_metric *m)
{
	bool present;
	double t = total_avg(sh, total, ctx, slot, &present);

	if (!present) {
		set(m, NULL, unit, 0);
		return;
	}
	set(m, "%7.2f%%", unit, t ? avg / t * 100.0 : 0.0);
}

/* Events per second of the clock counters' time, with perf's K/M/G prefix. */
static void per_sec(const struct stat_metrics *sh, int ctx, int slot, double avg,
		    struct stat_metric *m)
{
	bool present;
	double t = total_avg(sh, TOTAL_NSECS, ctx, slot, &present), ratio = 0;
	char prefix = 0;

	if (!present) {
		set(m, NULL, NULL, 0);
		return;
	}
	if (t) {
		ratio = 1e9 * avg / t;
		if (ratio >= 1e9) {
			ratio /= 1e9;
			prefix = 'G';
		} else if (ratio >= 1e6) {
			ratio /= 1e6;
			prefix = 'M';
		} else if (ratio >= 1e3) {
			ratio /= 1e3;
			prefix = 'K';
		}
	}
	if (prefix)
		snprintf(m->unit_buf, sizeof(m->unit_buf), "%c/sec", prefix);
	else
		snprintf(m->unit_buf, sizeof(m->unit_buf), "/sec");
	set(m, "%8.3f", m->unit_buf, ratio);
}

static int instructions(const struct stat_metrics *sh, int ctx, int slot, double avg,
			struct stat_metric m[2])
{
	double cycles = total_avg(sh, TOTAL_CYCLES, ctx, slot, NULL);
	double front = total_avg(sh, TOTAL_STALLED_FRONT, ctx, slot, NULL);
	double back = total_avg(sh, TOTAL_STALLED_BACK, ctx, slot, NULL);
	double stalled = front > back ? front : back;

	if (cycles)
		set(&m[0], "%7.2f ", "insn per cycle", avg / cycles);
	else
		set(&m[0], NULL, "insn per cycle", 0);
	if (stalled && avg) {
		set(&m[1], "%7.2f ", "stalled cycles per insn", stalled / avg);
		return 2;
	}
	return 1;
}

static void stalled(const struct stat_metrics *sh, int ctx, int slot, double avg, const char *unit,
		    struct stat_metric *m)
{
	double cycles = total_avg(sh, TOTAL_CYCLES, ctx, slot, NULL);
	double ratio = cycles ? avg / cycles * 100 : 0;

	if (ratio)
		set(m, "%7.2f%%", unit, ratio);
	else
		set(m, NULL, unit, 0);
}

int stat_metrics__metrics(const struct stat_metrics *sh, enum stat_kind kind, int ctx, int slot,
			  double avg, double scale, struct stat_metric m[2])
{
	double t, wall;
	bool present;

	switch (kind) {
	case STAT_KIND_CLOCK:
		wall = stat_stats__avg(&sh->walltime);
		if (wall && scale)
			set(&m[0], "%8.3f", "CPUs utilized", avg / (wall * scale));
		else
			set(&m[0], NULL, "CPUs utilized", 0);
		return 1;
	case STAT_KIND_INSTRUCTIONS:
		return instructions(sh, ctx, slot, avg, m);
	case STAT_KIND_BRANCH_MISSES:
		miss_ratio(sh, TOTAL_BRANCHES, ctx, slot, avg, "of all branches", &m[0]);
		return 1;
	case STAT_KIND_L1D_LOAD_MISSES:
		miss_ratio(sh, TOTAL_L1D, ctx, slot, avg, "of all L1-dcache accesses", &m[0]);
		return 1;
	case STAT_KIND_L1I_LOAD_MISSES:
		miss_ratio(sh, TOTAL_L1I, ctx, slot, avg, "of all L1-icache accesses", &m[0]);
		return 1;
	case STAT_KIND_DTLB_LOAD_MISSES:
		miss_ratio(sh, TOTAL_DTLB, ctx, slot, avg, "of all dTLB cache accesses", &m[0]);
		return 1;
	case STAT_KIND_ITLB_LOAD_MISSES:
		miss_ratio(sh, TOTAL_ITLB, ctx, slot, avg, "of all iTLB cache accesses", &m[0]);
		return 1;
	case STAT_KIND_LL_LOAD_MISSES:
		miss_ratio(sh, TOTAL_LL, ctx, slot, avg, "of all LL-cache accesses", &m[0]);
		return 1;
	case STAT_KIND_CACHE_MISSES:
		t = total_avg(sh, TOTAL_CACHEREFS, ctx, slot, &present);
		if (present)
			set(&m[0], "%8.3f %%", "of all cache refs", t ? avg * 100 / t : 0);
		else
			set(&m[0], NULL, "of all cache refs", 0);
		return 1;
	case STAT_KIND_STALLED_FRONT:
		stalled(sh, ctx, slot, avg, "frontend cycles idle", &m[0]);
		return 1;
	case STAT_KIND_STALLED_BACK:
		stalled(sh, ctx, slot, avg, "backend cycles idle", &m[0]);
		return 1;
	case STAT_KIND_CYCLES:
		t = total_avg(sh, TOTAL_NSECS, ctx, slot, NULL);
		if (t)
			set(&m[0], "%8.3f", "GHz", avg / t);
		else
			/* sic: perf's spelling when there is no clock */
			set(&m[0], NULL, "Ghz", 0);
		return 1;
	default:
		per_sec(sh, ctx, slot, avg, &m[0]);
		return 1;
	}
}
