// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <unistd.h>
#include "core/io.h"

int io_write_all(int fd, const void *buf, size_t size)
{
	const char *p = buf;

	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n ? -errno : -EIO;
		p += n;
		size -= n;
	}
	return 0;
}
