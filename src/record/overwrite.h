/* SPDX-License-Identifier: GPL-2.0-only */
/* Backward (overwrite) ring buffers: the newest records, read at the end or on SIGUSR2. */
#ifndef EMBER_RECORD_OVERWRITE_H
#define EMBER_RECORD_OVERWRITE_H

#include "record/record.h"

/* Whether some event writes backward (--overwrite, or an "overwrite" term). */
bool record_overwrite__wanted(const struct record *rec);

/*
 * Map a read-only buffer of `pages` data pages per cpu (per thread for
 * per-thread events) for the backward events, their other fds redirected
 * into it. Returns 0 or -errno.
 */
int record_overwrite__mmap(struct record *rec, size_t pages);

/* The fd of backward buffer i (< rec->nr_owmaps), for its hang-up. */
int record_overwrite__fd(const struct record *rec, int i);

/* Unmap them. Safe when none are mapped. */
void record_overwrite__unmap(struct record *rec);

/*
 * Copy what every backward buffer gained since the last snapshot (pausing
 * the kernel's writes meanwhile) to the output, newest first, then a
 * FINISHED_ROUND. 0, or 1 after a write error.
 */
int record_overwrite__snapshot(struct record *rec);

#endif
