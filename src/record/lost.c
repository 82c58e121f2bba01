// SPDX-License-Identifier: GPL-2.0-only
/*
 * Samples the kernel could not write (read_format LOST, Linux 6.0+), told
 * to the reader as perf 6.1 does: one PERF_RECORD_LOST_SAMPLES per fd
 * that lost any, carrying that fd's sample id, written after the last read.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <ember/synth.h>
#include "record/loop.h"
#include "record/output.h"

/* The LOST count of one fd, read by read_format. Returns 0 and *lost, or -errno. */
static int read_lost(const struct ember_evsel *evsel, int fd, uint64_t *lost)
{
	uint64_t rf = evsel->attr.read_format, buf[8];
	size_t words = 1, pos;
	ssize_t n;

	*lost = 0;
	if (!(rf & PERF_FORMAT_LOST) || (rf & PERF_FORMAT_GROUP))
		return 0;
	words += !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) +
		 !!(rf & PERF_FORMAT_ID) + 1;
	do
		n = read(fd, buf, words * sizeof(uint64_t));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	pos = words - 1;
	if ((size_t)n < (pos + 1) * sizeof(uint64_t))
		return -EIO;
	*lost = buf[pos];
	return 0;
}

static int write_lost(struct record *rec, const struct ember_evsel *evsel, uint64_t id,
		      uint64_t lost)
{
	struct {
		struct ember_record_lost_samples rec;
		uint8_t id_sample[EMBER_SYNTH_ID_MAX];
	} ev;
	struct ember_synth_id sid = { .id = id };
	size_t n;

	memset(&ev, 0, sizeof(ev));
	n = ember_synth__id_sample(ev.id_sample, evsel->attr.sample_type, &sid);
	ev.rec.header.type = PERF_RECORD_LOST_SAMPLES;
	ev.rec.header.size = (uint16_t)(sizeof(ev.rec) + n);
	ev.rec.lost = lost;
	rec->stats.lost_samples += lost;
	/* contiguous: the trailer follows the 16-byte record directly */
	return record_output__write(rec, &ev, ev.rec.header.size);
}

int record_loop__lost_samples(struct record *rec)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(rec->evlist, pos) {
		int n = pos->nr_fds_cpus * pos->nr_fds_threads;

		if (!pos->fds)
			continue;
		for (int i = 0; i < n; i++) {
			uint64_t lost;

			if (pos->fds[i] < 0 || read_lost(pos, pos->fds[i], &lost) || !lost)
				continue;
			if (write_lost(rec, pos, pos->ids[i], lost))
				return 1;
		}
	}
	return 0;
}
