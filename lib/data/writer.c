// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The perf.data writer.
 *
 * File mode:	[header][ids][attrs][data ...][feature table][features]
 *		The header is written first with data.size 0 (what perf leaves
 *		behind when killed), data is appended through a large buffer,
 *		and close() writes the features and the final header.
 * Pipe mode:	[16-byte header][HEADER_ATTR...][HEADER_FEATURE... end mark]
 *		[TRACING_DATA + blob][data ...]
 * With compress_level > 0 the data goes out as COMPRESSED records, each a
 * complete zstd frame of at most COMP_SLICE bytes of records; what is
 * written with ember_data_writer__write_plain() goes out as it is between
 * them, as perf compresses only what it reads from the ring buffers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/io.h"
#include "core/log.h"
#include "data/compress.h"
#include "data/features.h"
#include "data/format.h"

#define WRITE_BUF_SIZE	(1u << 20)
/* Input per COMPRESSED record: its frame stays below the u16 record size. */
#define COMP_SLICE	(32u * 1024)
/* What we tell readers to expect per COMPRESSED record, leftovers included. */
#define COMP_MMAP_LEN	(256u * 1024)

struct wattr {
	struct perf_event_attr attr;
	uint64_t *ids;
	uint32_t nr_ids;
	char *name;
};

struct ember_data_writer {
	int fd;
	bool own_fd, pipe, started;
	int err;			/* first error; later calls return it */

	struct wattr *attrs;
	uint32_t nr_attrs;
	uint32_t attr_size;		/* bytes of each attr on disk */

	uint8_t *buf;
	size_t len, cap;
	bool buf_plain;			/* buf holds records not to compress */

	uint64_t attrs_offset, data_offset, data_size;

	struct data_zstd_enc *zenc;
	int comp_level;
	struct dbuf zout;
	uint64_t raw_bytes;		/* records before compression */
	uint64_t comp_bytes;		/* the COMPRESSED records they became */
};

static int pwrite_all(int fd, const void *p, size_t n, uint64_t off)
{
	const uint8_t *c = p;

	while (n) {
		ssize_t w = pwrite(fd, c, n, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		c += w;
		n -= w;
		off += w;
	}
	return 0;
}

static int fail(struct ember_data_writer *w, int err)
{
	if (!w->err)
		w->err = err;
	return w->err;
}

struct ember_data_writer *ember_data_writer__open(const char *path,
						 const struct ember_data_writer_opts *opts)
{
	struct ember_data_writer *w = calloc(1, sizeof(*w));
	size_t bufsz = WRITE_BUF_SIZE;

#define OPT(f) (opts && opts->sz >= offsetof(struct ember_data_writer_opts, f) + sizeof(opts->f))
	if (!w)
		return NULL;
	w->fd = -1;
	if (OPT(pipe))
		w->pipe = opts->pipe;
	if (OPT(buffer_size) && opts->buffer_size >= 64 * 1024)
		bufsz = opts->buffer_size;
	if (OPT(compress_level))
		w->comp_level = opts->compress_level;
#undef OPT
	if (path && !strcmp(path, "-")) {
		w->fd = STDOUT_FILENO;
		w->pipe = true;
	} else if (path) {
		w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (w->fd < 0)
			goto fail;
		w->own_fd = true;
	} else if (opts && opts->sz >= offsetof(struct ember_data_writer_opts, fd) + sizeof(int)) {
		w->fd = opts->fd;
	}
	if (w->fd < 0) {
		errno = EINVAL;
		goto fail;
	}
	if (w->comp_level > 0) {
		w->zenc = data_zstd_enc_new(w->comp_level);
		if (!w->zenc)
			goto fail;
	}
	w->buf = malloc(bufsz);
	if (!w->buf)
		goto fail;
	w->cap = bufsz;
	return w;
fail:
	{
		int err = errno ? errno : ENOMEM;

		ember_data_writer__delete(w);
		errno = err;
	}
	return NULL;
}

int ember_data_writer__add_attr(struct ember_data_writer *w, const struct perf_event_attr *attr,
				const uint64_t *ids, uint32_t nr_ids, const char *name)
{
	struct wattr *a;

	if (w->started)
		return -EBUSY;
	a = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	w->attrs = a;
	a += w->nr_attrs;
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->nr_ids = nr_ids;
	a->ids = malloc((nr_ids ? nr_ids : 1) * sizeof(uint64_t));
	a->name = name ? strdup(name) : NULL;
	if (!a->ids || (name && !a->name)) {
		free(a->ids);
		free(a->name);
		return -ENOMEM;
	}
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * sizeof(uint64_t));
	return w->nr_attrs++;
}

