// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Syscall summaries: threads, each with its syscalls' statistics, and perf's figures of them. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <ember/systrace-summary.h>
#include "core/array.h"
#include "core/hash.h"
#include "core/hashtab.h"
#include "systrace/summary.h"

struct ember_syscall_summary {
	struct ember_syscall_summary_thread *threads;
	size_t nr_threads, alloc;
	struct hashtab by_tid;		/* hash_mix64(tid) -> index + 1 */
};

void ember_syscall_stats__add(struct ember_syscall_stats *s, uint64_t d, bool failed)
{
	s->calls++;
	s->errors += failed;
	s->total += d;
	if (d < s->min)
		s->min = d;
	if (d > s->max)
		s->max = d;
	summary_add_square((__u64 *)&s->sq_lo, (__u64 *)&s->sq_hi, d);
	/* perf's update_stats(), step for step, so a replay prints perf's digits */
	if (s->welford_n == s->calls - 1) {
		double delta = d - s->welford_mean;

		s->welford_n++;
		s->welford_mean += delta / s->welford_n;
		s->welford_m2 += delta * (d - s->welford_mean);
	}
}

int ember_syscall_stats__add_errno(struct ember_syscall_stats *s, int err, uint64_t n)
{
	if (err <= 0 || err > 4095)
		return -EINVAL;
	if (err > s->max_errno) {
		uint64_t *v = realloc(s->errnos, err * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + s->max_errno, 0, (err - s->max_errno) * sizeof(*v));
		s->errnos = v;
		s->max_errno = err;
	}
	s->errnos[err - 1] += n;
	return 0;
}

double ember_syscall_stats__mean(const struct ember_syscall_stats *s)
{
	if (s->calls && s->welford_n == s->calls)
		return s->welford_mean;
	return s->calls ? (double)s->total / s->calls : 0;
}

double ember_syscall_stats__stddev(const struct ember_syscall_stats *s)
{
	unsigned __int128 sq = (unsigned __int128)s->sq_hi << 64 | s->sq_lo;
	unsigned __int128 n = s->calls, sum2 = (unsigned __int128)s->total * s->total;
	long double m2;

	if (s->calls < 2)
		return 0;
	if (s->welford_n == s->calls)
		return sqrt(s->welford_m2 / (s->calls - 1) / s->calls);
	/* calls * the squared deviations = n * sum(d^2) - sum(d)^2, exact while it fits */
	if (sq <= (~(unsigned __int128)0) / n && n * sq >= sum2)
		m2 = (long double)(n * sq - sum2) / s->calls;
	else
		m2 = (long double)sq - (long double)s->total * s->total / s->calls;
	if (m2 < 0)
		m2 = 0;
	return sqrt((double)(m2 / (s->calls - 1) / s->calls));
}

struct ember_syscall_summary *ember_syscall_summary__new(void)
{
	return calloc(1, sizeof(struct ember_syscall_summary));
}

void ember_syscall_summary__delete(struct ember_syscall_summary *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_threads; i++) {
		for (int j = 0; j < s->threads[i].nr_entries; j++)
			free(s->threads[i].entries[j].stats.errnos);
		free(s->threads[i].entries);
	}
	free(s->threads);
	hashtab__exit(&s->by_tid);
	free(s);
}

struct ember_syscall_summary_thread *
ember_syscall_summary__thread(struct ember_syscall_summary *s, pid_t pid, pid_t tid)
{
	uint64_t h = hash_mix64((uint64_t)(uint32_t)tid);
	struct ember_syscall_summary_thread *t;
	struct hashtab_slot *slot;

	if (hashtab__reserve(&s->by_tid, 1))
		return NULL;
	slot = hashtab__slot(&s->by_tid, h, hashtab__eq_hash, NULL);
	if (slot->val)
		return &s->threads[slot->val - 1];
	if (array__reserve((void **)&s->threads, &s->alloc, s->nr_threads, sizeof(*t)))
		return NULL;
	t = &s->threads[s->nr_threads++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	hashtab__fill(&s->by_tid, slot, h, s->nr_threads);
	return t;
}

struct ember_syscall_stats *
ember_syscall_summary_thread__stats(struct ember_syscall_summary_thread *t, int nr)
{
	struct ember_syscall_summary_entry *e;

	/* a thread makes a few dozen different syscalls: a walk finds them */
	for (int i = t->nr_entries - 1; i >= 0; i--)
		if (t->entries[i].nr == nr)
			return &t->entries[i].stats;
	if (array__reserve((void **)&t->entries, &t->alloc, t->nr_entries, sizeof(*e)))
		return NULL;
	e = &t->entries[t->nr_entries++];
	memset(e, 0, sizeof(*e));
	e->nr = nr;
	e->stats.min = UINT64_MAX;
	return &e->stats;
}

int ember_syscall_summary__nr_threads(const struct ember_syscall_summary *s)
{
	return s->nr_threads;
}

struct ember_syscall_summary_thread *
ember_syscall_summary__thread_at(struct ember_syscall_summary *s, int i)
{
	return i >= 0 && (size_t)i < s->nr_threads ? &s->threads[i] : NULL;
}
