// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Reading a file cut by a write error up to its last whole record. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "data/format.h"

/* Bytes read at a time when salvaging records after a write error. */
#define SALVAGE_CHUNK (256 * 1024)

int ember_data_writer__salvage(const char *path)
{
	struct perf_file_header fh;
	uint64_t off, end;
	uint8_t *buf = NULL;
	struct stat st;
	int fd = open(path, O_RDWR | O_CLOEXEC), err = -EINVAL;

	if (fd < 0)
		return -errno;
	buf = malloc(SALVAGE_CHUNK);
	if (!buf || fstat(fd, &st) < 0 || pread(fd, &fh, sizeof(fh), 0) != (ssize_t)sizeof(fh) ||
	    memcmp(&fh.magic, "PERFILE2", 8))
		goto out;
	off = fh.data.offset + fh.data.size;
	end = (uint64_t)st.st_size;
	while (off + sizeof(struct perf_event_header) <= end) {
		ssize_t n = pread(fd, buf, SALVAGE_CHUNK, (off_t)off);
		size_t pos = 0;

		while (n > 0 && pos + sizeof(struct perf_event_header) <= (size_t)n) {
			struct perf_event_header h;

			/* COMPRESSED records (-z) have any size: headers may be unaligned */
			memcpy(&h, buf + pos, sizeof(h));
			if (h.size < sizeof(h) || pos + h.size > (size_t)n)
				break;
			pos += h.size;
		}
		if (!pos)
			break;
		off += pos;
	}
	fh.data.size = off - fh.data.offset;
	err = 0;
	if (pwrite(fd, &fh.data.size, sizeof(fh.data.size),
		   (off_t)offsetof(struct perf_file_header, data.size)) != sizeof(fh.data.size))
		err = -EIO;
out:
	free(buf);
	close(fd);
	return err;
}
