// SPDX-License-Identifier: GPL-2.0-only
/* lib/systrace's summaries: the kernel's 128-bit squares, perf's figures, threads and syscalls. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <ember/systrace-summary.h>
#include "systrace/summary.h"
#include "test.h"

TEST(systrace_summary_squares)
{
	static const uint64_t d[] = { 0, 1, 3, 0xffffffffULL, 0x100000000ULL, 0x123456789abcdefULL,
				      1ULL << 63, UINT64_MAX, 987654321, 0x80000001ULL };
	unsigned __int128 want = 0;
	__u64 lo = 0, hi = 0;

	/* the same 64-bit steps the BPF program takes, against the compiler's 128 bits */
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
			want += (unsigned __int128)d[i] * d[i];
			summary_add_square(&lo, &hi, d[i]);
			CHECK(lo == (uint64_t)want);
			CHECK(hi == (uint64_t)(want >> 64));
		}
}

/* perf's update_stats() and stddev_stats(): Welford's mean and M2 in doubles. */
static double perf_stddev(const uint64_t *v, int n, double *mean)
{
	double m = 0, m2 = 0;

	for (int i = 0; i < n; i++) {
		double delta = v[i] - m;

		m += delta / (i + 1);
		m2 += delta * (v[i] - m);
	}
	*mean = m;
	return n < 2 ? 0 : sqrt(m2 / (n - 1) / n);
}

TEST(systrace_summary_figures)
{
	static const uint64_t a[] = { 21000, 25000, 37000, 19000, 190000 };
	static const uint64_t b[] = { 1000000000ULL, 1000000001ULL, 999999999ULL, 1000000000ULL };
	struct ember_syscall_stats s = { .min = UINT64_MAX };
	double mean, want;

	CHECK(ember_syscall_stats__mean(&s) == 0);
	CHECK(ember_syscall_stats__stddev(&s) == 0);
	for (int i = 0; i < 5; i++)
		ember_syscall_stats__add(&s, a[i], i == 1);
	CHECK_EQ(s.calls, 5);
	CHECK_EQ(s.errors, 1);
	CHECK_EQ(s.total, 292000);
	CHECK_EQ(s.min, 19000);
	CHECK_EQ(s.max, 190000);
	/* calls added one by one: perf's own running figures, to the last bit */
	want = perf_stddev(a, 5, &mean);
	CHECK(ember_syscall_stats__mean(&s) == mean);
	CHECK(ember_syscall_stats__stddev(&s) == want);
	/* counted elsewhere (the kernel's sums): exact figures, perf's within rounding */
	s.welford_n = 0;
	CHECK(fabs(ember_syscall_stats__mean(&s) - mean) < 1e-6);
	CHECK(fabs(ember_syscall_stats__stddev(&s) - want) < 1e-6 * want);
	/* long calls that hardly differ: no cancellation in the exact sums */
	s = (struct ember_syscall_stats){ .min = UINT64_MAX };
	for (int i = 0; i < 4; i++)
		ember_syscall_stats__add(&s, b[i], false);
	want = perf_stddev(b, 4, &mean);
	CHECK(fabs(ember_syscall_stats__stddev(&s) - want) < 1e-6);
	/* one call: no spread */
	s = (struct ember_syscall_stats){ .min = UINT64_MAX };
	ember_syscall_stats__add(&s, 5, false);
	CHECK(ember_syscall_stats__stddev(&s) == 0);
}

TEST(systrace_summary_errnos)
{
	struct ember_syscall_stats s = { .min = UINT64_MAX };

	CHECK_EQ(s.max_errno, 0);
	CHECK_EQ(ember_syscall_stats__add_errno(&s, 2, 3), 0);
	CHECK_EQ(ember_syscall_stats__add_errno(&s, 9, 1), 0);
	CHECK_EQ(ember_syscall_stats__add_errno(&s, 2, 1), 0);
	CHECK_EQ(s.max_errno, 9);
	CHECK(s.errnos && s.errnos[1] == 4 && s.errnos[8] == 1);
	for (int e = 3; s.errnos && e < 9; e++)
		CHECK(s.errnos[e - 1] == 0);
	CHECK_EQ(ember_syscall_stats__add_errno(&s, 0, 1), -EINVAL);
	CHECK_EQ(ember_syscall_stats__add_errno(&s, -5, 1), -EINVAL);
	CHECK_EQ(ember_syscall_stats__add_errno(&s, 4096, 1), -EINVAL);
	free(s.errnos);
}

TEST(systrace_summary_threads)
{
	struct ember_syscall_summary *s = ember_syscall_summary__new();
	struct ember_syscall_summary_thread *th;
	struct ember_syscall_stats *st;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(ember_syscall_summary__nr_threads(s), 0);
	for (int tid = 100; tid < 400; tid++) {
		th = ember_syscall_summary__thread(s, 100, tid);
		CHECK(th && th->tid == tid && th->pid == 100 && th->events == 0);
	}
	CHECK_EQ(ember_syscall_summary__nr_threads(s), 300);
	th = ember_syscall_summary__thread(s, 1, 250);
	CHECK(th == ember_syscall_summary__thread_at(s, 150));
	CHECK_EQ(th->pid, 100);
	st = ember_syscall_summary_thread__stats(th, 0);
	CHECK(st && st->calls == 0 && st->min == UINT64_MAX);
	ember_syscall_stats__add(st, 7, true);
	CHECK(ember_syscall_summary_thread__stats(th, 1) != NULL);
	st = ember_syscall_summary_thread__stats(th, 0);
	CHECK(st && st->calls == 1 && st->errors == 1 && st->min == 7);
	CHECK_EQ(th->nr_entries, 2);
	CHECK(ember_syscall_summary__thread_at(s, 300) == NULL);
	CHECK(ember_syscall_summary__thread_at(s, -1) == NULL);
	ember_syscall_summary__delete(s);
	ember_syscall_summary__delete(NULL);
}
