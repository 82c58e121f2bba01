/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The --control argument of perf record and perf stat 6.1, parsed as perf's
 * evlist__parse_control() does: "fd:CTL[,ACK]" (numbers in any base strtoul
 * takes) or "fifo:CTL[,ACK]" (paths; an empty ACK is none).
 */
#ifndef EMBER_UTIL_CONTROL_SPEC_H
#define EMBER_UTIL_CONTROL_SPEC_H

#include <stdbool.h>

struct control_spec {
	bool fifo;			/* the fifo: form */
	int ctl_fd, ack_fd;		/* fd: form; ack_fd -1 when none */
	const char *ctl_path;		/* fifo: form, into buf */
	const char *ack_path;		/* fifo: form, into buf; NULL when none */
	char *buf;			/* owned */
};

/* Splits spec. 0, -EINVAL when it is neither form, or -ENOMEM. Free with control_spec__exit(). */
int control_spec__parse(struct control_spec *cs, const char *spec);
void control_spec__exit(struct control_spec *cs);

/*
 * Opens a control or ack fifo as perf does: read-write (no hang-up each
 * time a writer closes, no wait for one at open), non-blocking,
 * close-on-exec. The fd, or -errno.
 */
int control_spec__open_fifo(const char *path);

#endif
