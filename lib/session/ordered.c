// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The time-ordering queue. Records arrive nearly sorted (each CPU's ring
 * buffer is, rounds interleave them), so entries are appended and sorted
 * at flush time; what stays behind is compacted into the spare arena so
 * memory holds about one round of records, not the file. Records of a
 * mapped file are not copied at all: copying them cost a pass over every
 * record, and the arena's memory, for nothing.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "session/ordered.h"

#define ARENA_ALIGN 8

void ordered_queue__init(struct ordered_queue *q)
{
	memset(q, 0, sizeof(*q));
}

void ordered_queue__exit(struct ordered_queue *q)
{
	free(q->base);
	free(q->tmp);
	free(q->arena);
	free(q->spare);
	memset(q, 0, sizeof(*q));
}

void ordered_queue__stable(struct ordered_queue *q, const void *mem, size_t len)
{
	q->stable = mem;
	q->stable_len = len;
}

static inline const struct perf_event_header *entry_record(const struct ordered_queue *q,
							   const struct ordered_entry *e)
{
	if (e->pos & ORDERED_STABLE)
		return (const void *)(q->stable + (e->pos & ~ORDERED_STABLE));
	return (const void *)(q->arena + e->pos);
}

static inline size_t arena_size(const struct perf_event_header *h)
{
	return (h->size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

static int grow(void **buf, size_t *alloc, size_t need, size_t elem)
{
	size_t n = *alloc ? *alloc : 1024;
	void *p;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n * elem);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*alloc = n;
	return 0;
}

/* Room for one more entry at the end. */
static int grow_entries(struct ordered_queue *q)
{
	size_t head = q->base ? (size_t)(q->entries - q->base) : 0;

	if (head + q->nr < q->alloc)
		return 0;
	/* Move down when that frees half: each entry moves O(1) times on average. */
	if (head >= q->alloc / 2 && head) {
		memmove(q->base, q->entries, q->nr * sizeof(*q->entries));
		q->entries = q->base;
		return 0;
	}
	if (grow((void **)&q->base, &q->alloc, head + q->nr + 1, sizeof(*q->base)))
		return -ENOMEM;
	q->entries = q->base + head;
	return 0;
}

/* The entry, at the end (there is room), and what the queue knows of its time. */
static inline void add_entry(struct ordered_queue *q, uint64_t time, uint64_t file_offset,
			     size_t pos, const void *data)
{
	struct ordered_entry *e;

	if (time < q->last_flush)
		q->nr_unordered++;
	if (time > q->max_time)
		q->max_time = time;
	/* Still sorted if it is not older than the last one. */
	if (q->nr_sorted == q->nr && (!q->nr || q->entries[q->nr - 1].time <= time))
		q->nr_sorted++;

	e = &q->entries[q->nr++];
	e->time = time;
	e->seq = q->seq++;
	e->file_offset = file_offset;
	e->pos = pos;
	e->data = data;
}

/* A record to copy, or no room for its entry. */
static __attribute__((noinline)) int push_slow(struct ordered_queue *q,
					       const struct perf_event_header *hdr, uint64_t time,
					       uint64_t file_offset, const void *data)
{
	size_t size = arena_size(hdr), pos;
	/* unsigned: a record below the stable memory is far above its end */
	size_t in_stable = (uintptr_t)hdr - (uintptr_t)q->stable;

	if (grow_entries(q))
		return -ENOMEM;
	if (q->stable && in_stable < q->stable_len && hdr->size <= q->stable_len - in_stable) {
		pos = in_stable | ORDERED_STABLE;
	} else {
		if (grow((void **)&q->arena, &q->arena_alloc, q->arena_used + size, 1))
			return -ENOMEM;
		memcpy(q->arena + q->arena_used, hdr, hdr->size);
		pos = q->arena_used;
		q->arena_used += size;
	}
	add_entry(q, time, file_offset, pos, data);
	return 0;
}

/* Every record of a mapped file comes here: the common case without a call or a copy. */
int ordered_queue__push(struct ordered_queue *q, const struct perf_event_header *hdr,
			uint64_t time, uint64_t file_offset, const void *data)
{
	size_t in_stable = (uintptr_t)hdr - (uintptr_t)q->stable;

	if (!q->stable || in_stable >= q->stable_len || hdr->size > q->stable_len - in_stable ||
	    !q->base || q->entries + q->nr >= q->base + q->alloc)
		return push_slow(q, hdr, time, file_offset, data);
	add_entry(q, time, file_offset, in_stable | ORDERED_STABLE, data);
	return 0;
}

/* Ties keep the arrival order. */
static bool entry_before(const struct ordered_entry *x, const struct ordered_entry *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/* The end of the ascending run that starts at from. */
static size_t run_end(const struct ordered_entry *e, size_t from, size_t nr)
{
	size_t i = from + 1;

	while (i < nr && !entry_before(&e[i], &e[i - 1]))
		i++;
	return i;
}

/*
 * Sorts by (time, seq). The queue holds a few ascending runs (one per
 * CPU buffer read in the round, and what the last flush left), so a
 * natural merge sort takes a pass or two where qsort took n log n
 * indirect comparisons.
 */
static int sort_entries(struct ordered_queue *q)
{
	struct ordered_entry *src = q->entries, *dst, *t;
	size_t nr = q->nr, a;

	if (run_end(src, 0, nr) == nr)
		return 0;
	if (grow((void **)&q->tmp, &q->tmp_alloc, nr, sizeof(*q->tmp)))
		return -ENOMEM;
	dst = q->tmp;
	for (;;) {
		size_t runs = 0;

		for (a = 0; a < nr; runs++) {
			size_t b = run_end(src, a, nr), c = b < nr ? run_end(src, b, nr) : b;
			size_t i = a, j = b, k = a;

			while (i < b && j < c)
				dst[k++] = entry_before(&src[j], &src[i]) ? src[j++] : src[i++];
			memcpy(&dst[k], &src[i], (b - i) * sizeof(*src));
			k += b - i;
			memcpy(&dst[k], &src[j], (c - j) * sizeof(*src));
			a = c;
		}
		t = src;
		src = dst;
		dst = t;
		if (runs == 1)
			break;
	}
	if (src != q->entries) {
		size_t alloc = q->alloc;

		q->tmp = q->base;
		q->base = q->entries = src;
		q->alloc = q->tmp_alloc;
		q->tmp_alloc = alloc;
	}
	return 0;
}

/* Moves the copied records of entries [0, nr) into the spare arena, which becomes the arena. */
static int compact_arena(struct ordered_queue *q)
{
	size_t need = 0, used = 0;
	char *tmp;

	/* Records of a mapped file are never copied: nothing to move. */
	if (!q->arena_used)
		return 0;
	for (size_t i = 0; i < q->nr; i++)
		if (!(q->entries[i].pos & ORDERED_STABLE))
			need += arena_size(entry_record(q, &q->entries[i]));
	if (grow((void **)&q->spare, &q->spare_alloc, need ? need : 1, 1))
		return -ENOMEM;
	for (size_t i = 0; i < q->nr && used < need; i++) {
		struct ordered_entry *e = &q->entries[i];
		const struct perf_event_header *h = entry_record(q, e);

		if (e->pos & ORDERED_STABLE)
			continue;
		memcpy(q->spare + used, h, h->size);
		e->pos = used;
		used += arena_size(h);
	}
	tmp = q->arena;
	q->arena = q->spare;
	q->spare = tmp;
	need = q->arena_alloc;
	q->arena_alloc = q->spare_alloc;
	q->spare_alloc = need;
	q->arena_used = used;
	return 0;
}

/* Entries [from, nr) are what is left, their copied records moved into the spare arena. */
static int compact(struct ordered_queue *q, size_t from)
{
	q->entries += from;
	q->nr -= from;
	q->nr_sorted = q->nr;
	return compact_arena(q);
}

/* The queue sorted whole, then its head delivered: for a queue of many runs. */
static int flush_sorted(struct ordered_queue *q, uint64_t limit, ordered_deliver_t fn, void *ctx)
{
	size_t i;
	int ret = 0, err;

	if (!q->nr)
		return 0;
	if (q->nr_sorted < q->nr && sort_entries(q))
		return -ENOMEM;
	q->nr_sorted = q->nr;

	for (i = 0; i < q->nr && q->entries[i].time <= limit; i++) {
		const struct ordered_entry *e = &q->entries[i];

		q->last_flush = e->time;
		ret = fn(entry_record(q, e), e->file_offset, e->data, ctx);
		if (ret) {
			i++;
			break;
		}
	}
	if (i == q->nr) {
		q->nr = q->nr_sorted = 0;
		q->entries = q->base;
		q->arena_used = 0;
		return ret;
	}
	err = compact(q, i);
	return ret ? ret : err;
}

/*
 * Up to this many ascending runs are merged as they are delivered: the
 * queue mostly holds one run per cpu buffer a round read, and what the
 * last flush left.
 */
#define MERGE_RUNS 8

struct run {
	size_t pos;	/* the next entry to deliver */
	size_t mid;	/* [pos, mid): at most the limit; [mid, end): kept */
	size_t end;
};

/* The first entry in [from, to) (ascending) later than limit, or to. */
static size_t upper_bound(const struct ordered_entry *e, size_t from, size_t to, uint64_t limit)
{
	while (from < to) {
		size_t m = from + (to - from) / 2;

		if (e[m].time <= limit)
			from = m + 1;
		else
			to = m;
	}
	return from;
}

/*
 * What is left of each run made one stretch again, runs in order: to the
 * front of the first run (moving each run that follows a delivered
 * entry) or to the end of the last one (moving each that precedes one),
 * whichever moves fewer entries. A flush mostly hands out the oldest few
 * of a queue of thousands, all from the first runs: those few move, not
 * the thousands behind them. Returns the number left.
 */
static size_t pack_runs(struct ordered_queue *q, const struct run *runs, size_t nruns)
{
	struct ordered_entry *e = q->entries;
	size_t fwd = 0, back = 0, left = 0, moved = 0, out;

	for (size_t r = 0; r < nruns; r++) {
		size_t n = runs[r].end - runs[r].pos;

		/* forward: a run moves once a delivered entry precedes its rest */
		moved += runs[r].pos - (r ? runs[r - 1].end : 0);
		if (moved)
			fwd += n;
		left += n;
	}
	/* backward: a run moves when a delivered entry follows its rest (in a later run) */
	moved = 0;
	for (size_t r = nruns; r-- > 0;) {
		if (moved)
			back += runs[r].end - runs[r].pos;
		moved += runs[r].pos - (r ? runs[r - 1].end : 0);
	}
	if (fwd <= back) {
		out = 0;
		for (size_t r = 0; r < nruns; r++) {
			size_t n = runs[r].end - runs[r].pos;

			/* the front moves first: no overlap */
			if (n && runs[r].pos != out)
				memmove(&e[out], &e[runs[r].pos], n * sizeof(*e));
			out += n;
		}
		q->nr = left;
		return left;
	}
	out = runs[nruns - 1].end;
	for (size_t r = nruns; r-- > 0;) {
		size_t n = runs[r].end - runs[r].pos;

		/* the back moves first: no overlap */
		out -= n;
		if (n && runs[r].pos != out)
			memmove(&e[out], &e[runs[r].pos], n * sizeof(*e));
	}
	q->entries += out;
	q->nr = left;
	return left;
}

/*
 * Each ascending run's entries up to the limit are a prefix of it: they
 * are merged run against run as they are delivered, and the rest of each
 * run moves to the front. The same records in the same order (time,
 * then arrival) as a sort of the whole queue, without its passes over
 * every entry, each a cache miss in a queue bigger than the cache; a
 * queue of more runs is sorted (flush_sorted()).
 */
int ordered_queue__flush(struct ordered_queue *q, uint64_t limit, ordered_deliver_t fn, void *ctx)
{
	struct ordered_entry *e = q->entries;
	struct run runs[MERGE_RUNS], *act[MERGE_RUNS];
	size_t nruns = 0, nact = 0, out = 0;
	int ret = 0;

	if (!q->nr)
		return 0;
	for (size_t a = 0; a < q->nr;) {
		size_t b = run_end(e, a, q->nr);

		if (nruns == MERGE_RUNS)
			return flush_sorted(q, limit, fn, ctx);
		runs[nruns].pos = a;
		runs[nruns].mid = e[b - 1].time <= limit ? b : upper_bound(e, a, b, limit);
		runs[nruns].end = b;
		nruns++;
		a = b;
	}
	/* the runs with entries to deliver; (time, seq) orders all: their order is free */
	for (size_t r = 0; r < nruns; r++)
		if (runs[r].pos < runs[r].mid)
			act[nact++] = &runs[r];
	while (nact) {
		struct run *best;
		const struct ordered_entry *en;
		size_t b = 0;

		for (size_t k = 1; k < nact; k++)
			if (entry_before(&e[act[k]->pos], &e[act[b]->pos]))
				b = k;
		best = act[b];
		en = &e[best->pos++];
		if (best->pos == best->mid)
			act[b] = act[--nact];
		q->last_flush = en->time;
		ret = fn(entry_record(q, en), en->file_offset, en->data, ctx);
		if (ret)
			break;
	}
	out = pack_runs(q, runs, nruns);
	q->nr_sorted = 0;
	if (!out) {
		q->entries = q->base;
		q->arena_used = 0;
		return ret;
	}
	if (compact_arena(q) && !ret)
		return -ENOMEM;
	return ret;
}
