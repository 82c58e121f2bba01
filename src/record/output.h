/* SPDX-License-Identifier: GPL-2.0-only */
/* Where ember record writes: perf.data (file mode) or a pipe, through the perf.data writer. */
#ifndef EMBER_RECORD_OUTPUT_H
#define EMBER_RECORD_OUTPUT_H

#include "record/record.h"

/*
 * Decide the output as perf does: -o FILE, "-o -" or (without -o) a FIFO
 * on stdout means pipe mode to stdout, else perf.data. In pipe mode keep a
 * close-on-exec copy of stdout for the data and point fd 1 at stderr, so
 * the command's output cannot mix with it. Call before forking the
 * command. Returns 0 or an exit code (message printed).
 */
int record_output__init(struct record *rec);

/*
 * Create the file (an existing non-empty one becomes FILE.old), describe
 * the machine (feature sections; TRACING_DATA for tracepoints), declare
 * every event with its sample ids and write the header. Call once the
 * events are open. Returns 0 or an exit code (message printed, except for
 * a write error: rec->write_err, see record_output__report_error()).
 */
int record_output__open(struct record *rec);

/*
 * Append a record of ember's own (synthesized, FINISHED_ROUND...); counts
 * the bytes. Returns 0 or the writer's -errno (kept in rec->write_err).
 */
int record_output__write(struct record *rec, const void *data, size_t size);
/* The same for a record read from a ring buffer: the one kind -z compresses, as perf. */
int record_output__write_ring(struct record *rec, const void *data, size_t size);

/*
 * Write out what the read passes buffered once it reaches RECORD_FLUSH_BYTES:
 * called after each pass, so a write() never keeps a ring buffer waiting,
 * and never holds more than a short one back.
 */
void record_output__flush(struct record *rec);

/* Rewrite the header's data size so far (file mode), for a recorder that gets killed. */
int record_output__sync(struct record *rec);

/*
 * Finish the file (SAMPLE_TIME and the other feature sections, final
 * header) and print perf's closing line when `summary` (and not -q). Returns 0, or 1 after a
 * write error (kept in rec->write_err, not printed). Safe to call when
 * nothing was opened.
 */
int record_output__close(struct record *rec, bool summary);

/*
 * --switch-output: finish the current file, rename it PATH.TIMESTAMP (as
 * perf: "[ ... Dump PATH.TIMESTAMP ]"), drop the oldest beyond
 * --switch-max-files, and start a new PATH with the same events. The
 * caller writes the synthesized records again. 0, or 1 (message printed,
 * or rec->write_err).
 */
int record_output__switch(struct record *rec);

/* Free what the output keeps across files. */
void record_output__exit(struct record *rec);

/* Explain a write error once: what failed, and that the data so far is kept. */
void record_output__report_error(struct record *rec);

#endif
