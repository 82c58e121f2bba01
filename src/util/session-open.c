// SPDX-License-Identifier: GPL-2.0-only
/* Opening a session for report and script, with the reader's reason for a refusal. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <ember/ember.h>
#include "util/session-open.h"

/*
 * What the reader said while opening: the last line is the reason for a
 * refusal (its debug lines name the bad field), the warnings are shown
 * when the open succeeds. The print callback takes no context, so these
 * live here, used only while a session opens.
 */
static char open_why[160], open_warns[512];

static int capture_why(enum ember_log_level level, void *ctx, const char *fmt, va_list ap)
{
	size_t n;

	if (level == EMBER_INFO)
		return 0;
	vsnprintf(open_why, sizeof(open_why), fmt, ap);
	if (level == EMBER_WARN) {
		n = strlen(open_warns);
		snprintf(open_warns + n, sizeof(open_warns) - n, "%s", open_why);
	}
	n = strlen(open_why);
	if (n && open_why[n - 1] == '\n')
		open_why[n - 1] = '\0';
	if (!strncmp(open_why, "perf.data: ", 11))
		memmove(open_why, open_why + 11, strlen(open_why + 11) + 1);
	return 0;
}

struct ember_session *session_open_why(const char *path, const struct ember_session_opts *so,
				       char *why, size_t whysz)
{
	struct ember_log old = ember_set_log(capture_why, NULL);
	struct ember_session *s;
	int err;

	open_why[0] = open_warns[0] = '\0';
	s = ember_session__open(path, so);
	err = errno;
	ember_set_log(old.fn, old.ctx);
	if (s)
		fputs(open_warns, stderr);
	snprintf(why, whysz, "%s", open_why);
	errno = err;
	return s;
}
