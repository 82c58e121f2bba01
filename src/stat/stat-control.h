/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf stat --control: commands read from a descriptor or a fifo while
 * counting ("enable", "disable", "ping"), each acknowledged with "ack\n"
 * and a NUL on the ack descriptor when there is one, as perf does.
 */
#ifndef EMBER_STAT_CONTROL_H
#define EMBER_STAT_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <ember/event.h>

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