/* The attr as written: attr.size set to the common on-disk size. */
static void attr_image(const struct ember_data_writer *w, const struct wattr *a, uint8_t *out)
{
	struct perf_event_attr tmp = a->attr;
	uint32_t n = w->attr_size < EMBER_ATTR_SIZE ? w->attr_size : EMBER_ATTR_SIZE;

	tmp.size = w->attr_size;
	memset(out, 0, w->attr_size);
	memcpy(out, &tmp, n);
}

/* Bytes go out: compressed into COMPRESSED records, or as they are. */
static int emit(struct ember_data_writer *w, const void *p, size_t n, bool plain)
{
	const uint8_t *c = p;
	int err;

	if (!w->zenc || plain) {
		err = io_write_all(w->fd, p, n);
		if (!err)
			w->data_size += n;
		return err;
	}
	w->raw_bytes += n;
	while (n) {
		size_t slice = n < COMP_SLICE ? n : COMP_SLICE;
		struct perf_event_header h = { .type = EMBER_RECORD_COMPRESSED };

		w->zout.len = 0;
		dbuf_add_zeros(&w->zout, sizeof(h));
		if (w->zout.err)
			return w->zout.err;
		err = data_zstd_enc_run(w->zenc, c, slice, &w->zout);
		if (err)
			return err;
		if (w->zout.len > RECORD_MAX_SIZE)
			return -E2BIG;
		h.size = w->zout.len;
		memcpy(w->zout.data, &h, sizeof(h));
		err = io_write_all(w->fd, w->zout.data, w->zout.len);
		if (err)
			return err;
		w->data_size += w->zout.len;
		w->comp_bytes += w->zout.len;
		c += slice;
		n -= slice;
	}
	return 0;
}

static int flush(struct ember_data_writer *w)
{
	int err;

	if (!w->len)
		return 0;
	err = emit(w, w->buf, w->len, w->buf_plain);
	w->len = 0;
	return err ? fail(w, err) : 0;
}

/* Header fields we know so far; features only at close. */
static void file_header(const struct ember_data_writer *w, struct perf_file_header *fh,
			const uint64_t *feat)
{
	memset(fh, 0, sizeof(*fh));
	fh->magic = PERF_MAGIC2;
	fh->size = sizeof(*fh);
	fh->attr_size = w->attr_size + sizeof(struct perf_file_section);
	fh->attrs.offset = w->attrs_offset;
	fh->attrs.size = (uint64_t)w->nr_attrs * fh->attr_size;
	fh->data.offset = w->data_offset;
	fh->data.size = w->data_size;
	if (feat)
		memcpy(fh->adds_features, feat, sizeof(fh->adds_features));
}

static int start_file(struct ember_data_writer *w)
{
	struct perf_file_header fh;
	uint64_t ids_off = sizeof(fh);
	struct dbuf b = { 0 };
	int err;

	for (uint32_t i = 0; i < w->nr_attrs; i++)
		ids_off += (uint64_t)w->attrs[i].nr_ids * 8;
	w->attrs_offset = ids_off;
	w->data_offset = ids_off + (uint64_t)w->nr_attrs * (w->attr_size + 16);

	file_header(w, &fh, NULL);
	dbuf_add(&b, &fh, sizeof(fh));
	for (uint32_t i = 0; i < w->nr_attrs; i++)
		dbuf_add(&b, w->attrs[i].ids, w->attrs[i].nr_ids * 8);
	ids_off = sizeof(fh);
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		uint8_t img[sizeof(struct perf_event_attr)];

		attr_image(w, &w->attrs[i], img);
		dbuf_add(&b, img, w->attr_size);
		dbuf_add_u64(&b, ids_off);
		dbuf_add_u64(&b, (uint64_t)w->attrs[i].nr_ids * 8);
		ids_off += (uint64_t)w->attrs[i].nr_ids * 8;
	}
	err = b.err ? b.err : io_write_all(w->fd, b.data, b.len);
	dbuf_exit(&b);
	return err;
}

