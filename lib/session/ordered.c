// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The time-ordering queue. Records arrive nearly sorted (each CPU's ring
 * buffer is, rounds interleave them), so entries are appended and sorted
 * at flush time; what stays behind is compacted into the spare arena so
 * memory holds about one round of records, not the file.
 */
#include <errno.h>
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
	free(q->entries);
	free(q->arena);
	free(q->spare);
	memset(q, 0, sizeof(*q));
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

int ordered_queue__push(struct ordered_queue *q, const struct perf_event_header *hdr,
			uint64_t time, uint64_t file_offset)
{
	size_t size = (hdr->size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	struct ordered_entry *e;

	if (grow((void **)&q->entries, &q->alloc, q->nr + 1, sizeof(*q->entries)) ||
	    grow((void **)&q->arena, &q->arena_alloc, q->arena_used + size, 1))
		return -ENOMEM;
	memcpy(q->arena + q->arena_used, hdr, hdr->size);

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
	e->pos = q->arena_used;
	q->arena_used += size;
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct ordered_entry *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Moves entries [from, nr) to the front, their records into the spare arena. */
static int compact(struct ordered_queue *q, size_t from)
{
	size_t need = 0, used = 0;
	char *tmp;

	for (size_t i = from; i < q->nr; i++) {
		const struct perf_event_header *h = (void *)(q->arena + q->entries[i].pos);

		need += (h->size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	}
	if (grow((void **)&q->spare, &q->spare_alloc, need ? need : 1, 1))
		return -ENOMEM;
	for (size_t i = from; i < q->nr; i++) {
		struct ordered_entry *e = &q->entries[i];
		const struct perf_event_header *h = (void *)(q->arena + e->pos);
		size_t size = (h->size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);

		memcpy(q->spare + used, h, h->size);
		e->pos = used;
		used += size;
	}
	memmove(q->entries, q->entries + from, (q->nr - from) * sizeof(*q->entries));
	q->nr -= from;
	q->nr_sorted = q->nr;

	tmp = q->arena;
	q->arena = q->spare;
	q->spare = tmp;
	need = q->arena_alloc;
	q->arena_alloc = q->spare_alloc;
	q->spare_alloc = need;
	q->arena_used = used;
	return 0;
}

int ordered_queue__flush(struct ordered_queue *q, uint64_t limit, ordered_deliver_t fn, void *ctx)
{
	size_t i;
	int ret = 0, err;

	if (!q->nr)
		return 0;
	if (q->nr_sorted < q->nr)
		qsort(q->entries, q->nr, sizeof(*q->entries), entry_cmp);
	q->nr_sorted = q->nr;

	for (i = 0; i < q->nr && q->entries[i].time <= limit; i++) {
		const struct ordered_entry *e = &q->entries[i];

		q->last_flush = e->time;
		ret = fn((const void *)(q->arena + e->pos), e->file_offset, ctx);
		if (ret) {
			i++;
			break;
		}
	}
	if (i == q->nr) {
		q->nr = q->nr_sorted = 0;
		q->arena_used = 0;
		return ret;
	}
	err = compact(q, i);
	return ret ? ret : err;
}
