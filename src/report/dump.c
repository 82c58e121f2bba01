// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf report -D: every record dumped as it is read, then the counts of
 * records by type and of samples by event; --stats: the counts alone.
 * No histogram is built.
 */
#include <inttypes.h>
#include <stdio.h>
#include "report/run.h"

static void dump(struct report *rep, const struct perf_event_header *hdr, uint64_t offset)
{
	struct ember_data_record rec = { .hdr = hdr, .offset = offset };

	ember_data__dump_record(stdout, rep->reader, &rec, rep->dump_name, EMBER_DUMP_REPORT);
}

/*
 * perf report's own lines after a sample's dump (its machine__resolve()):
 * the thread as it is named at that moment, and the dso of the sample's
 * address, by its long name. perf script -D resolves nothing, so says nothing.
 */
static void dump_resolved(const struct ember_session_sample *ss)
{
	struct ember_addr_location al;
	const char *dso;

	if (!ss->thread)
		return;
	printf(" ... thread: %s:%d\n", ember_thread__comm(ss->thread),
	       (int)ember_thread__tid(ss->thread));
	ember_thread__resolve(ss->thread, ss->al.cpumode, ss->sample->ip, &al);
	dso = al.map ? al.dso_name : al.level == 'H' ? "[hypervisor]" : "<not found>";
	printf(" ...... dso: %s\n", dso);
}

static int on_sample(struct ember_session *s, const struct ember_session_sample *ss, void *ctx)
{
	struct report *rep = ctx;

	if (rep->o.dump) {
		dump(rep, ss->hdr, ss->file_offset);
		dump_resolved(ss);
	}
	return 0;
}

static int on_record(struct ember_session *s, const struct ember_data_record *rec,
		     const struct ember_sample *id, void *ctx)
{
	struct report *rep = ctx;

	if (rep->o.dump)
		dump(rep, rec->hdr, rec->offset);
	return 0;
}

int report__dump(struct report *rep)
{
	struct ember_session_ops ops = { .sample = on_sample, .record = on_record };

	/* --stats only counts the records: the session does */
	return ember_session__process(rep->session, &ops, rep);
}

void report__dump_stats(struct report *rep, FILE *fp)
{
	const struct ember_session_stats *st = ember_session__stats(rep->session);
	uint64_t total = 0;
	uint32_t type, i;

	for (type = 1; type < EMBER_RECORD_TYPE_MAX; type++)
		if (ember_record__name(type))
			total += ember_data_reader__nr_records(rep->reader, type);
	fprintf(fp, "\nAggregated stats:\n%16s events: %10" PRIu64 "\n", "TOTAL", total);
	for (type = 1; type < EMBER_RECORD_TYPE_MAX; type++) {
		uint64_t n = ember_data_reader__nr_records(rep->reader, type);

		if (n && ember_record__name(type))
			fprintf(fp, "%16s events: %10" PRIu64 "  (%4.1f%%)\n",
				ember_record__name(type), n, 100.0 * (double)n / (double)total);
	}
	for (i = 0; i < st->nr_events; i++) {
		const struct ember_session_event_stats *e = &st->events[i];
		/*
		 * perf counts an event's lost samples for --stats alone (its
		 * count_lost_samples_event()): -D's tool leaves them uncounted.
		 */
		uint64_t lost = rep->o.dump ? 0 : e->nr_lost_samples;
		char name[256];

		if (!e->nr_samples && !lost)
			continue;
		report_event_name(rep->session, ember_data_reader__attr(rep->reader, i), name,
				  sizeof(name));
		fprintf(fp, "%s stats:\n", name);
		if (e->nr_samples)
			fprintf(fp, "%16s events: %10" PRIu64 "\n", "SAMPLE", e->nr_samples);
		if (lost)
			fprintf(fp, "%16s events: %10" PRIu64 "\n", "LOST_SAMPLES", lost);
	}
}
