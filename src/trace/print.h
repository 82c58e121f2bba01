/* SPDX-License-Identifier: GPL-2.0-only */
/* ember trace's lines, in perf trace's layout. */
#ifndef EMBER_SRC_TRACE_PRINT_H
#define EMBER_SRC_TRACE_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <ember/syscall.h>
#include <ember/systrace.h>
#include "trace/perf-events.h"
#include "trace/dwarf-stacks.h"
#include "trace/stacks.h"
#include "trace/state.h"
#include "trace/tracepoints.h"

/* The printer: its options, and what it keeps between events. */
struct trace_printer {
	FILE *out;
	struct ember_syscalls *syscalls;	/* not owned */
	double duration_ms;		/* --duration: only calls at least this long */
	bool failure_only;		/* --failure: only calls that failed */
	bool show_comm;			/* comm/ before the tid (--no-comm: off) */
	bool show_tid;			/* several threads traced: comm/tid shown */
	bool show_time;			/* the timestamp column */
	bool full_time;			/* -T: time since boot, not since the first event */
	bool summary_only;		/* no lines at all (-s) */
	bool show_duration;		/* syscalls traced: the duration column is shown */
	struct trace_tps *tps;		/* -e's tracepoints, not owned */
	struct trace_stacks *stacks;	/* --call-graph: names the frames; not owned */
	struct trace_dwarf *dwarf;	/* --call-graph dwarf: unwinds and names them; not owned */
	unsigned long max_events;	/* --max-events: print no more lines than this; 0: no limit */
	uint64_t base_time;		/* the first event's: timestamps are relative to it */
	bool have_base;
	struct trace_thread *current;	/* the thread of the last entry */
	struct trace_state state;
	unsigned long nr_printed;
	/*
	 * -i: the names of pids in arguments and returns from the file, not
	 * from /proc; and no fd paths (perf -i reads none from /proc either)
	 */
	const char *(*pid_comm)(void *names, pid_t pid);
	void *names;
};

/* Defaults as perf trace's: comm/tid, timestamps, every call. */
void trace_printer__init(struct trace_printer *p, FILE *out, struct ember_syscalls *syscalls);
void trace_printer__exit(struct trace_printer *p);
/* An ember_systrace_fn: perf trace's lines for each entry and exit. */
int trace_printer__event(void *ctx, const struct ember_syscall_rec *enter,
			 const struct ember_syscall_rec *exit);

/* An ember_systrace_tp_fn: "sys:name(fields)" lines, perf trace's. */
int trace_printer__tracepoint(void *ctx, const struct ember_systrace_tp_rec *rec);

/*
 * A trace_fault_fn: perf trace's fault line, "0.363 ( 0.000 ms): ls/1234
 * majfault [func+0x1b] => /usr/lib/libc.so.6@0x2f10 (d.)"; counted per thread.
 */
int trace_printer__fault(void *ctx, const struct trace_fault *fault);

#endif
