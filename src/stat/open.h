/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Opening ember stat's counters, and closing them without waiting for
 * the kernel.
 */
#ifndef EMBER_STAT_OPEN_H
#define EMBER_STAT_OPEN_H

#include <stdbool.h>
#include <ember/event.h>
#include "stat/options.h"

/* Opening ember stat's counters with perf stat's attr settings and fallbacks. */

struct stat_open_opts {
	bool enable_on_exec;	/* a corked command: counting starts at its exec */
	bool inherit;		/* children of the task are counted too */
	bool scale;		/* ask for time enabled/running to scale multiplexed counts */
};

/*
 * Set every evsel's attr for counting and open it on the list's maps.
 * Events the kernel or machine lacks become <not supported>; with
 * perf_event_paranoid > 1 a refused event falls back to user space only
 * (its name gains ":u"), as perf does. Any other failure prints one line
 * naming the event and what to do, closes everything and returns -errno.
 */
int stat_open__counters(struct ember_evlist *evlist, const struct stat_open_opts *opts,
			int verbose);

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