/* Whether perf sends this feature as a HEADER_FEATURE record in pipe mode. */
static bool pipe_feature(int feat)
{
	switch (feat) {
	case EMBER_FEAT_TRACING_DATA:
	case EMBER_FEAT_BUILD_ID:
	case EMBER_FEAT_BRANCH_STACK:
	case EMBER_FEAT_AUXTRACE:
	case EMBER_FEAT_STAT:
	case EMBER_FEAT_CACHE:
	case EMBER_FEAT_DIR_FORMAT:
	case EMBER_FEAT_HYBRID_TOPOLOGY:
		return false;
	default:
		return true;
	}
}

/* The section of one feature: from the writer's own state, or the env. */
static int feature_blob(struct ember_data_writer *w, const struct ember_env *env, int feat,
			struct dbuf *b)
{
	if (feat == EMBER_FEAT_EVENT_DESC) {
		struct data_feat_event *ev = calloc(w->nr_attrs ? w->nr_attrs : 1, sizeof(*ev));

		if (!ev)
			return -ENOMEM;
		for (uint32_t i = 0; i < w->nr_attrs; i++) {
			ev[i].attr = &w->attrs[i].attr;
			ev[i].name = w->attrs[i].name;
			ev[i].nr_ids = w->attrs[i].nr_ids;
			ev[i].ids = w->attrs[i].ids;
		}
		data_feat_write_event_desc(b, ev, w->nr_attrs, w->attr_size);
		free(ev);
		return b->err;
	}
	if (feat == EMBER_FEAT_COMPRESSED) {
		/* of the compressed records alone, rounded as perf: (u32)(ratio + 0.5) */
		uint64_t ratio = w->comp_bytes ? (2 * w->raw_bytes + w->comp_bytes) /
						 (2 * w->comp_bytes)
					       : 0;

		if (!w->zenc)
			return -ENOENT;
		/*
		 * Version 0, as perf writes it (its env.comp_ver is never set):
		 * hotspot's perfparser refuses any other.
		 */
		dbuf_add_u32(b, 0);
		dbuf_add_u32(b, EMBER_COMP_ZSTD);
		dbuf_add_u32(b, w->comp_level);
		dbuf_add_u32(b, ratio > UINT32_MAX ? UINT32_MAX : ratio);
		dbuf_add_u32(b, COMP_MMAP_LEN);
		return b->err;
	}
	if (!env || !ember_env__has_feat(env, feat))
		return -ENOENT;
	return data_feat_write(env, feat, b) ?: b->err;
}

/* The features to write: those of env, plus EVENT_DESC and COMPRESSED of our own. */
static bool want_feature(const struct ember_data_writer *w, const struct ember_env *env, int feat)
{
	if (feat == EMBER_FEAT_EVENT_DESC)
		return w->nr_attrs > 0;
	if (feat == EMBER_FEAT_COMPRESSED)
		return w->zenc != NULL;
	return env && ember_env__has_feat(env, feat);
}

