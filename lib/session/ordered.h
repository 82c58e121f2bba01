/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Records waiting to be delivered in time order, as perf's ordered_events:
 * each queued record is copied (the reader's buffer is reused) unless it
 * lies in memory that stays put (the mapped file: ordered_queue__stable()),
 * and a flush hands out, sorted by time with ties in arrival order, every
 * record up to a limit. Perf's round rule is the caller's: at each
 * FINISHED_ROUND flush up to the highest time seen before the previous
 * round.
 */
#ifndef EMBER_LIB_ORDERED_H
#define EMBER_LIB_ORDERED_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct ordered_entry {
	uint64_t time;
	uint64_t seq;		/* arrival order, for stable ties */
	uint64_t file_offset;
	size_t pos;		/* of the copy in arena, or ORDERED_STABLE | offset in stable */
	const void *data;	/* the caller's, handed back with the record */
};

#define ORDERED_STABLE ((size_t)1 << (sizeof(size_t) * 8 - 1))

struct ordered_queue {
	/*
	 * entries[0, nr) are queued; entries may start past the front of the
	 * allocation (base, alloc entries): a flush that hands out the oldest
	 * few moves the front on instead of moving the rest down.
	 */
	struct ordered_entry *entries, *base;
	size_t nr, alloc;
	size_t nr_sorted;	/* entries[0, nr_sorted) are in order */
	struct ordered_entry *tmp; /* the merge sort's other half */
	size_t tmp_alloc;
	char *arena, *spare;	/* copies of the records; spare for compaction */
	size_t arena_used, arena_alloc, spare_alloc;
	uint64_t seq;
	uint64_t max_time;	/* highest time queued */
	uint64_t last_flush;	/* time of the last record handed out */
	uint64_t next_flush;	/* the round limit (perf's oe->next_flush) */
	uint64_t nr_unordered;	/* queued below last_flush */
	const char *stable;	/* records in [stable, stable + stable_len) are not copied */
	size_t stable_len;
};

typedef int (*ordered_deliver_t)(const struct perf_event_header *hdr, uint64_t file_offset,
				 const void *data, void *ctx);

void ordered_queue__init(struct ordered_queue *q);
void ordered_queue__exit(struct ordered_queue *q);
/*
 * Records inside [mem, mem + len) stay where they are, unchanged, for as
 * long as the queue lives (a read-only mapping of the whole file): they
 * are queued by reference instead of copied.
 */
void ordered_queue__stable(struct ordered_queue *q, const void *mem, size_t len);
/*
 * Queues the record (a copy of it, unless it is in the stable memory), with
 * data (what the caller learnt of it, as its event: not looked up again at
 * delivery) handed back to fn with it. 0 or -ENOMEM.
 */
int ordered_queue__push(struct ordered_queue *q, const struct perf_event_header *hdr,
			uint64_t time, uint64_t file_offset, const void *data);
/*
 * Delivers every queued record with time <= limit, in order. Stops at the
 * first non-zero return of fn (the record stays delivered) and returns it.
 */
int ordered_queue__flush(struct ordered_queue *q, uint64_t limit, ordered_deliver_t fn, void *ctx);

#endif
