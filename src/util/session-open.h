/* SPDX-License-Identifier: GPL-2.0-only */
/* Opening perf.data for a command, and the one line that says why it failed. */
#ifndef EMBER_UTIL_SESSION_OPEN_H
#define EMBER_UTIL_SESSION_OPEN_H

#include <stdio.h>
#include <ember/session.h>

/*
 * One line on fp saying why path could not be opened as a perf.data
 * file: perf's words where perf has them (no such file, not owned,
 * empty), else "ember CMD: PATH: ..." with the reader's detail. "-" is
 * named "standard input".
 */
void session_open_error__fprintf(FILE *fp, const char *cmd, const char *path,
				 const struct ember_open_error *e);

/*
 * ember_session__open() for command cmd ("report", "script", ...): path
 * NULL or "" is what perf reads then (standard input when it is a pipe,
 * else perf.data). On failure prints why (above) to stderr and returns
 * NULL with errno set.
 */
struct ember_session *session_open(const char *cmd, const char *path,
				   const struct ember_session_opts *opts);

#endif
