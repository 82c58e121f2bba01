// SPDX-License-Identifier: GPL-2.0-only
/* Why a perf.data file was refused: the session's open error, and the one line the commands print. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/session.h>
#include "util/session-open.h"
#include "test.h"

static void line_of(const char *cmd, const char *path, int err, const char *detail, char *buf,
		    size_t size)
{
	struct ember_open_error e = { .err = err };
	FILE *fp = fmemopen(buf, size, "w");

	snprintf(e.detail, sizeof(e.detail), "%s", detail);
	session_open_error__fprintf(fp, cmd, path, &e);
	fclose(fp);
}

TEST(session_open_error_lines)
{
	char buf[256];

	line_of("report", "missing.data", ENOENT, "", buf, sizeof(buf));
	CHECK_STR(buf, "failed to open missing.data: No such file or directory  "
		       "(try 'ember record' first)\n");
	line_of("script", "o.data", EPERM, "", buf, sizeof(buf));
	CHECK_STR(buf, "File o.data not owned by current user or root (use -f to override)\n");
	line_of("heatmap", "e.data", ENODATA, "", buf, sizeof(buf));
	CHECK_STR(buf, "zero-sized data (e.data), nothing to do!\n");
	line_of("flamegraph", "-", EINVAL, "bad magic", buf, sizeof(buf));
	CHECK_STR(buf, "ember flamegraph: standard input: not a perf.data file (incompatible file "
		       "format): bad magic\n");
	line_of("report", "j.data", EINVAL, "", buf, sizeof(buf));
	CHECK_STR(buf, "ember report: j.data: not a perf.data file (incompatible file format)\n");
	line_of("script", "s.data", EPROTONOSUPPORT, "version 1 (PERFFILE) files are not supported",
		buf, sizeof(buf));
	CHECK_STR(buf, "ember script: s.data: version 1 (PERFFILE) files are not supported\n");
	line_of("report", "d", EISDIR, "", buf, sizeof(buf));
	CHECK_STR(buf, "failed to open d: Is a directory\n");
}

TEST(session_open_says_why)
{
	char path[] = "/tmp/ember-open-XXXXXX";
	struct ember_open_error e = { .err = -1 };
	struct ember_session_opts o = { .sz = sizeof(o), .error = &e };
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	/* empty */
	CHECK(ember_session__open(path, &o) == NULL);
	CHECK_EQ(e.err, ENODATA);
	CHECK_STR(e.detail, "");
	/* cut inside the header: the reader's detail comes through the session */
	CHECK_EQ(write(fd, "PERFILE2\x68\0\0\0\0\0\0\0", 16), 16);
	CHECK(ember_session__open(path, &o) == NULL);
	CHECK_EQ(e.err, EINVAL);
	CHECK_STR(e.detail, "file too short for a header");
	close(fd);
	unlink(path);
	CHECK(ember_session__open(path, &o) == NULL);
	CHECK_EQ(e.err, ENOENT);
	CHECK_STR(e.detail, "");
}
