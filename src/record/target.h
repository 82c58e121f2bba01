/* SPDX-License-Identifier: GPL-2.0-only */
/* What ember record watches: a command, processes, threads or cpus; their maps. */
#ifndef EMBER_RECORD_TARGET_H
#define EMBER_RECORD_TARGET_H

#include "record/record.h"

/*
 * Derive rec->forks and rec->target_none from the options and the command;
 * -u becomes the -p list of the user's processes. Returns 0 or an exit
 * code (message printed).
 */
int record_target__init(struct record *rec);

/*
 * Fork the command, held before its exec (rec->wl), when there is one.
 * Returns 0 or an exit code (message printed).
 */
int record_target__prepare_workload(struct record *rec);

/*
 * Build rec->cpus and rec->threads as perf does: every online cpu (or -C's)
 * per-cpu buffers on the command's pid, on -p/-t's threads, or on every
 * thread for -a/-C; and set them on rec->evlist. Returns 0 or an exit code
 * (message printed).
 */
int record_target__maps(struct record *rec);

/* Free the maps. */
void record_target__exit(struct record *rec);

#endif
