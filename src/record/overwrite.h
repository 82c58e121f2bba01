/* SPDX-License-Identifier: GPL-2.0-only */
/* Backward (overwrite) ring buffers: the newest records, read at the end or on SIGUSR2. */
#ifndef EMBER_RECORD_OVERWRITE_H
#define EMBER_RECORD_OVERWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <ember/event.h>

struct record_owmap;

/* The backward buffers: one per cpu (per thread for per-thread events). */
struct record_overwrite {
	struct record_owmap *maps;
	int nr;
};

struct record_output;

/* Whether some event writes backward (--overwrite, or an "overwrite" term). */
bool record_overwrite__wanted(const struct ember_evlist *evlist);

/*
 * Map a read-only buffer of `pages` data pages per cpu (per thread for
 * per-thread events) for the backward events, their other fds redirected
 * into it. Returns 0 or -errno.
 */
int record_overwrite__mmap(struct record_overwrite *ow, const struct ember_evlist *evlist,
			   size_t pages);

/* The fd of backward buffer i (< ow->nr), for its hang-up. */
int record_overwrite__fd(const struct record_overwrite *ow, int i);

/* The cpu of backward buffer i, or -1 for a per-thread one. */
int record_overwrite__cpu(const struct record_overwrite *ow, int i);

/*
 * Copy what backward buffer i gained since its last copy (or snapshot),
 * pausing the kernel's writes meanwhile: whole records, newest first, in
 * *data (the map's own buffer, valid until the next copy). Returns the length.
 */
size_t record_overwrite__copy(struct record_overwrite *ow, int i, const void **data);

/* Unmap them. Safe when none are mapped. */
void record_overwrite__unmap(struct record_overwrite *ow);

/*
 * Copy what every backward buffer gained since the last snapshot (pausing
 * the kernel's writes meanwhile) to the output, newest first, then a
 * FINISHED_ROUND. 0, or 1 after a write error.
 */
int record_overwrite__snapshot(struct record_overwrite *ow, struct record_output *out,
			       size_t toff);

#endif
