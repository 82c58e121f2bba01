/* SPDX-License-Identifier: GPL-2.0-only */
/* ember trace's options, as perf trace spells them, and the syscalls -e chose. */
#ifndef EMBER_SRC_TRACE_OPTIONS_H
#define EMBER_SRC_TRACE_OPTIONS_H

#include <stdbool.h>
#include <sys/types.h>

struct trace_opts {
	int argc;			/* the command to run, if any */
	const char **argv;
	const char *pids;		/* -p PID[,PID] */
	const char *tids;		/* -t TID[,TID] */
	bool all_cpus;			/* -a */
	const char *cpu_list;		/* -C */
	const char *user;		/* -u NAME|UID */
	bool filter_uid;
	uid_t uid;
	const char *output;		/* -o FILE */
	double duration;		/* --duration MS */
	bool failure;			/* --failure */
	bool comm;			/* --comm (default), --no-comm */
	bool full_time;			/* -T: timestamps since boot, not since the first event */
	bool syscalls;			/* --syscalls (default), --no-syscalls */
	bool syscalls_given;		/* either was */
	unsigned int pf_kinds;		/* -F/--pf: TRACE_PF_* bits; 0: no faults */
	bool no_inherit;		/* --no-inherit */
	unsigned long max_events;	/* --max-events N, 0: no limit */
	bool call_graph;		/* --call-graph fp: each call's user stack */
	unsigned int dwarf_stack;	/* --call-graph dwarf[,SIZE]: bytes of stack copied; 0: not */
	size_t buffer_size;		/* -m PAGES: the ring buffer's bytes; 0: the default */
	bool summary;			/* -s/-S: the syscalls counted in the kernel, printed at the end */
	bool summary_only;		/* -s: no line per syscall */
	bool with_summary;		/* -S */
	bool errno_summary;		/* --errno-summary: -s/-S list each failing syscall's errnos */
	bool record;			/* trace record: argv[0] is "record", the rest record's */
	const char *input;		/* -i: a recorded file to replay, not a live trace */
	int verbose;
	/* -e/--expr: the syscalls chosen; negate: every one but those */
	int *syscall_nrs;
	int nr_syscalls;
	bool negate;
	bool have_qualifier;		/* -e named syscalls */
	const char **tp_specs;		/* -e sys:name (tracepoints, probes), as given */
	int nr_tp_specs;
};

/*
 * Parse argv into o (defaults first). Returns -1 to go on with o filled
 * (argc/argv: the command), or an exit code after printing help or an
 * error. trace_opts__exit() frees what o holds either way.
 */
int trace_opts__parse(struct trace_opts *o, int argc, const char **argv);
void trace_opts__exit(struct trace_opts *o);

/*
 * The syscall numbers to trace for o (all of them, -e's, or all but -e's
 * with '!'), into a malloc'd array; NULL with *nr 0 means all.
 */
int *trace_opts__syscalls(const struct trace_opts *o, int *nr);

#endif
