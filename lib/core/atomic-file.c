// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/atomic-file.h"

/*
 * A new file "path.XXXXXX" with mode less the umask. mkstemp() would make
 * it 0600, and reading the umask to widen it is not thread-safe, so the
 * name is drawn here and O_EXCL keeps it ours.
 */
static int create_aside(const char *path, mode_t mode, char **tmpp)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t len = strlen(path);
	char *tmp = malloc(len + 8);
	int tries;

	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, path, len);
	tmp[len] = '.';
	tmp[len + 7] = '\0';
	for (tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		int fd;

		if (getrandom(r, sizeof(r), 0) != sizeof(r)) {
			for (int i = 0; i < 6; i++)
				r[i] = (unsigned char)(random() >> 8);
		}
		for (int i = 0; i < 6; i++)
			tmp[len + 1 + i] = chars[r[i] % (sizeof(chars) - 1)];
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (fd >= 0) {
			*tmpp = tmp;
			return fd;
		}
		if (errno != EEXIST)
			break;
	}
	free(tmp);
	return -(errno == EEXIST ? EEXIST : errno);
}

int atomic_file__open(struct atomic_file *af, const char *path, mode_t mode)
{
	struct stat st;
	int fd;

	af->fp = NULL;
	af->path = path;
	af->tmp = NULL;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		af->fp = fopen(path, "we");
		return af->fp ? 0 : -errno;
	}
	fd = create_aside(path, mode, &af->tmp);
	if (fd < 0)
		return fd;
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int err = -errno;

		close(fd);
		unlink(af->tmp);
		free(af->tmp);
		af->tmp = NULL;
		return err;
	}
	return 0;
}

int atomic_file__commit(struct atomic_file *af)
{
	int err = 0;

	if (!af->fp)
		return -EBADF;
	/* A write that failed earlier left the stream's error; fclose() finds a late one. */
	if (ferror(af->fp))
		err = -EIO;
	if (fclose(af->fp) && !err)
		err = -errno;
	af->fp = NULL;
	if (af->tmp) {
		if (!err && rename(af->tmp, af->path))
			err = -errno;
		if (err)
			unlink(af->tmp);
		free(af->tmp);
		af->tmp = NULL;
	}
	return err;
}

void atomic_file__abort(struct atomic_file *af)
{
	if (af->fp)
		fclose(af->fp);
	af->fp = NULL;
	if (af->tmp) {
		unlink(af->tmp);
		free(af->tmp);
		af->tmp = NULL;
	}
}