static int start_pipe(struct ember_data_writer *w, const struct ember_env *env)
{
	struct dbuf b = { 0 }, sec = { 0 };
	uint64_t magic = PERF_MAGIC2, size = PERF_PIPE_HEADER_SIZE;
	int err = 0;

	dbuf_add_u64(&b, magic);
	dbuf_add_u64(&b, size);
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		struct perf_event_header h = { .type = EMBER_RECORD_HEADER_ATTR };
		uint64_t rsz = sizeof(h) + w->attr_size + (uint64_t)w->attrs[i].nr_ids * 8;
		uint8_t img[sizeof(struct perf_event_attr)];

		if (rsz > RECORD_MAX_SIZE) {
			err = -E2BIG;
			goto out;
		}
		h.size = rsz;
		attr_image(w, &w->attrs[i], img);
		dbuf_add(&b, &h, sizeof(h));
		dbuf_add(&b, img, w->attr_size);
		dbuf_add(&b, w->attrs[i].ids, w->attrs[i].nr_ids * 8);
	}
	for (int feat = 1; feat < EMBER_FEAT_LAST; feat++) {
		struct ember_record_header_feature f = { .header.type = EMBER_RECORD_HEADER_FEATURE };

		if (!pipe_feature(feat) || !want_feature(w, env, feat))
			continue;
		sec.len = 0;
		err = feature_blob(w, env, feat, &sec);
		if (err == -ENOENT)
			continue;
		if (err)
			goto out;
		if (sizeof(f) + sec.len > RECORD_MAX_SIZE) {
			pr_debug("perf.data: feature %s too big for a pipe record, left out\n",
				 ember_feat__name(feat));
			continue;
		}
		f.header.size = sizeof(f) + sec.len;
		f.feat_id = feat;
		dbuf_add(&b, &f, sizeof(f));
		dbuf_add(&b, sec.data, sec.len);
	}
	{
		struct ember_record_header_feature f = {
			.header = { .type = EMBER_RECORD_HEADER_FEATURE, .size = sizeof(f) },
			.feat_id = EMBER_FEAT_LAST,
		};

		dbuf_add(&b, &f, sizeof(f));
	}
	/* build ids travel as HEADER_BUILD_ID records, laid out as the feature's entries */
	if (env && ember_env__has_feat(env, EMBER_FEAT_BUILD_ID))
		data_feat_write(env, EMBER_FEAT_BUILD_ID, &b);
	if (env && ember_env__has_feat(env, EMBER_FEAT_TRACING_DATA) && env->tracing_data.data) {
		struct ember_record_tracing_data td = {
			.header = { .type = EMBER_RECORD_HEADER_TRACING_DATA, .size = sizeof(td) },
		};
		uint64_t padded = ALIGN_UP(env->tracing_data.size, 8);

		td.size = padded;
		dbuf_add(&b, &td, sizeof(td));
		dbuf_add(&b, env->tracing_data.data, env->tracing_data.size);
		dbuf_add_zeros(&b, padded - env->tracing_data.size);
	}
	err = b.err ? b.err : io_write_all(w->fd, b.data, b.len);
out:
	dbuf_exit(&b);
	dbuf_exit(&sec);
	return err;
}

int ember_data_writer__start(struct ember_data_writer *w, const struct ember_env *env)
{
	int err;

	if (w->err)
		return w->err;
	if (w->started)
		return -EBUSY;
	w->attr_size = ATTR_SIZE_VER0;
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		uint32_t sz = data_attr_write_size(&w->attrs[i].attr);

		if (sz > w->attr_size)
			w->attr_size = sz;
	}
	if (!w->nr_attrs)
		w->attr_size = data_attr_write_size(&(struct perf_event_attr){ 0 });
	w->started = true;
	err = w->pipe ? start_pipe(w, env) : start_file(w);
	return err ? fail(w, err) : 0;
}

static int buffer_add(struct ember_data_writer *w, const void *data, size_t size, bool plain)
{
	if (w->err)
		return w->err;
	if (!w->started)
		return -EINVAL;
	/* one kind in the buffer at a time, the order of the records kept */
	if (w->zenc && w->len && w->buf_plain != plain) {
		int err = flush(w);

		if (err)
			return err;
	}
	w->buf_plain = plain;
	if (size > w->cap - w->len) {
		int err = flush(w);

		if (err)
			return err;
		/* bigger than the whole buffer: straight out */
		if (size > w->cap) {
			err = emit(w, data, size, plain);
			return err ? fail(w, err) : 0;
		}
	}
	memcpy(w->buf + w->len, data, size);
	w->len += size;
	return 0;
}

