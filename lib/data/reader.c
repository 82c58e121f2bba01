// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The perf.data reader: open (file or pipe format, told by the header),
 * iterate records, decode COMPRESSED records, keep the attrs and env the
 * header records describe. File mode works on one mmap of the whole file;
 * records are handed out in place, copied only when misaligned.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/log.h"
#include "data/features.h"
#include "data/reader.h"

#define SCRATCH_SIZE (RECORD_MAX_SIZE + 1)

/* Whether the caller's opts are recent enough to hold field f. */
#define OPT(o, f) ((o) && (o)->sz >= offsetof(struct ember_data_reader_opts, f) + sizeof((o)->f))

int data_open_fail(struct ember_data_reader *r, int err, const char *fmt, ...)
{
	struct ember_open_error *e = r->open_error;
	char why[EMBER_OPEN_DETAIL_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pr_debug("perf.data: %s\n", why);
	/* the first reason is the closest to what was wrong */
	if (e && !e->detail[0])
		memcpy(e->detail, why, sizeof(why));
	return err;
}

const struct perf_event_header *data_reader_align(struct ember_data_reader *r, const uint8_t *p)
{
	uint16_t size;

	if (!((uintptr_t)p & 7))
		return (const struct perf_event_header *)p;
	/* records are u64 arrays to their consumers: give them an aligned copy */
	size = get_u16(p + 6);
	memcpy(r->scratch, p, size);
	return (const struct perf_event_header *)r->scratch;
}

static int process_attr(struct ember_data_reader *r, const struct perf_event_header *h)
{
	const uint8_t *p = (const uint8_t *)h + sizeof(*h);
	uint32_t avail = h->size - sizeof(*h), fsz, nr_ids;
	struct perf_event_attr attr;
	int idx;

	if (avail < ATTR_SIZE_VER0)
		return r->opened ? -EINVAL
				 : data_open_fail(r, -EINVAL, "an ATTR record of %u bytes, too short",
						  h->size);
	fsz = data_attr_from_file(&attr, p, avail);
	nr_ids = (avail - fsz) / 8;
	idx = data_attrs_add(&r->attrs, &attr, fsz, p + fsz, nr_ids, NULL);
	if (idx < 0)
		return idx;
	if ((uint32_t)idx < r->env.nr_events && r->env.events[idx].name)
		data_attrs_set_name(&r->attrs, idx, r->env.events[idx].name);
	return 0;
}

static int process_feature(struct ember_data_reader *r, const struct perf_event_header *h)
{
	const struct ember_record_header_feature *f = (const void *)h;
	int err;

	if (h->size < sizeof(*f))
		return r->opened ? -EINVAL
				 : data_open_fail(r, -EINVAL, "a FEATURE record of %u bytes, too short",
						  h->size);
	/* feat_id EMBER_FEAT_LAST (or beyond, from a newer perf) marks the end */
	if (f->feat_id == 0 || f->feat_id >= EMBER_FEAT_LAST)
		return 0;
	err = data_feat_parse(&r->env, f->feat_id, f->data, h->size - sizeof(*f));
	if (err == -ENOMEM)
		return err;
	if (f->feat_id == EMBER_FEAT_EVENT_DESC) {
		for (uint32_t i = 0; i < r->env.nr_events && i < r->attrs.nr; i++) {
			if (!r->attrs.v[i]->name && r->env.events[i].name)
				data_attrs_set_name(&r->attrs, i, r->env.events[i].name);
		}
	}
	return 0;
}

static void process_event_update(struct ember_data_reader *r, const struct perf_event_header *h)
{
	const struct ember_record_event_update *u = (const void *)h;
	const struct ember_data_attr *a;
	size_t n;
	char *name;

	if (h->size <= sizeof(*u) || u->type != 2 /* PERF_EVENT_UPDATE__NAME */)
		return;
	a = data_attrs_find(&r->attrs, u->id);
	if (!a)
		return;
	n = h->size - sizeof(*u);
	name = strndup(u->data, n);
	if (name)
		data_attrs_set_name(&r->attrs, a->idx, name);
	free(name);
}

/*
 * What one COMPRESSED record may expand to: perf decompresses it into a
 * buffer of the ring buffer's size, which the COMPRESSED feature gives
 * (mmap_len: what one read of a ring buffer held, compressed as one frame
 * spread over records). Without it, or with more than any ring buffer
 * perf maps, 64 MB.
 */
#define COMPRESSED_MAX (64u << 20)

static size_t compressed_limit(const struct ember_data_reader *r)
{
	uint64_t len = r->env.comp_mmap_len;

	if (!len || len > COMPRESSED_MAX)
		return COMPRESSED_MAX;
	return len < 4096 ? 4096 : len;
}

static int process_compressed(struct ember_data_reader *r, const struct perf_event_header *h,
			      uint64_t offset)
{
	size_t left = r->dc.len - r->dc_pos;
	int err;

	if (!r->zdec) {
		r->zdec = data_zstd_dec_new();
		if (!r->zdec) {
			pr_warn("perf.data: compressed records need libzstd.so.1, which cannot be loaded\n");
			return -ENOTSUP;
		}
	}
	/* a record may straddle two COMPRESSED records: keep the partial tail */
	if (r->dc_pos) {
		memmove(r->dc.data, r->dc.data + r->dc_pos, left);
		r->dc.len = left;
		r->dc_pos = 0;
	}
	err = data_zstd_dec_run(r->zdec, h + 1, h->size - sizeof(*h), &r->dc,
				compressed_limit(r));
	if (err == -EFBIG) {
		/* perf's words, once: the rest is in the skipped-records count */
		if (!r->nr_bombs++)
			pr_warn("failed to decompress (B): %zu -> 0, dst_size %zu : "
				"Destination buffer is too small\n",
				(size_t)h->size - sizeof(*h), compressed_limit(r));
		r->dc.len = left;	/* what it wrote so far is dropped */
		return -EINVAL;
	}
	if (err)
		return err;
	r->dc_offset = offset;
	return 0;
}

#define BAD_SIZE "a record of size %u (smaller than its header) at offset %#llx"

int data_reader_bad_size(struct ember_data_reader *r, uint64_t offset, uint16_t size)
{
	if (!r->opened)
		return data_open_fail(r, -EINVAL, BAD_SIZE, size, (unsigned long long)offset);
	pr_debug("perf.data: " BAD_SIZE "\n", size, (unsigned long long)offset);
	if (!r->lenient)
		return -EINVAL;
	/* nothing says where the next record starts: the data ends here */
	r->end.stopped = true;
	r->end.stop_size = size;
	r->end.stop_offset = offset;
	return 0;
}

/* Lenient mode: a record of sound size whose content is bad is left out, and counted. */
static bool skip_bad(struct ember_data_reader *r, const struct perf_event_header *h,
		     uint64_t offset, int err)
{
	if (err != -EINVAL || !r->lenient || !r->opened)
		return false;
	if (!r->end.nr_skipped++) {
		r->end.skip_type = h->type;
		r->end.skip_offset = offset;
	}
	return true;
}

/*
 * Bookkeeping every record goes through: counts, and the header records
 * that describe the file (attrs, features, names, tracing data).
 */
int data_reader_process(struct ember_data_reader *r, const struct perf_event_header *h,
		   const void *payload, uint64_t payload_size)
{
	/* header records read ahead at open are counted when handed out */
	if (r->in_preload)
		;
	else if (h->type < EMBER_RECORD_TYPE_MAX && ember_record__name(h->type))
		r->counts[h->type]++;
	else
		r->nr_unknown++;

	switch (h->type) {
	case EMBER_RECORD_HEADER_ATTR:
		return process_attr(r, h);
	case EMBER_RECORD_HEADER_FEATURE:
		return process_feature(r, h);
	case EMBER_RECORD_EVENT_UPDATE:
		process_event_update(r, h);
		return 0;
	case EMBER_RECORD_HEADER_BUILD_ID:
		/* pipe mode's BUILD_ID feature, one record at a time */
		if (data_env_add_build_ids(&r->env, h, h->size) == 0)
			ember_env__set_feat(&r->env, EMBER_FEAT_BUILD_ID, true);
		return 0;
	case EMBER_RECORD_HEADER_TRACING_DATA:
		if (payload) {
			void *copy = malloc(payload_size ? payload_size : 1);

			if (!copy)
				return -ENOMEM;
			memcpy(copy, payload, payload_size);
			free(r->env.tracing_data.data);
			r->env.tracing_data.data = copy;
			r->env.tracing_data.size = payload_size;
			ember_env__set_feat(&r->env, EMBER_FEAT_TRACING_DATA, true);
		}
		return 0;
	default:
		return 0;
	}
}

/*
 * data_reader_process() where it has nothing to do but count: a kernel
 * record (type < 64, all but a few), every record read, without a call.
 */
static inline int process_record(struct ember_data_reader *r, const struct perf_event_header *h,
				 const void *payload, uint64_t payload_size)
{
	if (h->type < EMBER_RECORD_HEADER_ATTR && !r->in_preload) {
		if (data_record_known(h->type))
			r->counts[h->type]++;
		else
			r->nr_unknown++;
		return 0;
	}
	return data_reader_process(r, h, payload, payload_size);
}

/* The next whole record of the decoded COMPRESSED buffer, or NULL. */
static const struct perf_event_header *dc_next(struct ember_data_reader *r)
{
	size_t left = r->dc.len - r->dc_pos;
	const uint8_t *p;
	uint16_t size;

	/* before the first COMPRESSED record dc.data is NULL: no pointer arithmetic on it */
	if (left < sizeof(struct perf_event_header))
		return NULL;
	p = r->dc.data + r->dc_pos;
	size = get_u16(p + 6);
	if (size < sizeof(struct perf_event_header)) {
		struct perf_event_header h = { .type = EMBER_RECORD_COMPRESSED };

		/* lenient: the rest of this frame is lost, the next frames are whole */
		if (skip_bad(r, &h, r->dc_offset, -EINVAL))
			r->dc.len = r->dc_pos = 0;
		else
			r->error = -EINVAL;
		return NULL;
	}
	if (size > left)
		return NULL;
	r->dc_pos += size;
	return data_reader_align(r, p);
}

/*
 * The reader walks the mapping once, front to back: what lies behind it
 * need not stay resident. Give those pages back every RELEASE_STEP bytes,
 * so that reading a 1 GB file costs a few MB of mapped pages, not 1 GB
 * (a 21 MB file kept all of its pages with a step of 32 MB: 40 % of the
 * flame graph's peak memory). A later touch of a released page (a record
 * still held by a consumer) reads it again from the page cache: nothing
 * is lost; the last RELEASE_KEEP bytes stay mapped, as the records of
 * the time-ordering queue's last rounds mostly lie there.
 */
#define RELEASE_STEP (4u << 20)
#define RELEASE_KEEP (2u << 20)

static void release_behind(struct ember_data_reader *r, uint64_t upto)
{
	uint64_t end;

	if (!r->mem_mapped || upto < r->mem_released + RELEASE_STEP + RELEASE_KEEP)
		return;
	end = (upto - RELEASE_KEEP) & ~((uint64_t)sysconf(_SC_PAGESIZE) - 1);
	madvise(r->mem + r->mem_released, end - r->mem_released, MADV_DONTNEED);
	r->mem_released = end;
}

static int file_next(struct ember_data_reader *r, struct ember_data_record *rec)
{
	const uint8_t *p;
	uint64_t left = r->data_end - r->head, extra = 0;
	uint16_t size;

	if (left < sizeof(struct perf_event_header)) {
		if (left && !r->data_size_zero)
			r->truncated = true;
		return 0;
	}
	release_behind(r, r->head);
	p = r->mem + r->head;
	size = get_u16(p + 6);
	if (size < sizeof(struct perf_event_header))
		return data_reader_bad_size(r, r->head, size);
	if (size > left) {
		r->truncated = true;
		return 0;
	}
	/* data that follows the record without being part of it */
	if (get_u32(p) == EMBER_RECORD_AUXTRACE && size >= sizeof(struct ember_record_auxtrace))
		extra = get_u64(p + 8);
	else if (get_u32(p) == EMBER_RECORD_HEADER_TRACING_DATA && size >= 12)
		extra = get_u32(p + 8);
	if (extra > left - size) {
		r->truncated = true;
		return 0;
	}
	rec->hdr = data_reader_align(r, p);
	rec->offset = r->head;
	rec->payload = extra ? p + size : NULL;
	rec->payload_size = extra;
	rec->compressed = false;
	r->head += size + extra;
	return 1;
}

int ember_data_reader__next(struct ember_data_reader *r, struct ember_data_record *rec)
{
	int ret;

	if (r->error)
		return r->error;
	for (;;) {
		const struct perf_event_header *h = dc_next(r);

		if (h) {
			rec->hdr = h;
			rec->offset = r->dc_offset;
			rec->payload = NULL;
			rec->payload_size = 0;
			rec->compressed = true;
			ret = process_record(r, h, NULL, 0);
			break;
		}
		if (r->error)
			return r->error;
		if (r->nr_replay > r->next_replay) {
			const struct replay_rec *rr = &r->replay[r->next_replay++];

			/* already processed at open */
			rec->hdr = rr->data;
			rec->offset = rr->offset;
			rec->payload = rr->payload;
			rec->payload_size = rr->payload_size;
			rec->compressed = false;
			if (rec->hdr->type < EMBER_RECORD_TYPE_MAX)
				r->counts[rec->hdr->type]++;
			r->end.last_type = rec->hdr->type;
			return 1;
		}
		ret = r->pipe ? data_pipe_next(r, rec) : file_next(r, rec);
		if (ret <= 0) {
			if (ret < 0)
				r->error = ret;
			else if (r->dc.len > r->dc_pos)
				r->truncated = true;	/* a partial record left in the last frame */
			return ret;
		}
		if (rec->hdr->type == EMBER_RECORD_COMPRESSED) {
			r->counts[EMBER_RECORD_COMPRESSED]++;
			ret = process_compressed(r, rec->hdr, rec->offset);
			if (ret < 0 && skip_bad(r, rec->hdr, rec->offset, ret)) {
				/* what it half decoded, and a record straddling into it, are lost */
				data_zstd_dec_delete(r->zdec);
				r->zdec = NULL;
				r->dc.len = r->dc_pos = 0;
				continue;
			}
			if (ret < 0) {
				r->error = ret;
				return ret;
			}
			if (r->show_compressed)
				break;
			continue;
		}
		ret = process_record(r, rec->hdr, rec->payload, rec->payload_size);
		if (ret < 0 && skip_bad(r, rec->hdr, rec->offset, ret))
			continue;
		break;
	}
	if (ret < 0) {
		r->error = ret;
		return ret;
	}
	r->end.last_type = rec->hdr->type;
	return 1;
}

/* Read a whole non-seekable input into memory (a file-format perf.data on a pipe). */
static int slurp(struct ember_data_reader *r, const uint8_t *first, size_t nfirst)
{
	size_t cap = 1 << 20, len = nfirst;
	uint8_t *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	memcpy(buf, first, nfirst);
	for (;;) {
		ssize_t n;

		if (len == cap) {
			uint8_t *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(r->fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			free(buf);
			return n;
		}
		if (n == 0)
			break;
		len += n;
	}
	r->mem = buf;
	r->mem_len = len;
	r->file_size = len;
	return 0;
}

static int check_magic(struct ember_data_reader *r, uint64_t magic)
{
	if (magic == PERF_MAGIC2)
		return 0;
	if (magic == PERF_MAGIC2_SWAPPED)
		return data_open_fail(r, -EPROTONOSUPPORT,
				      "recorded on a machine of the other endianness; not supported");
	if (!memcmp(&magic, "PERFFILE", 8))
		return data_open_fail(r, -EPROTONOSUPPORT,
				      "version 1 (PERFFILE) files are not supported");
	return data_open_fail(r, -EINVAL, "bad magic");
}

static int reader_init(struct ember_data_reader *r)
{
	uint8_t hdr[PERF_PIPE_HEADER_SIZE];
	struct stat st;
	int err;

	if (fstat(r->fd, &st))
		return -errno;
	r->mtime = st.st_mtime;
	if (S_ISREG(st.st_mode)) {
		r->file_size = st.st_size;
		if (r->file_size < PERF_PIPE_HEADER_SIZE)
			return data_open_fail(r, -EINVAL, "file too short (%llu bytes)",
					      (unsigned long long)r->file_size);
		r->mem = mmap(NULL, r->file_size, PROT_READ, MAP_SHARED, r->fd, 0);
		if (r->mem == MAP_FAILED) {
			r->mem = NULL;
			return -errno;
		}
		r->mem_mapped = true;
		r->mem_len = r->file_size;
		madvise(r->mem, r->mem_len, MADV_SEQUENTIAL);
		memcpy(hdr, r->mem, sizeof(hdr));
	} else {
		size_t got = 0;

		while (got < sizeof(hdr)) {
			ssize_t n = read(r->fd, hdr + got, sizeof(hdr) - got);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return -errno;
			if (n == 0)
				return data_open_fail(r, -EINVAL, "input ends before the header");
			got += n;
		}
	}
	err = check_magic(r, get_u64(hdr));
	if (err)
		return err;
	if (get_u64(hdr + 8) == PERF_PIPE_HEADER_SIZE) {
		r->pipe = true;
		return data_pipe_open(r, hdr);
	}
	if (!r->mem) {
		err = slurp(r, hdr, sizeof(hdr));
		if (err)
			return err;
	}
	return data_file_open(r);
}

struct ember_data_reader *ember_data_reader__open_fd(int fd,
						      const struct ember_data_reader_opts *opts)
{
	struct ember_open_error *e = OPT(opts, error) ? opts->error : NULL;
	struct ember_data_reader *r = calloc(1, sizeof(*r));
	int err;

	if (e)
		*e = (struct ember_open_error){ 0 };
	if (!r) {
		err = -ENOMEM;
		goto fail;
	}
	r->fd = fd;
	r->open_error = e;
	if (OPT(opts, show_compressed))
		r->show_compressed = opts->show_compressed;
	if (OPT(opts, lenient))
		r->lenient = opts->lenient;
	/* malloc memory is aligned for any u64 access */
	r->scratch = malloc(SCRATCH_SIZE);
	err = r->scratch ? reader_init(r) : -ENOMEM;
	if (err) {
		ember_data_reader__delete(r);
		goto fail;
	}
	/* a bad header record at open still fails it: leniency is for the data */
	r->opened = true;
	r->open_error = NULL;
	return r;

fail:
	if (e)
		e->err = -err;
	errno = -err;
	return NULL;
}

struct ember_data_reader *ember_data_reader__open(const char *path,
						   const struct ember_data_reader_opts *opts)
{
	struct ember_data_reader *r;
	int fd, err;

	if (path && !strcmp(path, "-"))
		return ember_data_reader__open_fd(STDIN_FILENO, opts);
	fd = path ? open(path, O_RDONLY | O_CLOEXEC) : (errno = EINVAL, -1);
	if (fd < 0) {
		if (OPT(opts, error))
			*opts->error = (struct ember_open_error){ .err = errno };
		return NULL;
	}
	r = ember_data_reader__open_fd(fd, opts);
	if (!r) {
		err = errno;
		close(fd);
		errno = err;
		return NULL;
	}
	r->own_fd = true;
	return r;
}

void ember_data_reader__delete(struct ember_data_reader *r)
{
	if (!r)
		return;
	data_pipe_exit(r);
	if (r->mem_mapped)
		munmap(r->mem, r->mem_len);
	else
		free(r->mem);
	data_zstd_dec_delete(r->zdec);
	dbuf_exit(&r->dc);
	data_attrs_exit(&r->attrs);
	ember_env__exit(&r->env);
	free(r->scratch);
	if (r->own_fd)
		close(r->fd);
	free(r);
}

bool ember_data_reader__is_pipe(const struct ember_data_reader *r)
{
	return r->pipe;
}

bool ember_data_reader__truncated(const struct ember_data_reader *r)
{
	return r->truncated;
}

bool ember_data_reader__data_size_was_zero(const struct ember_data_reader *r)
{
	return r->data_size_zero;
}

uint64_t ember_data_reader__nr_records(const struct ember_data_reader *r, uint32_t type)
{
	return type < EMBER_RECORD_TYPE_MAX ? r->counts[type] : r->nr_unknown;
}

uint64_t ember_data_reader__nr_unknown(const struct ember_data_reader *r)
{
	return r->nr_unknown;
}

void ember_data_reader__end(const struct ember_data_reader *r, struct ember_data_reader_end *end)
{
	*end = r->end;
}

void ember_data_reader__header_info(const struct ember_data_reader *r,
				    struct ember_data_header_info *info)
{
	memset(info, 0, sizeof(*info));
	info->file_size = r->file_size;
	info->mtime = r->mtime;
	if (r->pipe)
		return;
	info->data_offset = r->fh.data.offset;
	info->data_size = r->fh.data.size;
	info->feat_offset = r->fh.data.offset + r->fh.data.size;
	info->attr_size = r->fh.attr_size;
}

const struct ember_env *ember_data_reader__env(const struct ember_data_reader *r)
{
	return &r->env;
}

uint32_t ember_data_reader__nr_attrs(const struct ember_data_reader *r)
{
	return r->attrs.nr;
}

const struct ember_data_attr *ember_data_reader__attr(const struct ember_data_reader *r,
						      uint32_t idx)
{
	return idx < r->attrs.nr ? r->attrs.v[idx] : NULL;
}

const struct ember_data_attr *ember_data_reader__attr_by_id(const struct ember_data_reader *r,
							    uint64_t id)
{
	return data_attrs_find(&r->attrs, id);
}

const struct ember_data_attr *ember_data_reader__attr_of(const struct ember_data_reader *r,
							 const struct perf_event_header *rec)
{
	return data_attrs_of(&r->attrs, rec);
}

int ember_data_reader__parse_sample(const struct ember_data_reader *r,
				    const struct perf_event_header *rec, struct ember_sample *s)
{
	const struct ember_data_attr *a;

	memset(s, 0, sizeof(*s));
	if (rec->type >= EMBER_RECORD_HEADER_ATTR)
		return -EINVAL;
	a = data_attrs_of(&r->attrs, rec);
	if (!a)
		return -ENOENT;
	if (rec->type == PERF_RECORD_SAMPLE)
		return ember_sample__parse(s, rec, &a->attr);
	return ember_sample__parse_id(s, rec, &a->attr);
}
