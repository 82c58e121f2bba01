// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data writer → reader round trips (file, pipe-format file, real pipe),
 * features through the env, and bad input: truncation at every offset,
 * zero-size records, the other endianness, an unfinished header; the
 * COMPRESSED feature of -z files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ember/ember.h>
#include <ember/perf-data.h>
#include "test.h"

#define NR_SAMPLES 100

struct tmpfile {
	char path[64];
};

static int tmp_make(struct tmpfile *t)
{
	int fd;

	snprintf(t->path, sizeof(t->path), "/tmp/ember-unit-data.XXXXXX");
	fd = mkstemp(t->path);
	if (fd >= 0)
		close(fd);
	return fd;
}

static void fill_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = 999;
	a->freq = 1;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			 PERF_SAMPLE_PERIOD;
	a->sample_id_all = 1;
}

/* A sample of the layout fill_attr() describes. */
static void make_sample(uint64_t *w, int i, uint64_t id)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 48 };

	memcpy(w, &h, 8);
	w[1] = 0x400000 + i;
	w[2] = (uint64_t)1234 << 32 | 1234;
	w[3] = 1000 + i;
	w[4] = id;
	w[5] = 1000000;
}

static void fill_env(struct ember_env *env)
{
	static const char *const argv[] = { "record", "-e", "cpu-clock" };

	memset(env, 0, sizeof(*env));
	ember_env__set_str(&env->hostname, "unit-host");
	ember_env__set_feat(env, EMBER_FEAT_HOSTNAME, true);
	ember_env__set_str(&env->arch, "x86_64");
	ember_env__set_feat(env, EMBER_FEAT_ARCH, true);
	env->nr_cpus_avail = 4;
	env->nr_cpus_online = 2;
	ember_env__set_feat(env, EMBER_FEAT_NRCPUS, true);
	env->total_mem = 123456;
	ember_env__set_feat(env, EMBER_FEAT_TOTAL_MEM, true);
	ember_env__set_cmdline(env, 3, argv);
	env->first_sample_time = 1000;
	env->last_sample_time = 1099;
	ember_env__set_feat(env, EMBER_FEAT_SAMPLE_TIME, true);
	env->tracing_data.data = strdup("tracing-blob");
	env->tracing_data.size = 13;
	ember_env__set_feat(env, EMBER_FEAT_TRACING_DATA, true);
	env->nr_caches = 1;
	env->caches = calloc(1, sizeof(*env->caches));
	env->caches[0].level = 2;
	env->caches[0].type = strdup("Unified");
	env->caches[0].size = strdup("1024K");
	env->caches[0].map = strdup("0-1");
	ember_env__set_feat(env, EMBER_FEAT_CACHE, true);
}

static int write_file(const char *path, bool pipe, int fd, int nr_samples, bool close_it)
{
	struct ember_data_writer_opts o = { .sz = sizeof(o), .pipe = pipe, .fd = fd };
	struct perf_event_attr attr;
	struct ember_data_writer *w;
	uint64_t ids[2] = { 41, 42 }, rec[6];
	struct ember_env env;
	int err;

	w = ember_data_writer__open(path, &o);
	if (!w)
		return -errno;
	fill_attr(&attr);
	fill_env(&env);
	err = ember_data_writer__add_attr(w, &attr, ids, 2, "cpu-clock");
	if (err < 0)
		goto out;
	err = ember_data_writer__start(w, &env);
	for (int i = 0; !err && i < nr_samples; i++) {
		make_sample(rec, i, ids[i & 1]);
		err = ember_data_writer__write(w, rec, sizeof(rec));
	}
	if (err)
		goto out;
	if (!close_it) {
		err = ember_data_writer__sync(w);
		ember_data_writer__delete(w);
		ember_env__exit(&env);
		return err;
	}
	err = ember_data_writer__close(w, &env);
	ember_env__exit(&env);
	return err;
out:
	ember_data_writer__delete(w);
	ember_env__exit(&env);
	return err;
}

