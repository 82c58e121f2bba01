// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trigger: /proc/stat read every tick into a ring of reads covering
 * the window; a watched cpu's share of a metric is its ticks in that
 * metric between the oldest read of the window and now, over all its
 * ticks. A cpu missing from /proc/stat is offline: said once, and said
 * again when it is back (its sampling event is enabled again then).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "watch/watch.h"

/* One read: each watched cpu's times (cpu -1: absent, offline). */
struct reading {
	uint64_t t_ns;
	struct ember_cpu_time *cpus;
};

struct watch_trigger {
	const struct watch_opts *o;
	int fd;				/* /proc/stat, read again at each tick */
	int nr;				/* watched cpus */
	int *cpu;			/* their numbers */
	bool *offline;			/* said to be offline */
	int max;			/* room for /proc/stat's lines */
	struct ember_cpu_time *scratch;
	struct reading *ring;		/* nr_ring reads, the newest at head */
	int nr_ring, head, filled;
};

const char *watch_metric__name(enum watch_metric m)
{
	static const char *const names[] = { "sys", "user", "iowait" };

	return names[m];
}

struct watch_trigger *watch_trigger__new(const struct watch_opts *o,
					 const struct ember_cpu_map *cpus)
{
	struct watch_trigger *tr = calloc(1, sizeof(*tr));
	int i;

	if (!tr)
		return NULL;
	tr->o = o;
	tr->nr = ember_cpu_map__nr(cpus);
	/* reads one window apart: window / tick, plus the read itself */
	tr->nr_ring = (int)(o->window_s * 1000 / WATCH_TICK_MS + 0.5) + 1;
	tr->max = (int)sysconf(_SC_NPROCESSORS_CONF) + 1;
	tr->cpu = calloc((size_t)tr->nr, sizeof(*tr->cpu));
	tr->offline = calloc((size_t)tr->nr, sizeof(*tr->offline));
	tr->scratch = calloc((size_t)tr->max, sizeof(*tr->scratch));
	tr->ring = calloc((size_t)tr->nr_ring, sizeof(*tr->ring));
	tr->fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (!tr->cpu || !tr->offline || !tr->scratch || !tr->ring || tr->fd < 0)
		goto fail;
	for (i = 0; i < tr->nr; i++)
		tr->cpu[i] = ember_cpu_map__cpu(cpus, i);
	for (i = 0; i < tr->nr_ring; i++) {
		tr->ring[i].cpus = calloc((size_t)tr->nr, sizeof(struct ember_cpu_time));
		if (!tr->ring[i].cpus)
			goto fail;
	}
	return tr;
fail:
	watch_trigger__delete(tr);
	errno = ENOMEM;
	return NULL;
}

void watch_trigger__delete(struct watch_trigger *tr)
{
	if (!tr)
		return;
	for (int i = 0; tr->ring && i < tr->nr_ring; i++)
		free(tr->ring[i].cpus);
	free(tr->ring);
	free(tr->scratch);
	free(tr->offline);
	free(tr->cpu);
	if (tr->fd >= 0)
		close(tr->fd);
	free(tr);
}

void watch_trigger__reset(struct watch_trigger *tr)
{
	tr->filled = 0;
}

/* Spread the lines read into the watched cpus' slots of r; note who left and came back. */
static void take(struct watch_trigger *tr, struct reading *r, int n, int *back)
{
	for (int i = 0; i < tr->nr; i++) {
		int j;

		for (j = 0; j < n && tr->scratch[j].cpu != tr->cpu[i]; j++)
			;
		if (j < n) {
			r->cpus[i] = tr->scratch[j];
			if (tr->offline[i]) {
				fprintf(stderr, "ember watch: cpu %d is online again; watching it\n",
					tr->cpu[i]);
				tr->offline[i] = false;
				*back = tr->cpu[i];
			}
			continue;
		}
		r->cpus[i].cpu = -1;
		if (!tr->offline[i])
			fprintf(stderr, "ember watch: warning: cpu %d went offline; not watched "
				"until it is back\n", tr->cpu[i]);
		tr->offline[i] = true;
	}
}

static uint64_t metric(const struct ember_cpu_time *t, enum watch_metric m)
{
	switch (m) {
	case WATCH_SYS:
		return t->system;
	case WATCH_USER:
		return t->user + t->nice;
	default:
		return t->iowait;
	}
}

static int by_pct(const void *a, const void *b)
{
	const struct watch_hit *x = a, *y = b;

	return (x->pct < y->pct) - (x->pct > y->pct);
}

int watch_trigger__check(struct watch_trigger *tr, uint64_t t_ns, struct watch_hit *hits,
			 int *back)
{
	int n = ember_cpu_times__read(tr->fd, tr->scratch, tr->max), nr_hits = 0;
	struct reading *now, *old;

	*back = -1;
	if (n < 0)
		return n;
	tr->head = (tr->head + 1) % tr->nr_ring;
	now = &tr->ring[tr->head];
	now->t_ns = t_ns;
	take(tr, now, n, back);
	if (tr->filled < tr->nr_ring)
		tr->filled++;
	if (tr->filled < tr->nr_ring)
		return 0;
	/* the slot after head is the oldest: one window ago */
	old = &tr->ring[(tr->head + 1) % tr->nr_ring];
	for (int i = 0; i < tr->nr; i++) {
		const struct ember_cpu_time *a = &old->cpus[i], *b = &now->cpus[i];
		uint64_t total;

		if (a->cpu < 0 || b->cpu < 0)
			continue;
		total = ember_cpu_time__total(b) - ember_cpu_time__total(a);
		/* a cpu that went offline and back in the window counts from zero: skip it */
		if (!total || ember_cpu_time__total(b) < ember_cpu_time__total(a))
			continue;
		for (int m = 0; m < WATCH_NR_METRICS; m++) {
			double pct;

			if (tr->o->threshold[m] < 0)
				continue;
			pct = 100.0 * (double)(metric(b, m) - metric(a, m)) / (double)total;
			if (pct >= tr->o->threshold[m]) {
				hits[nr_hits++] = (struct watch_hit){ tr->cpu[i], m, pct };
				break;
			}
		}
	}
	qsort(hits, (size_t)nr_hits, sizeof(*hits), by_pct);
	return nr_hits;
}
