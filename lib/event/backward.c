// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Backward (overwrite) ring buffers: the flight recorder of perf record
 * --overwrite. An event opened with attr.write_backward and mapped
 * read-only writes its buffer downwards and never waits for a reader:
 * data_head decreases, the newest record starts at data_head, the older
 * ones follow it, the oldest are overwritten. A copy pauses the output
 * (PERF_EVENT_IOC_PAUSE_OUTPUT), takes from data_head up to where the
 * previous copy started (or, once the buffer has wrapped since, one
 * buffer's worth of whole records, stopping at a zero header, as libperf's
 * overwrite_rb_find_range()), and resumes it before anything else: a sample
 * that comes while the output is paused is lost (and counted in a
 * PERF_RECORD_LOST), so the pause lasts one memcpy.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <ember/mmap.h>

struct ember_backward_mmap {
	int fd;
	void *base;
	size_t len;
	struct perf_event_mmap_page *pc;
	unsigned char *data;
	uint64_t mask;
	uint64_t prev;			/* data_head at the previous copy */
	unsigned char *snap;		/* one buffer's worth, copied while paused */
};

struct ember_backward_mmap *ember_backward_mmap__new(int fd, size_t data_pages)
{
	long page = sysconf(_SC_PAGESIZE);
	struct ember_backward_mmap *m;
	int err;

	if (!data_pages || (data_pages & (data_pages - 1))) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->fd = fd;
	m->len = (data_pages + 1) * (size_t)page;
	/* read-only: the kernel's cue to overwrite instead of waiting for data_tail */
	m->base = mmap(NULL, m->len, PROT_READ, MAP_SHARED, fd, 0);
	if (m->base == MAP_FAILED) {
		err = errno;
		free(m);
		errno = err;
		return NULL;
	}
	m->pc = m->base;
	m->data = (unsigned char *)m->base + (m->pc->data_offset ?: (uint64_t)page);
	m->mask = (m->pc->data_size ?: data_pages * (uint64_t)page) - 1;
	m->snap = malloc(m->mask + 1);
	if (!m->snap) {
		ember_backward_mmap__delete(m);
		errno = ENOMEM;
		return NULL;
	}
	return m;
}

void ember_backward_mmap__delete(struct ember_backward_mmap *m)
{
	if (!m)
		return;
	munmap(m->base, m->len);
	free(m->snap);
	free(m);
}

int ember_backward_mmap__fd(const struct ember_backward_mmap *m)
{
	return m->fd;
}

/* From the newest record, whole records until a buffer's worth or a zero header. */
static uint64_t find_end(const struct ember_backward_mmap *m, uint64_t start)
{
	uint64_t size = m->mask + 1, head = start;

	for (;;) {
		const struct perf_event_header *h = (const void *)(m->data + (head & m->mask));

		if (h->size == 0 || h->size < sizeof(*h))
			return head;
		if (head + h->size - start > size)
			return head;
		head += h->size;
	}
}

/* Copy the ring's bytes [start, end) to m->snap, unwrapped; their length. */
static size_t copy_ring(const struct ember_backward_mmap *m, uint64_t start, uint64_t end)
{
	size_t len = (size_t)(end - start), off = (size_t)(start & m->mask);
	size_t first = len < m->mask + 1 - off ? len : (size_t)(m->mask + 1 - off);

	memcpy(m->snap, m->data + off, first);
	memcpy(m->snap + first, m->data, len - first);
	return len;
}

size_t ember_backward_mmap__copy(struct ember_backward_mmap *m, const void **data)
{
	uint64_t head, end;
	size_t len;

	ioctl(m->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	head = __atomic_load_n(&m->pc->data_head, __ATOMIC_ACQUIRE);
	end = m->prev;
	if (end - head > m->mask + 1)
		end = find_end(m, head);
	len = copy_ring(m, head, end);
	m->prev = head;
	ioctl(m->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	*data = m->snap;
	return len;
}
