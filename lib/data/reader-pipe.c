// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Pipe mode: records follow a 16-byte header, with no sections. The input
 * is either a stream read into a buffer (a window over it), or a regular
 * file already in memory. TRACING_DATA and AUXTRACE records are followed by
 * data that is not part of the record. The leading header records (ATTR,
 * FEATURE, TRACING_DATA...) are read ahead at open, so attrs and env are
 * known before the first next(); next() hands them out again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/log.h"
#include "data/reader.h"

#define PIPE_BUF_SIZE (1 << 20)

/* Make `need` bytes available at buf[pos]. 0, 1 when the input ends first, -errno. */
static int fill(struct ember_data_reader *r, size_t need)
{
	if (r->len - r->pos >= need)
		return 0;
	if (!r->streaming || r->eof)
		return 1;
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	while (r->len < need) {
		ssize_t n = read(r->fd, r->buf + r->len, r->buf_cap - r->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) {
			r->eof = true;
			return 1;
		}
		r->len += n;
	}
	return 0;
}

/* Consume n bytes that follow a record, copying them to out when out is not NULL. */
static int take_stream(struct ember_data_reader *r, uint64_t n, struct dbuf *out)
{
	while (n) {
		size_t chunk = r->len - r->pos;
		int ret;

		if (!chunk) {
			ret = fill(r, 1);
			if (ret)
				return ret;
			chunk = r->len - r->pos;
		}
		if (chunk > n)
			chunk = n;
		if (out) {
			dbuf_add(out, r->buf + r->pos, chunk);
			if (out->err)
				return out->err;
		}
		r->pos += chunk;
		r->stream_off += chunk;
		n -= chunk;
	}
	return 0;
}

int data_pipe_next(struct ember_data_reader *r, struct ember_data_record *rec)
{
	const uint8_t *p;
	uint64_t extra = 0;
	uint16_t size;
	uint32_t type;
	int ret;

	ret = fill(r, sizeof(struct perf_event_header));
	if (ret) {
		if (ret > 0 && r->len > r->pos)
			r->truncated = true;
		return ret < 0 ? ret : 0;
	}
	p = r->buf + r->pos;
	size = get_u16(p + 6);
	type = get_u32(p);
	if (size < sizeof(struct perf_event_header))
		return data_reader_bad_size(r, r->stream_off, size);
	ret = fill(r, size);
	if (ret) {
		if (ret > 0)
			r->truncated = true;
		return ret < 0 ? ret : 0;
	}
	p = r->buf + r->pos;
	if (type == EMBER_RECORD_HEADER_TRACING_DATA && size >= 12)
		extra = get_u32(p + 8);
	else if (type == EMBER_RECORD_AUXTRACE && size >= sizeof(struct ember_record_auxtrace))
		extra = get_u64(p + 8);

	rec->offset = r->stream_off;
	rec->payload = NULL;
	rec->payload_size = extra;
	rec->compressed = false;
	if (!extra) {
		rec->hdr = data_reader_align(r, p);
		r->pos += size;
		r->stream_off += size;
		return 1;
	}
	if (!r->streaming) {
		if (extra > r->len - r->pos - size) {
			r->truncated = true;
			return 0;
		}
		rec->hdr = data_reader_align(r, p);
		rec->payload = p + size;
		r->pos += size + extra;
		r->stream_off += size + extra;
		return 1;
	}
	/* streaming: the record goes to scratch, its data is read (or skipped) after it */
	memcpy(r->scratch, p, size);
	rec->hdr = (const struct perf_event_header *)r->scratch;
	r->pos += size;
	r->stream_off += size;
	if (type == EMBER_RECORD_HEADER_TRACING_DATA) {
		struct dbuf blob = { 0 };

		ret = take_stream(r, extra, &blob);
		if (ret) {
			dbuf_exit(&blob);
			if (ret > 0)
				r->truncated = true;
			return ret < 0 ? ret : 0;
		}
		/* the env takes the blob; the record points at it */
		free(r->env.tracing_data.data);
		r->env.tracing_data.data = blob.data;
		r->env.tracing_data.size = blob.len;
		ember_env__set_feat(&r->env, EMBER_FEAT_TRACING_DATA, true);
		rec->payload = NULL;
		return 1;
	}
	ret = take_stream(r, extra, NULL);
	if (ret) {
		if (ret > 0)
			r->truncated = true;
		return ret < 0 ? ret : 0;
	}
	return 1;
}

static bool is_header_record(uint32_t type)
{
	switch (type) {
	case EMBER_RECORD_HEADER_ATTR:
	case EMBER_RECORD_HEADER_EVENT_TYPE:
	case EMBER_RECORD_HEADER_TRACING_DATA:
	case EMBER_RECORD_HEADER_BUILD_ID:
	case EMBER_RECORD_HEADER_FEATURE:
		return true;
	default:
		return false;
	}
}

static int replay_add(struct ember_data_reader *r, const struct ember_data_record *rec)
{
	struct replay_rec *rr;
	void *copy;

	if ((r->nr_replay & (r->nr_replay - 1)) == 0) {
		uint32_t cap = r->nr_replay ? r->nr_replay * 2 : 16;

		rr = realloc(r->replay, cap * sizeof(*rr));
		if (!rr)
			return -ENOMEM;
		r->replay = rr;
	}
	copy = malloc(rec->hdr->size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, rec->hdr, rec->hdr->size);
	rr = &r->replay[r->nr_replay++];
	rr->data = copy;
	rr->offset = rec->offset;
	rr->payload_size = rec->payload_size;
	rr->payload = NULL;
	if (rec->hdr->type == EMBER_RECORD_HEADER_TRACING_DATA)
		rr->payload = r->env.tracing_data.data;
	else if (!r->streaming)
		rr->payload = rec->payload;
	return 0;
}

/* Read ahead the header records that describe the stream. */
static int preload(struct ember_data_reader *r)
{
	struct ember_data_record rec;
	int ret;

	for (;;) {
		ret = fill(r, sizeof(struct perf_event_header));
		if (ret)
			return ret < 0 ? ret : 0;
		if (!is_header_record(get_u32(r->buf + r->pos)))
			return 0;
		ret = data_pipe_next(r, &rec);
		if (ret <= 0)
			return ret;
		r->in_preload = true;
		ret = data_reader_process(r, rec.hdr, rec.payload, rec.payload_size);
		r->in_preload = false;
		if (ret)
			return ret;
		ret = replay_add(r, &rec);
		if (ret)
			return ret;
	}
}

int data_pipe_open(struct ember_data_reader *r, const uint8_t *hdr16)
{
	(void)hdr16;
	if (r->mem) {
		r->buf = r->mem + PERF_PIPE_HEADER_SIZE;
		r->len = r->mem_len - PERF_PIPE_HEADER_SIZE;
		r->buf_cap = r->len;
		r->streaming = false;
		r->eof = true;
	} else {
		r->buf = malloc(PIPE_BUF_SIZE);
		if (!r->buf)
			return -ENOMEM;
		r->buf_cap = PIPE_BUF_SIZE;
		r->streaming = true;
	}
	return preload(r);
}

void data_pipe_exit(struct ember_data_reader *r)
{
	for (uint32_t i = 0; i < r->nr_replay; i++)
		free(r->replay[i].data);
	free(r->replay);
	if (r->streaming)
		free(r->buf);
}
