// SPDX-License-Identifier: GPL-2.0-only
/*
 * --overwrite and the per-event "overwrite" term: backward ring buffers
 * (libember's ember_backward_mmap: mapped read-only, so the kernel never
 * waits for us and keeps overwriting the oldest records) read once at the
 * end, or on SIGUSR2: a flight recorder of the last -m pages per cpu, as
 * perf's overwrite mode. The kernel refuses to send a backward event into
 * a forward buffer (SET_OUTPUT), so these are mapped apart from the
 * forward ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <ember/event.h>
#include <ember/mmap.h>
#include "record/loop.h"
#include "record/output.h"
#include "record/overwrite.h"

struct record_owmap {
	int key;			/* the cpu, or the thread for per-thread events */
	bool per_thread;
	struct ember_backward_mmap *map;
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
	struct record_owmap *m;
	void *grown = realloc(ow->maps, (size_t)(ow->nr + 1) * sizeof(*m));

	if (!grown)
		return -ENOMEM;
	ow->maps = grown;
	m = &ow->maps[ow->nr];
	m->key = key;
	m->per_thread = per_thread;
	m->map = ember_backward_mmap__new(fd, pages);
	if (!m->map)
		return -errno;
	ow->nr++;
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
					err = ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT,
						    ember_backward_mmap__fd(ow->maps[i].map)) ?
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
	return ember_backward_mmap__fd(ow->maps[i].map);
}

void record_overwrite__unmap(struct record_overwrite *ow)
{
	for (int i = 0; i < ow->nr; i++)
		ember_backward_mmap__delete(ow->maps[i].map);
	free(ow->maps);
	ow->maps = NULL;
	ow->nr = 0;
}

/* Write the whole records of snap[0, len) to the output. 0 or the write error. */
static int write_records(struct record_output *out, const unsigned char *snap, size_t len,
			 size_t toff, bool *wrote)
{
	size_t pos = 0;

	while (len - pos >= sizeof(struct perf_event_header)) {
		const struct perf_event_header *h = (const void *)(snap + pos);
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
	return ember_backward_mmap__copy(ow->maps[i].map, data);
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

		err = write_records(out, data, len, toff, &wrote);
	}
	if (!err && wrote)
		err = record_output__write(out, &round, sizeof(round));
	return err ? 1 : 0;
}
