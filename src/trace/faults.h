/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ember trace -F/--pf: the major-faults and minor-faults software events,
 * opened beside the BPF tracer with their own ring buffers, each fault
 * described as perf trace describes it ("majfault [func+0x1b] =>
 * /usr/lib/libc.so.6@0x2f10 (d.)"), from the maps their side-band records
 * build.
 */
#ifndef EMBER_SRC_TRACE_FAULTS_H
#define EMBER_SRC_TRACE_FAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Which faults (-F's argument): bits. */
#define TRACE_PF_MAJ (1u << 0)
#define TRACE_PF_MIN (1u << 1)

/* "all", "maj" or "min" into TRACE_PF_* bits. Returns 0, or -EINVAL for anything else. */
int trace_faults__parse(const char *arg, unsigned int *kinds);

/* Where the fault events are opened: a command's pid, or -p/-t's lists, or cpus. */
struct trace_faults_target {
	pid_t command;			/* held before its exec: counted from it on, children too */
	const char *pids;		/* -p: every thread of these processes */
	const char *tids;		/* -t */
	const int *cpus;		/* -C (or every cpu when no task target is given) */
	int nr_cpus;
	bool no_inherit;
};

/* One fault, as handed to the printer. Valid during the call only. */
struct trace_fault {
	uint64_t time;			/* ns, CLOCK_MONOTONIC, as the BPF tracer's */
	pid_t pid;
	pid_t tid;
	bool major;
	const char *comm;		/* the thread's name then */
	const char *text;		/* "majfault [ip's place] => address's place (d.)" */
};

typedef int (*trace_fault_fn)(void *ctx, const struct trace_fault *fault);

struct trace_faults;

/*
 * Open and map the events of kinds for target (enabled now, or at the
 * command's exec), with the processes already running described from
 * /proc. NULL with errno set (the perf_event_open error).
 * Freed with trace_faults__delete().
 */
struct trace_faults *trace_faults__new(unsigned int kinds, const struct trace_faults_target *t);
void trace_faults__delete(struct trace_faults *f);
/* Stop counting: what the buffers hold can still be read. */
void trace_faults__stop(struct trace_faults *f);
/* Move what the ring buffers hold into the queue. Returns 0 or -ENOMEM. */
int trace_faults__read(struct trace_faults *f);
/*
 * Hand the queued faults older than `before` (UINT64_MAX: all) to fn, in
 * time order, the maps changed by the side-band records between them.
 * Returns 0, or fn's non-zero return / -ENOMEM.
 */
int trace_faults__flush(struct trace_faults *f, uint64_t before, trace_fault_fn fn, void *ctx);
/* Records the ring buffers dropped. */
uint64_t trace_faults__lost(const struct trace_faults *f);

#endif
