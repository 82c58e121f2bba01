/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EMBER_UTIL_STOP_SIGNALS_H
#define EMBER_UTIL_STOP_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/*
 * The signals that end a command's loop (SIGINT, SIGTERM; SIGCHLD too when
 * asked, so a child's end wakes it), blocked and read from a non-blocking
 * signalfd: a ^C stops the loop, which then writes what it has, instead of
 * killing ember.
 */
struct stop_signals {
	int fd;			/* -1: not open */
	sigset_t oldmask;	/* the mask given back by __close() */
};

/* Blocks the signals and opens fd. 0 or -errno (nothing changed then). */
int stop_signals__open(struct stop_signals *s, bool sigchld);
/* Gives the mask back and closes fd; accepts one never opened (fd -1). */
void stop_signals__close(struct stop_signals *s);
/* The signal that came (one per call), 0 for none. */
int stop_signals__read(const struct stop_signals *s);

#endif
