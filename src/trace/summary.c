// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf trace -s's summary: a block per thread (" cat (32372), 96 events,
 * 94.1%") with a table of its syscalls, in perf 6.1's order: the threads
 * by perf's thread table (tid modulo 256), within a bucket by events, then
 * tid, ascending; the syscalls by total time, longest first, then number.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <ember/syscall.h>
#include "trace/summary.h"

/* perf's machine keeps threads in 256 trees by tid; its summary walks them in that order. */
#define PERF_THREAD_BUCKETS 256

/* A syscall's total in msec as perf computes it: calls * (mean / 1e6). */
static double total_msecs(const struct ember_syscall_stats *s)
{
	return (double)s->calls * (ember_syscall_stats__mean(s) / 1e6);
}

static int cmp_entries(const void *pa, const void *pb)
{
	const struct ember_syscall_summary_entry *a = pa, *b = pb;
	double ma = total_msecs(&a->stats), mb = total_msecs(&b->stats);

	if (ma != mb)
		return ma > mb ? -1 : 1;
	return (a->nr > b->nr) - (a->nr < b->nr);
}

static int cmp_threads(const void *pa, const void *pb)
{
	const struct ember_syscall_summary_thread *a = *(const void *const *)pa;
	const struct ember_syscall_summary_thread *b = *(const void *const *)pb;
	unsigned int ba = (unsigned int)a->tid % PERF_THREAD_BUCKETS;
	unsigned int bb = (unsigned int)b->tid % PERF_THREAD_BUCKETS;

	if (ba != bb)
		return ba < bb ? -1 : 1;
	if (a->events != b->events)
		return a->events < b->events ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

static void print_stats(FILE *out, const struct ember_syscall_summary_entry *e,
			bool errno_summary)
{
	const struct ember_syscall_stats *s = &e->stats;
	const char *name = ember_syscall__name(e->nr);
	double mean = ember_syscall_stats__mean(s);
	double pct = mean ? 100.0 * ember_syscall_stats__stddev(s) / mean : 0.0;

	if (name)
		fprintf(out, "   %-15s", name);
	else
		fprintf(out, "   %-15d", e->nr);
	fprintf(out, " %8" PRIu64 " %6" PRIu64 " %9.3f %9.3f %9.3f", s->calls, s->errors,
		total_msecs(s), (double)s->min / 1e6, mean / 1e6);
	fprintf(out, " %9.3f %9.2f%%\n", (double)s->max / 1e6, pct);
	/* --errno-summary: each errno of the failures, by number */
	for (int err = 1; errno_summary && s->errors && err <= s->max_errno; err++) {
		const char *ename = ember_errno__name(err);

		if (!s->errnos[err - 1])
			continue;
		if (ename)
			fprintf(out, "\t\t\t\t%s: %d\n", ename, (int)s->errnos[err - 1]);
		else
			fprintf(out, "\t\t\t\t%d: %d\n", err, (int)s->errnos[err - 1]);
	}
}

static void print_thread(FILE *out, struct ember_syscall_summary_thread *t, uint64_t all_events,
			 bool errno_summary, const struct trace_state *faults)
{
	const struct trace_thread *ft = faults ? trace_state__find_thread(faults, t->tid) : NULL;

	fprintf(out, " %s (%d), %" PRIu64 " events, %.1f%%", t->comm, t->tid, t->events,
		all_events ? (double)t->events / all_events * 100.0 : 0.0);
	if (ft && ft->pfmaj)
		fprintf(out, ", %" PRIu64 " majfaults", ft->pfmaj);
	if (ft && ft->pfmin)
		fprintf(out, ", %" PRIu64 " minfaults", ft->pfmin);
	fprintf(out, "\n\n");
	fprintf(out, "   syscall            calls  errors  total       min       avg       max"
		     "       stddev\n");
	fprintf(out, "                                     (msec)    (msec)    (msec)    (msec)"
		     "        (%%)\n");
	fprintf(out, "   --------------- --------  ------ -------- --------- --------- ---------"
		     "     ------\n");
	if (t->nr_entries)	/* (none: a thread of faults alone has no table) */
		qsort(t->entries, t->nr_entries, sizeof(*t->entries), cmp_entries);
	for (int i = 0; i < t->nr_entries; i++)
		print_stats(out, &t->entries[i], errno_summary);
	fprintf(out, "\n\n");
}

/* -F: each thread's faults are events of its own, as perf counts them. */
static int add_faults(struct ember_syscall_summary *s, const struct trace_state *faults)
{
	struct hashtab_slot *slot;

	hashtab__for_each(&faults->threads, slot) {
		const struct trace_thread *ft = (const void *)(uintptr_t)slot->val;
		struct ember_syscall_summary_thread *t;

		if (!ft || !(ft->pfmaj + ft->pfmin))
			continue;
		t = ember_syscall_summary__thread(s, ft->pid, ft->tid);
		if (!t)
			return -ENOMEM;
		t->events += ft->pfmaj + ft->pfmin;
		if (!t->comm[0])
			memcpy(t->comm, ft->comm, sizeof(t->comm));
	}
	return 0;
}

void trace_summary__print(FILE *out, struct ember_syscall_summary *s, bool errno_summary,
			  const struct trace_state *faults)
{
	struct ember_syscall_summary_thread **order;
	uint64_t all_events = 0;
	int n;

	fprintf(out, "\n Summary of events:\n\n");
	if (faults && add_faults(s, faults))
		return;
	n = ember_syscall_summary__nr_threads(s);
	order = calloc(n ? n : 1, sizeof(*order));
	if (!order)
		return;
	for (int i = 0; i < n; i++) {
		order[i] = ember_syscall_summary__thread_at(s, i);
		all_events += order[i]->events;
	}
	qsort(order, n, sizeof(*order), cmp_threads);
	for (int i = 0; i < n; i++)
		print_thread(out, order[i], all_events, errno_summary, faults);
	free(order);
}

int trace_summary__finish(struct ember_syscount *sc, FILE *out, bool errno_summary,
			  const struct trace_state *faults)
{
	struct ember_syscall_summary *s = ember_syscall_summary__new();
	uint64_t dropped = 0;
	int err = s ? 0 : -ENOMEM;

	if (sc) {
		ember_syscount__stop(sc);
		if (!err)
			err = ember_syscount__read(sc, s);
	}
	if (err) {
		fprintf(stderr, "ember trace: cannot read the syscall counts: %s\n", strerror(-err));
		ember_syscall_summary__delete(s);
		return 1;
	}
	trace_summary__print(out, s, errno_summary, faults);
	if (sc)
		dropped = ember_syscount__dropped(sc);
	if (dropped)
		fprintf(stderr, "ember trace: %" PRIu64 " syscalls not counted: the kernel's tables "
			"were full\n", dropped);
	ember_syscall_summary__delete(s);
	return 0;
}
