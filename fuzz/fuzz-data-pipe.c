// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the perf.data reader on a pipe, the path
 * `perf record -o - | ember report -i -` takes: pipe-format input is read
 * as a stream through a window buffer, file-format input is read whole
 * into memory first. A thread feeds the pipe, so inputs of any size fit.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "data-walk.h"

struct feed {
	int fd;
	const uint8_t *data;
	size_t size;
};

static void *feeder(void *arg)
{
	struct feed *f = arg;

	/* the reader may stop early: EPIPE then, not SIGPIPE (ignored at init) */
	for (size_t off = 0; off < f->size;) {
		ssize_t n = write(f->fd, f->data + off, f->size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += n;
	}
	close(f->fd);
	return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ember_data_reader *r;
	struct feed f = { .data = data, .size = size };
	pthread_t th;
	int fds[2];

	if (pipe(fds))
		abort();
	f.fd = fds[1];
	if (pthread_create(&th, NULL, feeder, &f))
		abort();
	r = ember_data_reader__open_fd(fds[0], &fuzz_reader_opts);
	if (r) {
		fuzz_walk(r);
		ember_data_reader__delete(r);
	}
	/* unblock the feeder if the reader gave up before the end */
	close(fds[0]);
	pthread_join(th, NULL);
	return 0;
}
