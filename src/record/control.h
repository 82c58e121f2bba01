/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --control fifo:CTL[,ACK] / fd:CTL[,ACK]: perf record 6.1's control
 * channel. One command a line on CTL ("enable", "disable", "enable NAME",
 * "disable NAME", "snapshot", "evlist [-v|-g|-F]", "stop", "ping"); each
 * command perf acknowledges gets perf's "ack\n\0" on ACK.
 */
#ifndef EMBER_RECORD_CONTROL_H
#define EMBER_RECORD_CONTROL_H

#include <stdbool.h>

/* perf's EVLIST_CTL_CMD_MAX_LEN: longer lines are cut there. */
#define RECORD_CTL_MAX_LEN 64

enum record_ctl_cmd {
	RECORD_CTL_UNSUPPORTED,
	RECORD_CTL_ENABLE,
	RECORD_CTL_DISABLE,
	RECORD_CTL_SNAPSHOT,
	RECORD_CTL_EVLIST,
	RECORD_CTL_STOP,
	RECORD_CTL_PING,
};

struct record_control {
	int fd, ack;		/* -1 when not given */
	bool owned;		/* fifo: opened here, closed at exit */
	int pollfd;		/* index in the read loop's pollfds, -1 when none */
};

struct record;

/* Check a --control argument's syntax. 0 or -EINVAL. */
int record_control__check(const char *spec);

/*
 * Open what spec names (fifos read-write and non-blocking, as perf: a
 * writer may come and go without a hang-up). Returns 0 or an exit code
 * (message printed). ctl is set to "none" first.
 */
int record_control__open(struct record_control *ctl, const char *spec);

/*
 * A command line (without its newline) as perf matches it: by prefix.
 * *arg is what follows "CMD " (NULL when nothing does); *malformed is set
 * when the prefix is followed by something other than a space.
 */
enum record_ctl_cmd record_control__parse_cmd(const char *line, const char **arg,
					      bool *malformed);

/*
 * Read and carry out what the control fd holds (after poll said POLLIN or
 * POLLHUP: a closed fd stops being polled). Sets rec->done on "stop" and
 * rec->usr2 on "snapshot".
 */
void record_control__process(struct record *rec, short revents);

/* Close the fifos ember opened. Safe when there are none. */
void record_control__close(struct record_control *ctl);

#endif
