/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A thread as perf models it: pid (process), tid, parent, the comm it is
 * known by, and the maps it shares with the other threads of its process.
 */
#ifndef EMBER_LIB_THREAD_H
#define EMBER_LIB_THREAD_H

#include <stdbool.h>
#include <sys/types.h>
#include <ember/machine.h>
#include "machine/map.h"

struct ember_thread {
	pid_t pid;		/* -1 until known */
	pid_t tid;
	pid_t ppid;		/* the parent's tid, -1 until a FORK says */
	const char *comm;	/* interned by the machine: stable, comparable by pointer */
	bool comm_set;		/* a COMM (or a named parent) set it; else it is ":TID" */
	bool comm_exec;		/* the last comm came with an exec */
	bool exited;
	struct maps *maps;	/* one reference */
	struct ember_machine *machine;
};

/* A thread with comm (interned) and no maps; NULL on ENOMEM. */
struct ember_thread *thread__new(struct ember_machine *machine, pid_t pid, pid_t tid,
				 const char *comm);
/* Drops its maps reference and frees it. */
void thread__free(struct ember_thread *thread);
/* True while the thread is known by the ":TID" placeholder (no COMM, no named parent yet). */
bool thread__comm_is_placeholder(const struct ember_thread *thread);

#endif
