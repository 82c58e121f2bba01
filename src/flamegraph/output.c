// SPDX-License-Identifier: GPL-2.0-only
/* Where a flame graph goes: stdout for "-", else a file written aside and renamed into place. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "flamegraph/flamegraph.h"

int fg_output__open(struct fg_output *out, const char *path)
{
	int err;

	out->path = path;
	out->fp = NULL;
	if (!strcmp(path, "-")) {
		out->fp = stdout;
		return 0;
	}
	err = atomic_file__open(&out->file, path, 0666);
	if (err) {
		fprintf(stderr, "ember flamegraph: cannot write %s: %s\n", path, strerror(-err));
		return -1;
	}
	out->fp = out->file.fp;
	return 0;
}

int fg_output__close(struct fg_output *out, bool ok)
{
	int err = 0;

	if (out->fp == stdout) {
		if (fflush(stdout) || ferror(stdout))
			err = errno ? errno : EIO;
	} else if (out->fp) {
		if (ok)
			err = -atomic_file__commit(&out->file);
		else
			atomic_file__abort(&out->file);
	}
	out->fp = NULL;
	if (ok && err) {
		fprintf(stderr, "ember flamegraph: cannot write %s: %s\n", out->path, strerror(err));
		return -1;
	}
	return 0;
}
