/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Closing counters without making the user wait for the kernel. The last
 * close of a tracepoint event unregisters its probe and waits for RCU
 * grace periods under the kernel's event_mutex: ~30 ms per tracepoint,
 * 12 s for "syscalls:sys_enter_*" (perf stat pays it). Counting is over by
 * then, so ember keeps those fds open (disabled) until it is done, and
 * hands them to a detached process that closes them in the background.
 * Keeping them also makes the next -r run's opens cheap: a tracepoint
 * still in use is not registered again.
 */
#ifndef EMBER_STAT_CLOSE_H
#define EMBER_STAT_CLOSE_H

#include <ember/event.h>

/* Tracepoint fds set aside, open and disabled. Zero-initialise. */
struct stat_graveyard {
	int *fds;
	int nr, alloc;
};

/*
 * Close the list's counters: tracepoint fds are disabled and moved into
 * the graveyard (they stay open), the others are closed. Falls back to
 * closing everything when memory runs out.
 */
void stat_graveyard__bury(struct stat_graveyard *g, struct ember_evlist *evlist);
/*
 * Close the graveyard's fds: from a detached child when there are any
 * (it waits until ember has dropped its references, so the slow last
 * closes are its own), here when it cannot fork. Frees the array.
 */
void stat_graveyard__release(struct stat_graveyard *g);

#endif
