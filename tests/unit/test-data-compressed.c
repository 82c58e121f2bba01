// SPDX-License-Identifier: GPL-2.0-only
/*
 * -z files: the COMPRESSED feature says what perf 6.1 says (version 0, zstd,
 * the level, the ratio rounded, the bytes a record decompresses to at most),
 * and files of either version are read: ember wrote version 1 before.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ember/perf-data.h>
#include "test.h"

#define NR_ZSAMPLES 2000

static void zattr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = 4000;
	a->freq = 1;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
}

/* NR_ZSAMPLES samples of zattr()'s layout, compressed at level 1; 0 or -errno. */
static int write_compressed(const char *path)
{
	struct ember_data_writer_opts o = { .sz = sizeof(o), .compress_level = 1 };
	struct ember_data_writer *w = ember_data_writer__open(path, &o);
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 32 };
	struct perf_event_attr attr;
	uint64_t id = 7, rec[4];
	int err;

	if (!w)
		return -errno;
	zattr(&attr);
	err = ember_data_writer__add_attr(w, &attr, &id, 1, "cpu-clock");
	if (err >= 0)
		err = ember_data_writer__start(w, NULL);
	for (int i = 0; !err && i < NR_ZSAMPLES; i++) {
		memcpy(rec, &h, sizeof(h));
		rec[1] = 0x401000 + (i % 16);
		rec[2] = (uint64_t)77 << 32 | 77;
		rec[3] = 250000;
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
