/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What ember trace remembers while it prints: each thread's pending entry
 * (perf trace prints a call at its exit, or at its entry when another
 * thread interrupts), the paths behind each process's fds (from its opens,
 * else /proc), and thread names.
 */
#ifndef EMBER_SRC_TRACE_STATE_H
#define EMBER_SRC_TRACE_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "core/hashtab.h"

#define TRACE_ENTRY_STR_SIZE 2048

struct trace_thread {
	pid_t pid;
	pid_t tid;
	char comm[16];
	uint64_t entry_time;		/* its last entry, 0 when none was seen */
	bool entry_pending;		/* entered, not yet printed */
	int nr;				/* the syscall entered */
	char *open_name;		/* an open's file name, for its fd at exit */
	char *entry_str;		/* "name(args", TRACE_ENTRY_STR_SIZE bytes; NULL once it exited */
	uint64_t pfmaj, pfmin;		/* -F: its page faults */
};

struct trace_state {
	struct hashtab threads;		/* tid -> struct trace_thread * */
	struct hashtab fds;		/* (pid, fd) -> char *path */
	char comm[16];			/* the last comm read from /proc */
};

void trace_state__init(struct trace_state *s);
void trace_state__exit(struct trace_state *s);
/* The thread tid of pid, made on first sight. NULL when out of memory. */
struct trace_thread *trace_state__thread(struct trace_state *s, pid_t pid, pid_t tid);
/* The path fd names in pid: remembered from its open, else read from /proc. NULL if unknown. */
const char *trace_state__fd_path(struct trace_state *s, pid_t pid, int fd);
void trace_state__set_fd(struct trace_state *s, pid_t pid, int fd, const char *path);
void trace_state__forget_fd(struct trace_state *s, pid_t pid, int fd);
/* Process pid ended (exit_group): its fd paths are forgotten (a new pid may reuse it). */
void trace_state__forget_fds(struct trace_state *s, pid_t pid);
/* Thread t ended: what it kept for its calls is freed; its name stays for the pids returned. */
void trace_thread__exit(struct trace_thread *t);
/* The name of thread pid: the last one seen in its events, else /proc's. NULL if unknown. */
const char *trace_state__comm(struct trace_state *s, pid_t pid);
/*
 * The name of a thread a call by caller returned, as perf knows it: one
 * seen in events, or caller's new child (named as its parent until it
 * execs). NULL otherwise.
 */
/* The thread tid when seen, else NULL. */
struct trace_thread *trace_state__find_thread(const struct trace_state *s, pid_t tid);
const char *trace_state__ret_comm(struct trace_state *s, pid_t pid, pid_t caller);

#endif