int ember_data_writer__write(struct ember_data_writer *w, const void *data, size_t size)
{
	return buffer_add(w, data, size, false);
}

int ember_data_writer__write_plain(struct ember_data_writer *w, const void *data, size_t size)
{
	return buffer_add(w, data, size, true);
}

int ember_data_writer__sync(struct ember_data_writer *w)
{
	struct perf_file_header fh;
	int err;

	if (w->err)
		return w->err;
	if (!w->started)
		return -EINVAL;
	err = flush(w);
	if (err || w->pipe)
		return err;
	file_header(w, &fh, NULL);
	err = pwrite_all(w->fd, &fh, sizeof(fh), 0);
	return err ? fail(w, err) : 0;
}

uint64_t ember_data_writer__data_size(const struct ember_data_writer *w)
{
	return w->data_size + w->len;
}

void ember_data_writer__compressed(const struct ember_data_writer *w, uint64_t *in,
				   uint64_t *out)
{
	*in = w->raw_bytes;
	*out = w->comp_bytes;
}

static int write_features(struct ember_data_writer *w, const struct ember_env *env,
			  uint64_t *feat_bits)
{
	struct perf_file_section secs[EMBER_FEAT_LAST];
	uint64_t off = w->data_offset + w->data_size;
	struct dbuf blobs[EMBER_FEAT_LAST], all = { 0 };
	uint32_t nr = 0;
	int err = 0;

	/* sections are built first: the table before them needs their count and sizes */
	memset(blobs, 0, sizeof(blobs));
	for (int feat = 1; feat < EMBER_FEAT_LAST; feat++) {
		if (!want_feature(w, env, feat))
			continue;
		err = feature_blob(w, env, feat, &blobs[feat]);
		if (err == -ENOENT) {
			err = 0;
			continue;
		}
		if (err)
			goto out;
		feat_bits[feat / 64] |= 1ULL << (feat % 64);
		nr++;
	}
	off += (uint64_t)nr * sizeof(struct perf_file_section);
	nr = 0;
	for (int feat = 1; feat < EMBER_FEAT_LAST; feat++) {
		if (!((feat_bits[feat / 64] >> (feat % 64)) & 1))
			continue;
		secs[nr].offset = off;
		secs[nr].size = blobs[feat].len;
		off += blobs[feat].len;
		nr++;
	}
	dbuf_add(&all, secs, nr * sizeof(secs[0]));
	for (int feat = 1; feat < EMBER_FEAT_LAST; feat++)
		dbuf_add(&all, blobs[feat].data, blobs[feat].len);
	err = all.err ? all.err : io_write_all(w->fd, all.data, all.len);
out:
	for (int feat = 0; feat < EMBER_FEAT_LAST; feat++)
		dbuf_exit(&blobs[feat]);
	dbuf_exit(&all);
	return err;
}

int ember_data_writer__close(struct ember_data_writer *w, const struct ember_env *env)
{
	uint64_t feat[EMBER_FEAT_BITS / 64] = { 0 };
	struct perf_file_header fh;
	int err;

	if (!w)
		return -EINVAL;
	err = w->err;
	if (!err && !w->started)
		err = ember_data_writer__start(w, env);
	if (!err)
		err = flush(w);
	if (!err && !w->pipe) {
		err = write_features(w, env, feat);
		if (!err) {
			file_header(w, &fh, feat);
			err = pwrite_all(w->fd, &fh, sizeof(fh), 0);
		}
	}
	ember_data_writer__delete(w);
	return err;
}

void ember_data_writer__delete(struct ember_data_writer *w)
{
	if (!w)
		return;
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	free(w->buf);
	data_zstd_enc_delete(w->zenc);
	dbuf_exit(&w->zout);
	if (w->own_fd && w->fd >= 0)
		close(w->fd);
	free(w);
}
