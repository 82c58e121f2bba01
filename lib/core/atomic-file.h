/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A file replaced whole or not at all: written aside, under a temporary
 * name in the same directory, and renamed over its path only when every
 * byte is out, so a crash or a full disk never leaves half a file where a
 * reader looks. A path that exists and is not a regular file (/dev/null,
 * a FIFO, a terminal) is written in place: renaming over it would replace
 * the device with a file.
 */
#ifndef EMBER_CORE_ATOMIC_FILE_H
#define EMBER_CORE_ATOMIC_FILE_H

#include <stdio.h>
#include <sys/types.h>

struct atomic_file {
	FILE *fp;		/* write here */
	const char *path;	/* the caller's, not copied */
	char *tmp;		/* the name written aside, NULL when in place */
};

/*
 * Opens path for writing through af->fp. The file gets mode less the
 * umask (the kernel applies it, as open(2) with O_CREAT). 0, or -errno
 * with af->fp NULL and nothing left behind.
 */
int atomic_file__open(struct atomic_file *af, const char *path, mode_t mode);
/*
 * Closes af->fp and puts the file in place. 0, or -errno (-EIO for a
 * stream error with errno 0) with the temporary removed and path as it was.
 */
int atomic_file__commit(struct atomic_file *af);
/* Closes af->fp and removes the temporary; path stays as it was. NULL fp is fine. */
void atomic_file__abort(struct atomic_file *af);

#endif
