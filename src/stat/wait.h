/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What ember stat waits for while counting: a deadline, a signal, the
 * end of the processes counted, or a --control command.
 */
#ifndef EMBER_STAT_WAIT_H
#define EMBER_STAT_WAIT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <ember/event.h>

/*
 * Waiting while ember stat counts: for the next interval tick, a deadline
 * (--timeout, -D), SIGINT/SIGTERM (through a signalfd, so no handler and
 * no global flag) or the exit of the processes being counted (pidfds;
 * polling /proc where a pidfd is not available).
 */

struct stat_waiter {
	int sigfd;
	sigset_t oldmask;
	int nr;				/* watched processes */
	pid_t *pids;
	int *pidfds;			/* -1: polled through /proc instead */
	bool *gone;
	int ctl_fd;			/* --control's descriptor, -1 when none */
};

enum stat_wake {
	STAT_WAKE_DEADLINE,	/* the deadline passed */
	STAT_WAKE_SIGNAL,	/* SIGINT or SIGTERM arrived */
	STAT_WAKE_EXIT,		/* every watched process has exited */
	STAT_WAKE_CONTROL,	/* the --control descriptor has a command to read */
	STAT_WAKE_ERROR,
};

/* A received stop signal and whether a process (not the terminal) sent it. */
struct stat_signal {
	int signo;
	bool from_process;
};

/*
 * Block SIGINT and SIGTERM and open a signalfd for them. Children started
 * later get the default mask back (the workload resets it). Returns 0 or -errno.
 */
int stat_waiter__init(struct stat_waiter *w);
/* Close everything and restore the signal mask. */
void stat_waiter__exit(struct stat_waiter *w);
/* Watch pid (a process, or a thread with tid=true); returns 0 or -ENOMEM. */
int stat_waiter__watch(struct stat_waiter *w, pid_t pid, bool tid);
/* Stop watching everything (between -r runs). */
void stat_waiter__unwatch_all(struct stat_waiter *w);
/*
 * Sleep until deadline_ns (CLOCK_MONOTONIC; 0: none), a stop signal (its
 * details in *sig), or until every watched process has exited (never,
 * when none is watched).
 */
enum stat_wake stat_waiter__wait(struct stat_waiter *w, uint64_t deadline_ns,
				 struct stat_signal *sig);

/*
 * perf stat --control: commands read from a descriptor or a fifo while
 * counting ("enable", "disable", "ping"), each acknowledged with "ack\n"
 * and a NUL on the ack descriptor when there is one, as perf does.
 */

struct stat_control {
	int ctl_fd, ack_fd;		/* -1 when unset */
	bool opened;			/* fifo: ember opened them and closes them */
	char buf[256];			/* a command line being read */
	size_t len;
};

/* Start with no control. */
void stat_control__init(struct stat_control *ctl);
/*
 * Parse "fd:CTL[,ACK]" or "fifo:CTL[,ACK]" (opening the fifos). Returns
 * 0, -EINVAL for a malformed spec, or -errno from opening a fifo.
 */
int stat_control__parse(struct stat_control *ctl, const char *spec);
void stat_control__exit(struct stat_control *ctl);
/*
 * Read what is waiting on the control descriptor and act on each whole
 * command: enable or disable the events (saying so on stderr unless
 * quiet), answer ping. Returns false once the descriptor is at its end.
 */
bool stat_control__process(struct stat_control *ctl, struct ember_evlist *evlist, bool quiet);

#endif