/* Read everything; returns samples seen, or a negative errno. */
static int read_samples(struct ember_data_reader *r, struct unit_test *t)
{
	struct ember_data_record rec;
	struct ember_sample s;
	int n = 0, ret;

	while ((ret = ember_data_reader__next(r, &rec)) > 0) {
		if (rec.hdr->type != PERF_RECORD_SAMPLE)
			continue;
		CHECK_EQ(ember_data_reader__parse_sample(r, rec.hdr, &s), 0);
		CHECK_EQ(s.ip, 0x400000 + n);
		CHECK_EQ(s.pid, 1234);
		n++;
	}
	return ret < 0 ? ret : n;
}

static void check_env(struct unit_test *t, const struct ember_env *env)
{
	CHECK_STR(env->hostname, "unit-host");
	CHECK_STR(env->arch, "x86_64");
	CHECK_EQ(env->nr_cpus_avail, 4);
	CHECK_EQ(env->nr_cpus_online, 2);
	CHECK_EQ(env->total_mem, 123456);
	CHECK_EQ(env->nr_cmdline, 4);
	if (env->nr_cmdline == 4)
		CHECK_STR(env->cmdline[3], "cpu-clock");
	CHECK_EQ(env->last_sample_time, 1099);
	/* pipe mode pads the blob to 8 bytes */
	CHECK(env->tracing_data.size == 13 || env->tracing_data.size == 16);
	CHECK(env->tracing_data.data && !strcmp(env->tracing_data.data, "tracing-blob"));
	CHECK_EQ(env->nr_events, 1);
	if (env->nr_events == 1) {
		CHECK_STR(env->events[0].name, "cpu-clock");
		CHECK_EQ(env->events[0].nr_ids, 2);
	}
}

static void check_attrs(struct unit_test *t, const struct ember_data_reader *r, bool named)
{
	const struct ember_data_attr *a = ember_data_reader__attr(r, 0);

	CHECK_EQ(ember_data_reader__nr_attrs(r), 1);
	CHECK(a != NULL);
	if (!a)
		return;
	CHECK_EQ(a->nr_ids, 2);
	CHECK_EQ(a->attr.sample_period, 999);
	if (named)
		CHECK_STR(a->name, "cpu-clock");
	CHECK(ember_data_reader__attr_by_id(r, 42) == a);
	CHECK(ember_data_reader__attr_by_id(r, 43) == NULL);
}

TEST(data_rw_file)
{
	struct ember_data_reader *r;
	struct tmpfile f;

	if (tmp_make(&f) < 0)
		SKIP("cannot create a file in /tmp");
	CHECK_EQ(write_file(f.path, false, -1, NR_SAMPLES, true), 0);
	r = ember_data_reader__open(f.path, NULL);
	CHECK(r != NULL);
	if (r) {
		CHECK(!ember_data_reader__is_pipe(r));
		check_attrs(t, r, true);
		check_env(t, ember_data_reader__env(r));
		CHECK(ember_env__has_feat(ember_data_reader__env(r), EMBER_FEAT_CACHE));
		CHECK_EQ(read_samples(r, t), NR_SAMPLES);
		CHECK(!ember_data_reader__truncated(r));
		CHECK_EQ(ember_data_reader__nr_records(r, PERF_RECORD_SAMPLE), NR_SAMPLES);
		ember_data_reader__delete(r);
	}
	unlink(f.path);
}

