// SPDX-License-Identifier: GPL-2.0-only
/*
 * --overwrite and the per-event "overwrite" term: backward ring buffers
 * (write_backward, mapped read-only, so the kernel never waits for us and
 * keeps overwriting the oldest records) read once at the end, or on
 * SIGUSR2: a flight recorder of the last -m pages per cpu, as perf's
 * overwrite mode.
 *
 * The kernel writes such a buffer downwards: data_head decreases, the
 * newest record starts at data_head and the older ones follow it. A
 * snapshot pauses the output (PERF_EVENT_IOC_PAUSE_OUTPUT), copies from
 * data_head up to where the previous snapshot started (or, once the buffer
 * has wrapped, up to one buffer's worth of whole records, stopping at a
 * zero header) into memory, and resumes it before anything is written: a
 * sample that comes while the output is paused is lost (the kernel says so
 * in a PERF_RECORD_LOST), so the pause lasts one memcpy. The kernel
 * refuses to send a backward event into a forward buffer (SET_OUTPUT), so
 * these are mapped apart from the forward ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <ember/event.h>
#include "record/loop.h"
#include "record/output.h"
#include "record/overwrite.h"

struct record_owmap {
	int fd;
	int key;			/* the cpu, or the thread for per-thread events */
	bool per_thread;
	void *base;
	size_t len;
	struct perf_event_mmap_page *pc;
	unsigned char *data;
	uint64_t mask;
	uint64_t prev;			/* data_head at the previous snapshot */
	unsigned char *snap;		/* one buffer's worth, copied while paused */
};

bool record_overwrite__wanted(const struct ember_evlist *evlist)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos)
		if (ember_evsel__attr(pos)->write_backward)
			return true;
	return false;
}

static int add_map(struct record_overwrite *ow, int fd, int key, bool per_thread, size_t pages)
{
	long page = sysconf(_SC_PAGESIZE);
	struct record_owmap *m;
	void *grown = realloc(ow->maps, (size_t)(ow->nr + 1) * sizeof(*m));

	if (!grown)
		return -ENOMEM;
	ow->maps = grown;
	m = &ow->maps[ow->nr];
	memset(m, 0, sizeof(*m));
	m->fd = fd;
	m->key = key;
	m->per_thread = per_thread;
	m->len = (pages + 1) * (size_t)page;
	/* read-only: the kernel's cue to overwrite instead of waiting for data_tail */
	m->base = mmap(NULL, m->len, PROT_READ, MAP_SHARED, fd, 0);
	if (m->base == MAP_FAILED)
		return -errno;
	m->pc = m->base;
	m->data = (unsigned char *)m->base + (m->pc->data_offset ?: (uint64_t)page);
	m->mask = (m->pc->data_size ?: pages * (uint64_t)page) - 1;
	ow->nr++;
	m->snap = malloc(m->mask + 1);
	if (!m->snap)
		return -ENOMEM;
	return 0;
}

int record_overwrite__mmap(struct record_overwrite *ow, const struct ember_evlist *evlist,
			   size_t pages)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos) {
		if (!ember_evsel__attr(pos)->write_backward)
			continue;
		for (int c = 0; c < ember_evsel__nr_cpus(pos); c++) {
			int cpu = ember_cpu_map__cpu(ember_evsel__cpus(pos), c);

			for (int t = 0; t < ember_evsel__nr_threads(pos); t++) {
				int fd = ember_evsel__fd(pos, c, t), key, i, err;
				bool per_thread = cpu < 0;

				if (fd < 0)
					continue;
				key = per_thread ?
					      ember_thread_map__pid(ember_evsel__threads(pos), t) :
					      cpu;
				for (i = 0; i < ow->nr; i++)
					if (ow->maps[i].key == key &&
					    ow->maps[i].per_thread == per_thread)
						break;
				if (i == ow->nr)
					err = add_map(ow, fd, key, per_thread, pages);
				else
					err = ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ow->maps[i].fd) ?
						      -errno : 0;
				if (err)
					return err;
			}
		}
	}
	return 0;
}

int record_overwrite__fd(const struct record_overwrite *ow, int i)
{
	return ow->maps[i].fd;
}

void record_overwrite__unmap(struct record_overwrite *ow)
{
	for (int i = 0; i < ow->nr; i++) {
		munmap(ow->maps[i].base, ow->maps[i].len);
		free(ow->maps[i].snap);
	}
	free(ow->maps);
	ow->maps = NULL;
	ow->nr = 0;
}

/*
 * libperf's overwrite_rb_find_range(): from the newest record, walk whole
 * records until a buffer's worth or a zero header (never written).
 */
static uint64_t find_end(const struct record_owmap *m, uint64_t start)
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
static size_t copy_ring(const struct record_owmap *m, uint64_t start, uint64_t end)
{
	size_t len = (size_t)(end - start), off = (size_t)(start & m->mask);
	size_t first = len < m->mask + 1 - off ? len : (size_t)(m->mask + 1 - off);

	memcpy(m->snap, m->data + off, first);
	memcpy(m->snap + first, m->data, len - first);
	return len;
}

/* Write the whole records of m->snap[0, len) to the output. 0 or the write error. */
static int write_records(struct record_output *out, const struct record_owmap *m, size_t len,
			 size_t toff, bool *wrote)
{
	size_t pos = 0;

	while (len - pos >= sizeof(struct perf_event_header)) {
		const struct perf_event_header *h = (const void *)(m->snap + pos);
		int err;

		if (h->size < sizeof(*h) || h->size > len - pos)
			break;
		record_loop__account(&out->stats, h, toff);
		err = record_output__write_ring(out, h, h->size);
		if (err)
			return err;
		*wrote = true;
		pos += h->size;
	}
	return 0;
}

size_t record_overwrite__copy(struct record_overwrite *ow, int i, const void **data)
{
	struct record_owmap *m = &ow->maps[i];
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

int record_overwrite__cpu(const struct record_overwrite *ow, int i)
{
	return ow->maps[i].per_thread ? -1 : ow->maps[i].key;
}

int record_overwrite__snapshot(struct record_overwrite *ow, struct record_output *out,
			       size_t toff)
{
	static const struct perf_event_header round = {
		.type = EMBER_RECORD_FINISHED_ROUND,
		.size = sizeof(round),
	};
	bool wrote = false;
	int err = 0;

	for (int i = 0; i < ow->nr && !err; i++) {
		const void *data;
		size_t len = record_overwrite__copy(ow, i, &data);

		err = write_records(out, &ow->maps[i], len, toff, &wrote);
	}
	if (!err && wrote)
		err = record_output__write(out, &round, sizeof(round));
	return err ? 1 : 0;
}
