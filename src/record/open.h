/* SPDX-License-Identifier: GPL-2.0-only */
/* Opening ember record's events and mapping their ring buffers. */
#ifndef EMBER_RECORD_OPEN_H
#define EMBER_RECORD_OPEN_H

struct record;

/*
 * Open every evsel on the target's maps, with perf's fallbacks, then map
 * one ring buffer per cpu (-m pages) and build rec->pollfds (the buffers,
 * then the signalfd). Returns 0 or an exit code (one line printed).
 */
int record_open(struct record *rec);

/* Unmap and close everything record_open() set up. */
void record_close(struct record *rec);

#endif
