/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Keeping the reader on time when its ring buffers are small for the
 * sampling rate (say -F max -m 1: one page fills in under a millisecond).
 *
 * Measured on the 2-cpu VM this was written on: a reader that sleeps in
 * poll() right after letting the command go is woken by the command's first
 * samples while the command is still inside its exec, and the scheduler,
 * seeing a task that has hardly run yet, places it on the command's cpu.
 * There it waits 1-4 ms for the exec to finish (the kernel does not preempt
 * it) and the buffer overflows. perf escapes by accident: its start burns a
 * hundred milliseconds of cpu, so the scheduler treats its reader as busy.
 *
 * So for such buffers the reader
 *   - asks for a short time slice (sched_setattr's sched_runtime for a
 *     SCHED_OTHER task, used from Linux 6.12 on and ignored before): woken
 *     on a busy cpu, it then runs at once instead of after the other task's
 *     slice;
 *   - does not sleep for the first RECORD_WARMUP_MS after the start: it keeps
 *     polling the buffers, so it is running where it was when the samples
 *     start, unless a pass finds data written on its own cpu, when sleeping
 *     is what lets the command (or whatever writes there) run.
 */
#ifndef EMBER_RECORD_WARMUP_H
#define EMBER_RECORD_WARMUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RECORD_WARMUP_MS 20
/* the reader's time slice for small buffers, in ns */
#define RECORD_WARMUP_SLICE_NS 100000ULL

struct ember_cpu_map;
struct ember_evlist;

struct record_warmup {
	uint64_t until_ns;	/* busy-poll until then (CLOCK_MONOTONIC); 0 when off */
	int cpu;		/* the cpu the reader ran on when the pass began */
	bool pass_had_data;	/* this pass found data so far */
	bool own_cpu_data;	/* the last pass with data read some written on that cpu */
};

/*
 * At the start, once the events run: ask for the short slice and begin
 * the busy-poll window when the buffers hold less than RECORD_WARMUP_MS of
 * samples at the events' frequency and the reader may run on another cpu.
 */
void record_warmup__begin(struct record_warmup *w, const struct ember_evlist *evlist,
			  size_t mmap_bytes, bool verbose, uint64_t now_ns);

/* The read loop, around each pass: the cpu it runs on, and a buffer with data. */
void record_warmup__pass(struct record_warmup *w);
void record_warmup__data(struct record_warmup *w, const struct ember_cpu_map *cpus, int buffer);

/* After a pass that found nothing: true to poll again without sleeping. */
bool record_warmup__busy(struct record_warmup *w, uint64_t now_ns);

#endif
