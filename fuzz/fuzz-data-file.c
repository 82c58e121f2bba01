// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the perf.data reader on a regular file (a memfd), the
 * path `ember report -i FILE` takes: the file is mmap'ed whole, and its
 * header says whether it is in file or pipe format.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "data-walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ember_data_reader *r;
	int fd = memfd_create("fuzz-perf.data", MFD_CLOEXEC);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	r = ember_data_reader__open_fd(fd, &fuzz_reader_opts);
	if (r) {
		fuzz_walk(r);
		ember_data_reader__delete(r);
	}
	close(fd);
	return 0;
}
