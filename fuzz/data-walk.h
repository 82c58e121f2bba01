/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the perf.data fuzz targets do with a reader: everything a command
 * does with one. The header is printed, then each record is copied into a
 * buffer of exactly its size (so that ASan sees a read past the record's
 * end, which inside the reader's big buffer it would not), decoded as a
 * sample and dumped as perf -D does. All output goes to /dev/null.
 */
#ifndef EMBER_FUZZ_DATA_WALK_H
#define EMBER_FUZZ_DATA_WALK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/perf-data.h>

static FILE *fuzz_null(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	if (!null)
		abort();
	return null;
}

/* The commands read through a session, which keeps what a damaged file still holds. */
static const struct ember_data_reader_opts fuzz_reader_opts = {
	.sz = sizeof(fuzz_reader_opts),
	.lenient = true,
};

static void fuzz_walk(struct ember_data_reader *r)
{
	struct ember_data_reader_end end;
	FILE *null = fuzz_null();
	struct ember_data_record rec;
	struct ember_data_header_info info;
	struct ember_sample s;

	ember_data_reader__header_info(r, &info);
	ember_data_reader__fprintf_header(r, null, true);
	for (uint32_t i = 0; i < ember_data_reader__nr_attrs(r); i++)
		ember_attr__fprintf(null, &ember_data_reader__attr(r, i)->attr);
	while (ember_data_reader__next(r, &rec) > 0) {
		struct ember_data_record copy = rec;
		void *buf = malloc(rec.hdr->size);

		if (!buf)
			abort();
		memcpy(buf, rec.hdr, rec.hdr->size);
		copy.hdr = buf;
		if (rec.payload && rec.payload_size)
			/* touch the first and last byte of what follows the record */
			fprintf(null, "%x%x", ((const unsigned char *)rec.payload)[0],
				((const unsigned char *)rec.payload)[rec.payload_size - 1]);
		ember_data_reader__parse_sample(r, copy.hdr, &s);
		ember_data__dump_record(null, r, &copy, "fuzz", EMBER_DUMP_REPORT);
		ember_data__dump_record(null, r, &copy, "fuzz", EMBER_DUMP_SCRIPT);
		free(buf);
	}
	ember_data_reader__end(r, &end);
	fprintf(null, "%u %d %" PRIu64, end.last_type, end.stopped, end.nr_skipped);
	/* the pipe-mode header grows while records are read: print it again */
	ember_data_reader__fprintf_header(r, null, false);
	fflush(null);
}

#endif
