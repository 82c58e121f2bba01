/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Signals while recording: SIGINT, SIGTERM and SIGHUP end the recording
 * cleanly, SIGCHLD tells the command exited. They are blocked and read from
 * a signalfd the read loop polls with the ring buffers, so no handler and
 * no global flag exist. SIGPIPE is ignored: a closed pipe-mode reader shows
 * up as EPIPE from the writer. A SIGHUP ignored when ember starts (nohup)
 * stays ignored, as in perf, which leaves it alone.
 */
#ifndef EMBER_RECORD_SIGNALS_H
#define EMBER_RECORD_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

struct record_signals {
	int fd;			/* the signalfd, -1 when not set up */
	bool usr2;		/* SIGUSR2 is read too (--switch-output, --overwrite) */
	sigset_t old_mask;
	struct sigaction old_pipe;
};

/*
 * Block the signals and open the signalfd (non-blocking, close-on-exec).
 * A command forked afterwards gets default dispositions back (the
 * workload resets them). Returns 0 or -errno.
 */
int record_signals__init(struct record_signals *s, bool usr2);

/*
 * Read every pending signal: *child is set on SIGCHLD, *usr2 on SIGUSR2
 * (may be NULL), and the last stopping signal (INT, TERM, HUP) is
 * returned, or 0.
 */
int record_signals__read(struct record_signals *s, bool *child, bool *usr2);

/* Close the signalfd and restore the mask and SIGPIPE. Safe when not set up. */
void record_signals__exit(struct record_signals *s);

#endif
