// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The reader side of a perf ring buffer. The kernel writes records at
 * data_head and never past data_tail; we read from our tail up to a
 * snapshot of data_head and hand the space back by storing data_tail.
 *
 * Ordering (see the comment above perf_output_put_handle() in the kernel's
 * kernel/events/ring_buffer.c): load data_head with acquire semantics so
 * the record bytes are read after it, and store data_tail with release
 * semantics so our reads of the records complete before the kernel may
 * overwrite them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "core/log.h"
#include <ember/mmap.h>

/* A record's size is a u16: this holds any record that wraps. */
#define MAX_RECORD 65536

struct ember_mmap {
	int fd;
	void *base;		/* control page + data, as mapped */
	size_t map_len;
	struct perf_event_mmap_page *pc;
	unsigned char *data;
	uint64_t size, mask;	/* data area size, a power of two */
	uint64_t start, end;	/* read position and head snapshot, free running */
	uint64_t lost;
	unsigned char copy[MAX_RECORD] __attribute__((aligned(8)));
};

/* Map one control page + data_pages (a power of two) of fd's buffer. NULL with errno set. */
struct ember_mmap *ember_mmap__new(int fd, size_t data_pages)
{
	long page = sysconf(_SC_PAGESIZE);
	struct ember_mmap *map;

	if (fd < 0 || data_pages == 0 || (data_pages & (data_pages - 1))) {
		errno = EINVAL;
		return NULL;
	}
	map = calloc(1, sizeof(*map));
	if (!map)
		return NULL;
	map->fd = fd;
	map->map_len = (data_pages + 1) * (size_t)page;
	map->base = mmap(NULL, map->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map->base == MAP_FAILED) {
		int err = errno;

		pr_debug("mmap of %zu pages on fd %d: %s\n", data_pages, fd, strerror(err));
		free(map);
		errno = err;
		return NULL;
	}
	map->pc = map->base;
	/* data_offset/data_size exist since Linux 4.1; before, data follows the first page. */
	map->data = (unsigned char *)map->base + (map->pc->data_offset ?: (uint64_t)page);
	map->size = map->pc->data_size ?: data_pages * (uint64_t)page;
	map->mask = map->size - 1;
	map->start = map->end = __atomic_load_n(&map->pc->data_tail, __ATOMIC_RELAXED);
	return map;
}

/* Unmap and free. Accepts NULL. The fd stays open (it belongs to its evsel). */
void ember_mmap__delete(struct ember_mmap *map)
{
	if (!map)
		return;
	munmap(map->base, map->map_len);
	free(map);
}

/* The event fd the buffer belongs to. */
int ember_mmap__fd(const struct ember_mmap *map)
{
	return map->fd;
}

/* Snapshot data_head; returns the bytes available to read. */
size_t ember_mmap__read_init(struct ember_mmap *map)
{
	map->end = __atomic_load_n(&map->pc->data_head, __ATOMIC_ACQUIRE);
	return (size_t)(map->end - map->start);
}

/* The next whole record of the snapshot, or NULL; valid until the next call. */
const struct perf_event_header *ember_mmap__read_event(struct ember_mmap *map)
{
	const struct perf_event_header *ev;
	uint64_t avail = map->end - map->start, off = map->start & map->mask;
	size_t size;

	if (avail == 0)
		return NULL;
	/* Records are 8-byte aligned and the data size a power of two: a header never wraps. */
	ev = (const struct perf_event_header *)(map->data + off);
	size = ev->size;
	if (avail < sizeof(*ev) || size < sizeof(*ev) || size > avail) {
		pr_warn("ring buffer on fd %d: corrupt record (size %zu, %llu bytes left); "
			"skipping to the head\n", map->fd, size, (unsigned long long)avail);
		map->start = map->end;
		return NULL;
	}
	if (off + size > map->size) {
		size_t first = (size_t)(map->size - off);

		memcpy(map->copy, map->data + off, first);
		memcpy(map->copy + first, map->data, size - first);
		ev = (const struct perf_event_header *)map->copy;
	}
	map->start += size;

	if (ev->type == PERF_RECORD_LOST && size >= sizeof(*ev) + 2 * sizeof(uint64_t)) {
		const uint64_t *body = (const uint64_t *)(ev + 1);	/* id, lost */

		map->lost += body[1];
	}
	return ev;
}

/* Give the space consumed so far back to the kernel. */
void ember_mmap__read_done(struct ember_mmap *map)
{
	__atomic_store_n(&map->pc->data_tail, map->start, __ATOMIC_RELEASE);
}

/* Records the kernel reported lost (PERF_RECORD_LOST) among those read so far. */
uint64_t ember_mmap__lost(const struct ember_mmap *map)
{
	return map->lost;
}
