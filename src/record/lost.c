// SPDX-License-Identifier: GPL-2.0-only
/*
 * Samples the kernel could not write (read_format LOST, Linux 6.0+), told
 * to the reader as perf 6.1 does: one PERF_RECORD_LOST_SAMPLES per fd
 * that lost any, carrying that fd's sample id, written after the last read.
 */
#include <string.h>
#include <ember/synth.h>
#include "record/loop.h"
#include "record/output.h"
#include "record/record.h"

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
	n = ember_synth__id_sample(ev.id_sample, ember_evsel__attr(evsel)->sample_type, &sid);
	ev.rec.header.type = PERF_RECORD_LOST_SAMPLES;
	ev.rec.header.size = (uint16_t)(sizeof(ev.rec) + n);
	ev.rec.lost = lost;
	rec->out.stats.lost_samples += lost;
	/* contiguous: the trailer follows the 16-byte record directly */
	return record_output__write(&rec->out, &ev, ev.rec.header.size);
}

int record_loop__lost_samples(struct record *rec)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(rec->evlist, pos) {
		uint64_t rf = ember_evsel__attr(pos)->read_format;

		/* perf reads no LOST out of a group read */
		if (!(rf & PERF_FORMAT_LOST) || (rf & PERF_FORMAT_GROUP))
			continue;
		for (int c = 0; c < ember_evsel__nr_cpus(pos); c++) {
			for (int t = 0; t < ember_evsel__nr_threads(pos); t++) {
				struct ember_counts counts;

				if (ember_evsel__fd(pos, c, t) < 0 ||
				    ember_evsel__read(pos, c, t, &counts) || !counts.lost)
					continue;
				if (write_lost(rec, pos, ember_evsel__id(pos, c, t), counts.lost))
					return 1;
			}
		}
	}
	return 0;
}
