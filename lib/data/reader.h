/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The perf.data reader's state, shared by reader.c, reader-pipe.c and reader-header.c. */
#ifndef EMBER_LIB_DATA_READER_H
#define EMBER_LIB_DATA_READER_H

#include <ember/perf-data.h>
#include "data/attrs.h"
#include "data/compress.h"
#include "data/dbuf.h"
#include "data/format.h"

/* A header record read ahead at open in pipe mode, handed out again by next(). */
struct replay_rec {
	void *data;
	uint64_t offset;
	const void *payload;
	uint64_t payload_size;
};

struct ember_data_reader {
	int fd;
	bool own_fd;
	bool pipe;			/* pipe format (whatever the fd is) */
	bool show_compressed;

	/* the whole input in memory: mmap'ed file, or slurped non-seekable input */
	uint8_t *mem;
	size_t mem_len;
	bool mem_mapped;		/* munmap (else free) */
	uint64_t file_size;
	int64_t mtime;

	/* file mode */
	struct perf_file_header fh;
	uint64_t head, data_end;

	/* pipe mode: a window [pos, len) of buf over the stream, or over mem */
	uint8_t *buf;
	size_t buf_cap, pos, len;
	uint64_t stream_off;		/* stream offset (after the pipe header) of buf[pos] */
	bool eof;
	bool streaming;			/* reading fd; else buf is mem */

	struct replay_rec *replay;
	uint32_t nr_replay, next_replay;
	bool in_preload;

	/* decoded COMPRESSED content, records at [dc_pos, dc.len) */
	struct data_zstd_dec *zdec;
	struct dbuf dc;
	size_t dc_pos;
	uint64_t dc_offset;

	uint8_t *scratch;		/* aligned copy of a misaligned record */

	struct data_attrs attrs;
	struct ember_env env;
	uint64_t counts[EMBER_RECORD_TYPE_MAX];
	uint64_t nr_unknown;
	bool truncated, data_size_zero;
	int error;			/* sticky error of next() */
};

/* reader.c */
int data_reader_process(struct ember_data_reader *r, const struct perf_event_header *h,
		   const void *payload, uint64_t payload_size);
const struct perf_event_header *data_reader_align(struct ember_data_reader *r, const uint8_t *p);

/* reader-pipe.c */
int data_pipe_open(struct ember_data_reader *r, const uint8_t *hdr16);
int data_pipe_next(struct ember_data_reader *r, struct ember_data_record *rec);
void data_pipe_exit(struct ember_data_reader *r);

/* reader-header.c */
int data_file_open(struct ember_data_reader *r);

#endif