TEST(data_rw_pipe_format_file)
{
	struct ember_data_reader *r;
	struct tmpfile f;

	if (tmp_make(&f) < 0)
		SKIP("cannot create a file in /tmp");
	CHECK_EQ(write_file(f.path, true, -1, NR_SAMPLES, true), 0);
	r = ember_data_reader__open(f.path, NULL);
	CHECK(r != NULL);
	if (r) {
		CHECK(ember_data_reader__is_pipe(r));
		/* known at open, before any next() */
		check_attrs(t, r, true);
		check_env(t, ember_data_reader__env(r));
		/* perf does not send CACHE in pipe mode */
		CHECK(!ember_env__has_feat(ember_data_reader__env(r), EMBER_FEAT_CACHE));
		CHECK_EQ(read_samples(r, t), NR_SAMPLES);
		CHECK_EQ(ember_data_reader__nr_records(r, EMBER_RECORD_HEADER_ATTR), 1);
		CHECK_EQ(ember_data_reader__nr_records(r, EMBER_RECORD_HEADER_TRACING_DATA), 1);
		ember_data_reader__delete(r);
	}
	unlink(f.path);
}

TEST(data_rw_real_pipe)
{
	struct ember_data_reader *r;
	int fds[2];

	if (pipe(fds))
		SKIP("pipe() failed");
	/* small enough to sit in the pipe buffer while nobody reads */
	fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
	CHECK_EQ(write_file(NULL, true, fds[1], 20, true), 0);
	close(fds[1]);
	r = ember_data_reader__open_fd(fds[0], NULL);
	CHECK(r != NULL);
	if (r) {
		check_attrs(t, r, true);
		check_env(t, ember_data_reader__env(r));
		CHECK_EQ(read_samples(r, t), 20);
		ember_data_reader__delete(r);
	}
	close(fds[0]);
}

TEST(data_rw_sync_then_killed)
{
	struct ember_data_reader *r;
	struct tmpfile f;

	if (tmp_make(&f) < 0)
		SKIP("cannot create a file in /tmp");
	/* synced but never closed: no features, data size as of the sync */
	CHECK_EQ(write_file(f.path, false, -1, NR_SAMPLES, false), 0);
	r = ember_data_reader__open(f.path, NULL);
	CHECK(r != NULL);
	if (r) {
		/* names come from EVENT_DESC, which only close() writes */
		check_attrs(t, r, false);
		CHECK_EQ(read_samples(r, t), NR_SAMPLES);
		CHECK(!ember_data_reader__truncated(r));
		CHECK(!ember_data_reader__data_size_was_zero(r));
		ember_data_reader__delete(r);
	}
	unlink(f.path);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc(st.st_size);
	if (buf && read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*len = st.st_size;
	return buf;
}

static int spew(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, p, n) == (ssize_t)n;
	close(fd);
	return ok ? 0 : -1;
}

/* Open and read to the end; returns samples, or the negative error. */
static int read_all(const char *path, bool *truncated)
{
	struct ember_data_reader *r = ember_data_reader__open(path, NULL);
	struct ember_data_record rec;
	struct ember_sample s;
	int n = 0, ret;

	if (!r)
		return -errno;
	while ((ret = ember_data_reader__next(r, &rec)) > 0) {
		if (rec.hdr->type == PERF_RECORD_SAMPLE &&
		    !ember_data_reader__parse_sample(r, rec.hdr, &s))
			n++;
	}
	*truncated = ember_data_reader__truncated(r);
	ember_data_reader__delete(r);
	return ret < 0 ? ret : n;
}

static void truncate_everywhere(struct unit_test *t, bool pipe)
{
	struct tmpfile f, g;
	uint8_t *buf;
	size_t len;

	if (tmp_make(&f) < 0 || tmp_make(&g) < 0)
		SKIP("cannot create a file in /tmp");
	CHECK_EQ(write_file(f.path, pipe, -1, 10, true), 0);
	buf = slurp(f.path, &len);
	CHECK(buf != NULL);
	for (size_t cut = 0; buf && cut < len; cut++) {
		bool trunc = false;
		int n;

		spew(g.path, buf, cut);
		n = read_all(g.path, &trunc);
		/* either refused at open, or some whole samples and a flag */
		CHECK(n == -EINVAL || (n >= 0 && n <= 10));
	}
	free(buf);
	unlink(f.path);
	unlink(g.path);
}

