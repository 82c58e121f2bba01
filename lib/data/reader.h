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
	uint64_t mem_released;		/* pages below this offset were given back */
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
	unsigned int nr_bombs;		/* COMPRESSED records that expanded past their bound */
	uint64_t dc_offset;

	uint8_t *scratch;		/* aligned copy of a misaligned record */

	struct data_attrs attrs;
	struct ember_env env;
	uint64_t counts[EMBER_RECORD_TYPE_MAX];
	uint64_t nr_unknown;
	bool truncated, data_size_zero;
	int error;			/* sticky error of next() */

	/* during open only: where to say why it failed (the caller's opts.error), or NULL */
	struct ember_open_error *open_error;

	/* lenient mode (after open): what was given up on, for ember_data_reader__end() */
	bool lenient, opened;
	struct ember_data_reader_end end;
};

/*
 * reader.c: the open fails with err (negative) because of what fmt says:
 * it goes to the caller's open error and the debug log. Returns err.
 */
__attribute__((format(printf, 3, 4)))
int data_open_fail(struct ember_data_reader *r, int err, const char *fmt, ...);
/* reader.c: count a record and learn from header records (attrs, features, names). 0/-errno. */
int data_reader_process(struct ember_data_reader *r, const struct perf_event_header *h,
			const void *payload, uint64_t payload_size);
/*
 * A record smaller than its header at offset: -EINVAL, or in lenient mode
 * 0 (the data ends there) with the place kept for ember_data_reader__end().
 */
int data_reader_bad_size(struct ember_data_reader *r, uint64_t offset, uint16_t size);
/* p itself when 8-byte aligned, else a copy in r->scratch (valid until the next record). */
const struct perf_event_header *data_reader_align(struct ember_data_reader *r, const uint8_t *p);

/* reader-pipe.c: set up pipe mode after the 16-byte header; read the header records ahead. */
int data_pipe_open(struct ember_data_reader *r, const uint8_t *hdr16);
/* The next record of the stream: 1, 0 at the end (r->truncated if cut), -errno. */
int data_pipe_next(struct ember_data_reader *r, struct ember_data_record *rec);
/* Free what pipe mode allocated. */
void data_pipe_exit(struct ember_data_reader *r);

/* reader-header.c: file mode: header, attrs and features from r->mem. 0/-EINVAL/-ENOMEM. */
int data_file_open(struct ember_data_reader *r);

#endif
