/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EMBER_UTIL_SESSION_OPEN_H
#define EMBER_UTIL_SESSION_OPEN_H

#include <stddef.h>
#include <ember/session.h>

/*
 * ember_session__open(), keeping what the reader said: on a refusal, why
 * (its last line, without the reader's "perf.data: " prefix: the caller
 * names the file) goes to WHY; on success its warnings go to stderr.
 * errno is ember_session__open()'s.
 */
struct ember_session *session_open_why(const char *path, const struct ember_session_opts *so,
				       char *why, size_t whysz);

#endif
