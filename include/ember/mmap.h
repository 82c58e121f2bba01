/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Ring buffers: the kernel's per-event mmap'ed buffer of records.
 *
 *	struct ember_mmap *map = ember_mmap__new(fd, 8);
 *	ember_mmap__read_init(map);
 *	while ((ev = ember_mmap__read_event(map)) != NULL)
 *		handle(ev);
 *	ember_mmap__read_done(map);
 */
#ifndef EMBER_MMAP_H
#define EMBER_MMAP_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ember_mmap;

/*
 * Map the ring buffer of an open event fd: one control page plus
 * `data_pages` pages (a power of two). Returns NULL with errno set.
 * Free with ember_mmap__delete().
 */
EMBER_API struct ember_mmap *ember_mmap__new(int fd, size_t data_pages);
EMBER_API void ember_mmap__delete(struct ember_mmap *map);
EMBER_API int ember_mmap__fd(const struct ember_mmap *map);

/* Snapshot the kernel's write position. Returns bytes available (0 when empty). */
EMBER_API size_t ember_mmap__read_init(struct ember_mmap *map);
/*
 * The next whole record, or NULL when the snapshot is consumed. A record
 * that wraps around the end of the buffer is copied into the map's own
 * buffer, so the pointer is valid only until the next call.
 */
EMBER_API const struct perf_event_header *ember_mmap__read_event(struct ember_mmap *map);
/* Hand the consumed space back to the kernel. */
EMBER_API void ember_mmap__read_done(struct ember_mmap *map);

/* Records the kernel dropped, as counted by PERF_RECORD_LOST seen so far. */
EMBER_API uint64_t ember_mmap__lost(const struct ember_mmap *map);

/*
 * Backward ring buffers (perf record --overwrite's flight recorder): an
 * event opened with attr.write_backward, mapped read-only, keeps its newest
 * records and overwrites the oldest; nothing reads it until a copy.
 *
 *	struct ember_backward_mmap *b = ember_backward_mmap__new(fd, 64);
 *	...
 *	len = ember_backward_mmap__copy(b, &data);	whole records, newest first
 */
struct ember_backward_mmap;

/*
 * Map fd's buffer read-only: a control page plus `data_pages` pages (a
 * power of two). Returns NULL with errno set. Free with __delete().
 */
EMBER_API struct ember_backward_mmap *ember_backward_mmap__new(int fd, size_t data_pages);
/* Unmap and free. Accepts NULL. */
EMBER_API void ember_backward_mmap__delete(struct ember_backward_mmap *map);
EMBER_API int ember_backward_mmap__fd(const struct ember_backward_mmap *map);
/*
 * Copy what the buffer gained since the previous copy (at most one
 * buffer's worth), pausing the kernel's writes for the memcpy: whole
 * records, newest first, at *data (the map's own buffer, valid until the
 * next copy). Returns their length in bytes.
 */
EMBER_API size_t ember_backward_mmap__copy(struct ember_backward_mmap *map, const void **data);

#ifdef __cplusplus
}
#endif

#endif
