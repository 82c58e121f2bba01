/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The events ember trace takes from perf_event_open() beside the BPF
 * tracer, each with its own ring buffers, as perf trace takes them: -F's
 * major-faults and minor-faults (each fault described as perf trace does,
 * "majfault [func+0x1b] => /usr/lib/libc.so.6@0x2f10 (d.)", from the maps
 * their side-band records build), and -e's probe events (uprobes and
 * kprobes), which a BPF tracepoint program cannot be attached to, as
 * tracepoint events whose raw records are printed as the tracer's.
 */
#ifndef EMBER_SRC_TRACE_PERF_EVENTS_H
#define EMBER_SRC_TRACE_PERF_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <ember/systrace.h>

/* Which faults (-F's argument): bits. */
#define TRACE_PF_MAJ (1u << 0)
#define TRACE_PF_MIN (1u << 1)

/* "all", "maj" or "min" into TRACE_PF_* bits. Returns 0, or -EINVAL for anything else. */
int trace_faults__parse(const char *arg, unsigned int *kinds);

struct trace_perf_events_opts {
	unsigned int pf_kinds;		/* -F: TRACE_PF_* */
	/* -e's probe events: their tracefs ids; the records say index_base + i */
	const uint64_t *probe_ids;
	int nr_probes;
	int index_base;
	/* the targets: a command's pid, or -p/-t's lists, or cpus */
	pid_t command;			/* held before its exec: from it on, children too */
	const char *pids;		/* -p: every thread of these processes */
	const char *tids;		/* -t */
	const int *cpus;		/* -C (or every cpu when no task target is given) */
	int nr_cpus;
	bool no_inherit;
	bool callchain;			/* --call-graph fp: each fault's stack */
};

/* One fault, as handed to the printer. Valid during the call only. */
struct trace_fault {
	uint64_t time;			/* ns, CLOCK_MONOTONIC, as the BPF tracer's */
	pid_t pid;
	pid_t tid;
	bool major;
	char comm[16];			/* the thread's name then */
	const char *text;		/* "majfault [ip's place] => address's place (d.)" */
	const char *chain;		/* --call-graph: a line per frame, as perf; NULL: none */
};

typedef int (*trace_fault_fn)(void *ctx, const struct trace_fault *fault);

/* Where the records go: a probe's as a tracepoint record of the BPF tracer's. */
struct trace_perf_handlers {
	trace_fault_fn fault;
	ember_systrace_tp_fn probe;
	void *ctx;
};

struct trace_perf_events;

/*
 * Open and map the events o asks for (enabled now, or at the command's
 * exec), with the processes already running described from /proc. NULL
 * with errno set (the perf_event_open error). Freed with
 * trace_perf_events__delete().
 */
struct trace_perf_events *trace_perf_events__new(const struct trace_perf_events_opts *o);
void trace_perf_events__delete(struct trace_perf_events *pe);
/* Stop them: what the buffers hold can still be read. */
void trace_perf_events__stop(struct trace_perf_events *pe);
/* Move what the ring buffers hold into the queue. Returns 0 or -ENOMEM. */
int trace_perf_events__read(struct trace_perf_events *pe);
/*
 * Hand the queued events older than `before` (UINT64_MAX: all) to h, in
 * time order, the maps changed by the side-band records between them.
 * Returns 0, or a handler's non-zero return / -ENOMEM.
 */
int trace_perf_events__flush(struct trace_perf_events *pe, uint64_t before,
			     const struct trace_perf_handlers *h);
/* Records the ring buffers dropped. */
uint64_t trace_perf_events__lost(const struct trace_perf_events *pe);

#endif
