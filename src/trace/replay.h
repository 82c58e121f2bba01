/* SPDX-License-Identifier: GPL-2.0-only */
/* ember trace -i FILE: a recorded file's syscalls printed as perf trace -i prints them. */
#ifndef EMBER_SRC_TRACE_REPLAY_H
#define EMBER_SRC_TRACE_REPLAY_H

#include "trace/run.h"

/* Replay o->input: the lines, and/or (-s/-S) the summary. Prints its errors; the exit code. */
int trace_replay(struct trace_opts *o);

#endif
