// SPDX-License-Identifier: GPL-2.0-only
/* Opening perf.data for report, script, heatmap and flamegraph, with one message for a refusal. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/session-open.h"

void session_open_error__fprintf(FILE *fp, const char *cmd, const char *path,
				 const struct ember_open_error *e)
{
	const char *name = strcmp(path, "-") ? path : "standard input";

	switch (e->err) {
	case ENOENT:
		fprintf(fp, "failed to open %s: %s  (try 'ember record' first)\n", name,
			strerror(e->err));
		break;
	case EPERM:
		fprintf(fp, "File %s not owned by current user or root (use -f to override)\n", name);
		break;
	case ENODATA:
		fprintf(fp, "zero-sized data (%s), nothing to do!\n", name);
		break;
	case EINVAL:
		fprintf(fp, "ember %s: %s: not a perf.data file (incompatible file format)%s%s\n", cmd,
			name, e->detail[0] ? ": " : "", e->detail);
		break;
	case EPROTONOSUPPORT:
		fprintf(fp, "ember %s: %s: %s\n", cmd, name,
			e->detail[0] ? e->detail : "a perf.data format this ember does not read");
		break;
	default:
		fprintf(fp, "failed to open %s: %s\n", name, strerror(e->err));
		break;
	}
}

/* As perf: with no -i, a pipe on standard input is read rather than perf.data. */
static const char *default_path(void)
{
	struct stat st;

	return !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
}

struct ember_session *session_open(const char *cmd, const char *path,
				   const struct ember_session_opts *opts)
{
	struct ember_open_error e;
	struct ember_session_opts o = *opts;
	struct ember_session *s;

	if (!path || !*path)
		path = default_path();
	o.sz = sizeof(o);
	o.error = &e;
	s = ember_session__open(path, &o);
	if (!s) {
		session_open_error__fprintf(stderr, cmd, path, &e);
		errno = e.err;
	}
	return s;
}