TEST(data_bad_truncated_file)
{
	truncate_everywhere(t, false);
}

TEST(data_bad_truncated_pipe)
{
	truncate_everywhere(t, true);
}

TEST(data_bad_inputs)
{
	struct tmpfile f, g;
	uint64_t data_off;
	uint8_t *buf;
	bool trunc;
	size_t len;

	if (tmp_make(&f) < 0 || tmp_make(&g) < 0)
		SKIP("cannot create a file in /tmp");
	CHECK_EQ(write_file(f.path, false, -1, 10, true), 0);
	buf = slurp(f.path, &len);
	if (!buf) {
		CHECK(buf != NULL);
		return;
	}
	memcpy(&data_off, buf + 40, 8);

	/* the other endianness */
	for (int i = 0; i < 4; i++) {
		uint8_t c = buf[i];

		buf[i] = buf[7 - i];
		buf[7 - i] = c;
	}
	spew(g.path, buf, len);
	CHECK_EQ(read_all(g.path, &trunc), -EPROTONOSUPPORT);
	{
		/* refused in words, through the opts, with nothing logged */
		struct ember_open_error e = { .err = -1, .detail = "stale" };
		struct ember_data_reader_opts o = { .sz = sizeof(o), .error = &e };

		CHECK(ember_data_reader__open(g.path, &o) == NULL);
		CHECK_EQ(e.err, EPROTONOSUPPORT);
		CHECK_STR(e.detail, "recorded on a machine of the other endianness; not supported");
	}
	memcpy(buf, "PERFILE2", 8);

	/* not perf.data at all */
	spew(g.path, "hello world, this is not perf data", 34);
	CHECK_EQ(read_all(g.path, &trunc), -EINVAL);
	{
		struct ember_open_error e;
		struct ember_data_reader_opts o = { .sz = sizeof(o), .error = &e };
		struct ember_data_reader *r;

		CHECK(ember_data_reader__open(g.path, &o) == NULL);
		CHECK_EQ(e.err, EINVAL);
		CHECK_STR(e.detail, "bad magic");
		/* a missing file: the errno, nothing to add */
		CHECK(ember_data_reader__open("/nonexistent/perf.data", &o) == NULL);
		CHECK_EQ(e.err, ENOENT);
		CHECK_STR(e.detail, "");
		/* a good one clears it */
		spew(g.path, buf, len);
		r = ember_data_reader__open(g.path, &o);
		CHECK(r != NULL);
		CHECK_EQ(e.err, 0);
		CHECK_STR(e.detail, "");
		ember_data_reader__delete(r);
	}

	/* a record of size 0 stops iteration with an error, no endless loop */
	{
		uint8_t save[8];

		memcpy(save, buf + data_off + 48 * 3, 8);
		memset(buf + data_off + 48 * 3 + 6, 0, 2);
		spew(g.path, buf, len);
		CHECK_EQ(read_all(g.path, &trunc), -EINVAL);
		memcpy(buf + data_off + 48 * 3, save, 8);
	}

	/* data.size 0 (killed recorder): the rest of the file is data */
	{
		uint64_t zero = 0, size;

		memcpy(&size, buf + 48, 8);
		memcpy(buf + 48, &zero, 8);
		spew(g.path, buf, data_off + size);
		CHECK_EQ(read_all(g.path, &trunc), 10);
		memcpy(buf + 48, &size, 8);
	}

	/* huge section sizes and offsets */
	{
		uint64_t huge = ~0ULL >> 1, save;

		for (int field = 24; field < 56; field += 8) {
			memcpy(&save, buf + field, 8);
			memcpy(buf + field, &huge, 8);
			spew(g.path, buf, len);
			read_all(g.path, &trunc);	/* any answer, no crash */
			memcpy(buf + field, &save, 8);
		}
	}

	/* every byte flipped in turn */
	for (size_t i = 0; i < len; i++) {
		buf[i] ^= 0xff;
		spew(g.path, buf, len);
		read_all(g.path, &trunc);
		buf[i] ^= 0xff;
	}
	free(buf);
	unlink(f.path);
	unlink(g.path);
}

