/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --call-graph: the frames of a stack named from the files' build-ids, as
 * the BPF program gives them (build-id and file offset), so that a process
 * gone by the time its events are read still has its frames named. The
 * files are the ones the trace saw: opened, executed, their interpreters,
 * and what live targets map.
 */
#ifndef EMBER_SRC_TRACE_STACKS_H
#define EMBER_SRC_TRACE_STACKS_H

#include <stdio.h>
#include <sys/types.h>
#include <ember/systrace.h>
#include "core/hashtab.h"

struct trace_stacks {
	struct hashtab by_id;		/* hash of a build-id -> struct stack_file * */
	char **candidates;		/* files seen, not read yet */
	int nr_candidates;
	struct hashtab seen;		/* hash of a path -> 1: each file read once */
	struct hashtab pids;		/* pids whose maps were read */
};

void trace_stacks__init(struct trace_stacks *s);
void trace_stacks__exit(struct trace_stacks *s);
/* A file the trace saw (opened or executed): read for its build-id when a frame asks. */
void trace_stacks__add_file(struct trace_stacks *s, const char *path);
/* A program executed: the file, and the interpreter it names (ld.so). */
void trace_stacks__add_exec(struct trace_stacks *s, const char *path);
/* The files a live process maps now (/proc/PID/maps). */
void trace_stacks__add_process(struct trace_stacks *s, pid_t pid);
/* Whether pid is new to the set pids (hash of a pid -> 1), added now; false on ENOMEM too. */
bool trace_pids__first(struct hashtab *pids, pid_t pid);
/* The first time pid shows up: the files it maps, while it still runs. */
void trace_stacks__see_pid(struct trace_stacks *s, pid_t pid);
/* One frame as perf trace prints it under a line: "sym (dso)", "[0x1f0] (dso)", "[0] ([unknown])". */
void trace_stacks__fprintf(struct trace_stacks *s, const struct ember_systrace_frame *f, FILE *out);

#endif
