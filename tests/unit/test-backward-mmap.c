// SPDX-License-Identifier: GPL-2.0-only
/*
 * Backward ring buffers on the real kernel: a dummy event on this thread
 * with comm records, written backward into a one-page buffer; renames of
 * the thread come back newest first, a second copy holds only what came
 * since, and once the buffer has wrapped a copy is one buffer's worth of
 * whole records, the newest kept.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ember/mmap.h>
#include "test.h"

struct comm_rec {
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[16];
};

static int open_backward(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.comm = 1,
		.write_backward = 1,
	};

	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

/* The comms of the records in data[0, len), into names (at most max); how many. */
static int comms(const void *data, size_t len, char names[][16], int max, int *bad)
{
	size_t pos = 0;
	int n = 0;

	while (len - pos >= sizeof(struct perf_event_header)) {
		const struct comm_rec *r = (const void *)((const char *)data + pos);

		if (r->header.size < sizeof(r->header) || r->header.size > len - pos) {
			(*bad)++;
			break;
		}
		if (r->header.type == PERF_RECORD_COMM && n < max)
			memcpy(names[n++], r->comm, 16);
		pos += r->header.size;
	}
	return n;
}

TEST(backward_mmap_newest_first)
{
	char old[16] = { 0 }, names[256][16], name[16];
	struct ember_backward_mmap *b;
	const void *data;
	int fd = open_backward(), n, bad = 0;
	size_t len;

	if (fd < 0)
		SKIP("perf_event_open refused a dummy event on this thread");
	prctl(PR_GET_NAME, old);
	b = ember_backward_mmap__new(fd, 1);
	CHECK(b != NULL);
	CHECK(ember_backward_mmap__new(fd, 3) == NULL && errno == EINVAL);
	if (!b)
		goto out;
	CHECK_EQ(ember_backward_mmap__fd(b), fd);
	prctl(PR_SET_NAME, "bw-one");
	prctl(PR_SET_NAME, "bw-two");
	len = ember_backward_mmap__copy(b, &data);
	n = comms(data, len, names, 256, &bad);
	CHECK_EQ(n, 2);
	CHECK(n == 2 && !strcmp(names[0], "bw-two") && !strcmp(names[1], "bw-one"));
	/* the next copy: only what came since */
	prctl(PR_SET_NAME, "bw-three");
	len = ember_backward_mmap__copy(b, &data);
	n = comms(data, len, names, 256, &bad);
	CHECK(n == 1 && !strcmp(names[0], "bw-three"));
	CHECK_EQ(ember_backward_mmap__copy(b, &data), 0);
	/* 1000 renames wrap a one-page buffer many times: a page of whole records, newest first */
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "bw-%d", i);
		prctl(PR_SET_NAME, name);
	}
	len = ember_backward_mmap__copy(b, &data);
	n = comms(data, len, names, 256, &bad);
	CHECK(len > 0 && len <= (size_t)sysconf(_SC_PAGESIZE));
	CHECK(n > 10 && !strcmp(names[0], "bw-999"));
	CHECK(n > 10 && !strcmp(names[1], "bw-998"));
	CHECK_EQ(bad, 0);
	ember_backward_mmap__delete(b);
out:
	prctl(PR_SET_NAME, old);
	close(fd);
}