TEST(data_env_gather)
{
	struct ember_env env;

	CHECK_EQ(ember_env__gather(&env), 0);
	CHECK(env.hostname && *env.hostname);
	CHECK(env.nr_cpus_online > 0);
	CHECK(env.nr_cpus_avail >= env.nr_cpus_online);
	/* a perf version readers parse (6.1.0), and ember's */
	CHECK_STR(env.version, "6.1.0-ember-" EMBER_VERSION);
	CHECK(ember_env__has_feat(&env, EMBER_FEAT_NRCPUS));
	ember_env__exit(&env);
}

/* A file-mode perf.data built by hand, with one attr of `asz` bytes on disk. */
static int hand_file(const char *path, uint32_t asz, uint32_t size_field)
{
	uint8_t buf[1024] = { 0 };
	uint64_t hdr[13] = { 0 }, rec[6];
	struct perf_event_attr a;
	uint64_t ids_off = 104 + asz + 16, data_off = ids_off + 8, id = 7;

	memcpy(&hdr[0], "PERFILE2", 8);
	hdr[1] = 104;
	hdr[2] = asz + 16;		/* attr_size */
	hdr[3] = 104;			/* attrs */
	hdr[4] = asz + 16;
	hdr[5] = data_off;		/* data */
	hdr[6] = 48;
	memcpy(buf, hdr, sizeof(hdr));
	fill_attr(&a);
	a.size = size_field;
	memcpy(buf + 104, &a, asz < sizeof(a) ? asz : sizeof(a));
	memcpy(buf + 104 + asz, &ids_off, 8);
	memcpy(buf + 104 + asz + 8, &(uint64_t){ 8 }, 8);
	memcpy(buf + ids_off, &id, 8);
	make_sample(rec, 0, id);
	memcpy(buf + data_off, rec, sizeof(rec));
	return spew(path, buf, data_off + sizeof(rec));
}

TEST(data_attr_sizes)
{
	static const uint32_t sizes[][2] = {
		{ 64, 64 }, { 64, 0 }, { 72, 72 }, { 96, 96 }, { 120, 120 },
		{ 128, 128 }, { 160, 160 },
	};
	struct tmpfile f;

	if (tmp_make(&f) < 0)
		SKIP("cannot create a file in /tmp");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct ember_data_reader *r;
		const struct ember_data_attr *a;
		bool trunc;

		CHECK_EQ(hand_file(f.path, sizes[i][0], sizes[i][1]), 0);
		r = ember_data_reader__open(f.path, NULL);
		CHECK(r != NULL);
		if (!r)
			continue;
		a = ember_data_reader__attr(r, 0);
		CHECK_EQ(ember_data_reader__nr_attrs(r), 1);
		CHECK_EQ(a->file_attr_size, sizes[i][1] ? sizes[i][1] : 64);
		CHECK_EQ(a->attr.sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD);
		CHECK_EQ(a->nr_ids, 1);
		CHECK(ember_data_reader__attr_by_id(r, 7) == a);
		ember_data_reader__delete(r);
		CHECK_EQ(read_all(f.path, &trunc), 1);
	}
	unlink(f.path);
}

/*
 * -z files: the COMPRESSED feature says what perf 6.1 says (version 0, zstd,
 * the level, the ratio rounded, the bytes a record decompresses to at most),
 * and files of either version are read: ember wrote version 1 before.
 */
#define NR_ZSAMPLES 2000

