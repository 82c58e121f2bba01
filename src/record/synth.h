/* SPDX-License-Identifier: GPL-2.0-only */
/* The records ember record writes before the kernel's: what already exists when it starts. */
#ifndef EMBER_RECORD_SYNTH_H
#define EMBER_RECORD_SYNTH_H

#include <stdbool.h>

/* --synth: which records describe the machine before the samples (perf's PERF_SYNTH_*). */
#define RECORD_SYNTH_TASK	(1u << 0)
#define RECORD_SYNTH_MMAP	(1u << 1)
#define RECORD_SYNTH_CGROUP	(1u << 2)
#define RECORD_SYNTH_ALL	(RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP | RECORD_SYNTH_CGROUP)

/* What is described besides the samples, and when. */
struct record_synth_opts {
	unsigned int synth;		/* --synth: RECORD_SYNTH_* bits */
	unsigned int proc_map_timeout;	/* ms; 0: the synthesizer's default */
	bool tail_synthesize;		/* the existing tasks are described at the end */
};

struct record;

/*
 * Write what perf 6.1's record__synthesize() writes, in its order:
 * ID_INDEX, the kernel and module MMAPs (unless every event excludes the
 * kernel), EVENT_UPDATE names (pipe mode), THREAD_MAP, CPU_MAP, then the
 * existing tasks: COMM and MMAP2 of -p/-t's threads, FORK+COMM+MMAP2 of
 * every process for -a/-C. Returns 0 or an exit code (message printed,
 * except write errors: rec->write_err).
 */
int record_synth__start(struct record *rec);

/*
 * The head of a new file --switch-output starts: the same records as
 * record_synth__start(), the command's threads as they are now, and
 * FINISHED_INIT. 0 or exit code.
 */
int record_synth__restart(struct record *rec);

/*
 * --tail-synthesize: the command's threads (COMM, MMAP2) as they are now,
 * once: when it has exited but is not reaped yet, or at the end. 0 or exit code.
 */
int record_synth__workload_tail(struct record *rec);

/* COMM of the command, forked but not yet exec'ed (perf's "perf-exec" COMM). 0 or exit code. */
int record_synth__workload_comm(struct record *rec);

/* FINISHED_INIT: the synthesized records end here. 0 or exit code. */
int record_synth__finished_init(struct record *rec);

#endif