/* NR_ZSAMPLES samples of fill_attr()'s layout, compressed at level 1; 0 or -errno. */
static int write_compressed(const char *path)
{
	struct ember_data_writer_opts o = { .sz = sizeof(o), .compress_level = 1 };
	struct ember_data_writer *w = ember_data_writer__open(path, &o);
	struct perf_event_attr attr;
	uint64_t id = 7, rec[6];
	int err;

	if (!w)
		return -errno;
	fill_attr(&attr);
	err = ember_data_writer__add_attr(w, &attr, &id, 1, "cpu-clock");
	if (err >= 0)
		err = ember_data_writer__start(w, NULL);
	for (int i = 0; !err && i < NR_ZSAMPLES; i++) {
		make_sample(rec, i % 16, id);
		err = ember_data_writer__write(w, rec, sizeof(rec));
	}
	if (err) {
		ember_data_writer__delete(w);
		return err;
	}
	return ember_data_writer__close(w, NULL);
}

/* The samples the reader decodes, or -errno; *env_out: a copy of the COMPRESSED fields. */
static int read_back(const char *path, struct ember_env *env_out)
{
	struct ember_data_reader *r = ember_data_reader__open(path, NULL);
	struct ember_data_record rec;
	int n = 0, ret;

	if (!r)
		return -errno;
	while ((ret = ember_data_reader__next(r, &rec)) > 0)
		n += rec.hdr->type == PERF_RECORD_SAMPLE;
	*env_out = *ember_data_reader__env(r);
	ember_data_reader__delete(r);
	return ret < 0 ? ret : n;
}

/* Overwrites the u32 at the COMPRESSED section's start (its version); 0 or -1. */
static int set_version(const char *path, const struct ember_env *env, uint32_t version)
{
	uint32_t want[5] = { env->comp_ver, env->comp_type, env->comp_level, env->comp_ratio,
			     env->comp_mmap_len };
	int fd = open(path, O_RDWR), ret = -1;
	struct stat st;
	uint8_t *buf;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !(buf = malloc(st.st_size))) {
		close(fd);
		return -1;
	}
	/* the feature sections come last: the last match is the section */
	if (pread(fd, buf, st.st_size, 0) == st.st_size) {
		for (off_t off = st.st_size - (off_t)sizeof(want); off >= 0; off--) {
			if (memcmp(buf + off, want, sizeof(want)))
				continue;
			ret = pwrite(fd, &version, sizeof(version), off) == sizeof(version) ? 0 : -1;
			break;
		}
	}
	free(buf);
	close(fd);
	return ret;
}

TEST(data_compressed_feature_as_perf)
{
	char path[] = "/tmp/ember-unit-z.XXXXXX";
	struct ember_env env;
	int fd = mkstemp(path), err;

	if (fd < 0)
		SKIP("cannot create a file in /tmp");
	close(fd);
	err = write_compressed(path);
	if (err == -ENOTSUP) {
		unlink(path);
		SKIP("no libzstd.so.1 on this machine");
	}
	CHECK_EQ(err, 0);
	CHECK_EQ(read_back(path, &env), NR_ZSAMPLES);
	CHECK(ember_env__has_feat(&env, EMBER_FEAT_COMPRESSED));
	/* perf 6.1 writes version 0 (hotspot's perfparser takes no other) */
	CHECK_EQ(env.comp_ver, 0);
	CHECK_EQ(env.comp_type, EMBER_COMP_ZSTD);
	CHECK_EQ(env.comp_level, 1);
	/* 2000 near-identical samples compress well; perf rounds: at least 2 */
	CHECK(env.comp_ratio >= 2);
	CHECK(env.comp_mmap_len > 0);

	/* ember's files of before: version 1, read all the same */
	CHECK_EQ(set_version(path, &env, 1), 0);
	CHECK_EQ(read_back(path, &env), NR_ZSAMPLES);
	CHECK_EQ(env.comp_ver, 1);
	CHECK_EQ(env.comp_type, EMBER_COMP_ZSTD);
	unlink(path);
}
