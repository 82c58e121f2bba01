// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember record's output: the perf.data writer in file or pipe mode, the
 * feature sections, and perf's closing lines.
 *
 * The BUILD_ID section: perf fills it by reading back the whole file
 * after recording to find the dsos with samples (most of perf record's
 * fixed cost, with the ~/.debug cache). ember notes the executable maps as
 * their records go to the writer and reads each file's build-id note once
 * at the end: the files perf lists, and the others mapped executable.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <ember/session.h>
#include <ember/trace.h>
#include "record/loop.h"
#include "record/output.h"
#include "record/record.h"

int record_output__init(struct record *rec)
{
	const char *out = rec->opts.output.output;
	struct stat st;

	rec->out.out_fd = -1;
	if (!out && fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))
		out = "-";
	rec->out.path = out ? out : RECORD_DEFAULT_OUTPUT;
	rec->out.pipe = !strcmp(rec->out.path, "-");
	if (!rec->out.pipe)
		return 0;
	if (rec->opts.output.switch_output || rec->opts.output.timestamp_filename) {
		record_err("%s writes files; standard output is a pipe (use -o FILE)",
			   rec->opts.output.switch_output ? "--switch-output"
							  : "--timestamp-filename");
		return 2;
	}
	rec->out.out_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (rec->out.out_fd < 0) {
		record_err("cannot use standard output for pipe mode: %s", strerror(errno));
		return 1;
	}
	/* The command (and anything else) writing to fd 1 now writes to stderr. */
	if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		record_err("cannot redirect standard output: %s", strerror(errno));
		return 1;
	}
	return 0;
}

/* perf's check_backup(): a non-empty FILE becomes FILE.old. */
static int backup(const char *path)
{
	char old[PATH_MAX];
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;
	if (snprintf(old, sizeof(old), "%s.old", path) >= (int)sizeof(old))
		return -ENAMETOOLONG;
	if (rename(path, old) < 0)
		return -errno;
	return 0;
}

/* TRACING_DATA: the formats of every tracepoint recorded, so perf script can print them. */
static int add_tracing_data(struct record *rec)
{
	struct ember_tracepoint *tps;
	struct ember_evsel *pos;
	size_t nr = 0, size;
	void *data;
	int err;

	ember_evlist__for_each(rec->evlist, pos)
		if (ember_evsel__tracepoint(pos, NULL, NULL))
			nr++;
	if (!nr)
		return 0;
	tps = calloc(nr, sizeof(*tps));
	if (!tps)
		return -ENOMEM;
	nr = 0;
	ember_evlist__for_each(rec->evlist, pos)
		if (ember_evsel__tracepoint(pos, &tps[nr].sys, &tps[nr].name))
			nr++;
	err = ember_tracing_data__build(NULL, tps, nr, &data, &size);
	free(tps);
	if (err)
		return err;
	rec->out.env.tracing_data.data = data;
	rec->out.env.tracing_data.size = size;
	ember_env__set_feat(&rec->out.env, EMBER_FEAT_TRACING_DATA, true);
	return 0;
}

/* GROUP_DESC for each group of two or more, as perf writes it. */
static int add_groups(struct record *rec)
{
	struct ember_evsel *pos;
	uint32_t nr = 0;

	ember_evlist__for_each(rec->evlist, pos)
		if (ember_evsel__is_group_leader(pos) && ember_evsel__nr_members(pos) > 1)
			nr++;
	if (!nr)
		return 0;
	rec->out.env.groups = calloc(nr, sizeof(*rec->out.env.groups));
	if (!rec->out.env.groups)
		return -ENOMEM;
	ember_evlist__for_each(rec->evlist, pos) {
		struct ember_env_group *g;

		if (!ember_evsel__is_group_leader(pos) || ember_evsel__nr_members(pos) < 2)
			continue;
		g = &rec->out.env.groups[rec->out.env.nr_groups++];
		g->name = strdup("{anon_group}");
		if (!g->name)
			return -ENOMEM;
		g->leader_idx = (uint32_t)ember_evsel__idx(pos);
		g->nr_members = (uint32_t)ember_evsel__nr_members(pos);
	}
	ember_env__set_feat(&rec->out.env, EMBER_FEAT_GROUP_DESC, true);
	return 0;
}

static int setup_env(struct record *rec)
{
	int err = ember_env__gather(&rec->out.env);

	if (err)
		return err;
	rec->out.env_ready = true;
	err = ember_env__set_cmdline(&rec->out.env, rec->out.orig_argc, rec->out.orig_argv);
	if (err)
		return err;
	/* -k: the clock's resolution, and a wall-clock reference for it (perf's record__init_clock) */
	if (rec->opts.sample.use_clockid) {
		struct timespec res, ref;
		struct timeval tod;

		if (!clock_getres(rec->opts.sample.clockid, &res) && !res.tv_sec)
			rec->out.env.clockid_res_ns = (uint64_t)res.tv_nsec;
		ember_env__set_feat(&rec->out.env, EMBER_FEAT_CLOCKID, true);
		if (!gettimeofday(&tod, NULL) && !clock_gettime(rec->opts.sample.clockid, &ref)) {
			rec->out.env.clockid = (uint32_t)rec->opts.sample.clockid;
			rec->out.env.clock_tod_ns = (uint64_t)tod.tv_sec * 1000000000ULL +
						(uint64_t)tod.tv_usec * 1000ULL;
			rec->out.env.clock_clockid_ns = (uint64_t)ref.tv_sec * 1000000000ULL +
						    (uint64_t)ref.tv_nsec;
			ember_env__set_feat(&rec->out.env, EMBER_FEAT_CLOCK_DATA, true);
		}
	}
	/* Filled at close; in pipe mode perf sends the section with zero times too. */
	ember_env__set_feat(&rec->out.env, EMBER_FEAT_SAMPLE_TIME, true);
	err = add_groups(rec);
	if (err)
		return err;
	err = add_tracing_data(rec);
	if (err) {
		/* The samples stay usable by id; perf script just cannot print the fields. */
		if (!rec->opts.quiet)
			fprintf(stderr, "Warning:\nember record: cannot read the tracepoint "
				"formats for the TRACING_DATA section (%s); perf script will "
				"not print tracepoint fields\n", strerror(-err));
		err = 0;
	}
	return err;
}

/* Declare each open evsel with the ids of its fds (skipped threads have none). */
static int add_attrs(struct record *rec)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(rec->evlist, pos) {
		int nr_cpus = ember_evsel__nr_cpus(pos), nr_threads = ember_evsel__nr_threads(pos);
		int n = nr_cpus * nr_threads, nr_ids = 0, err;
		uint64_t *ids;

		if (!n)
			continue;
		ids = calloc((size_t)n, sizeof(*ids));
		if (!ids)
			return -ENOMEM;
		for (int c = 0; c < nr_cpus; c++)
			for (int t = 0; t < nr_threads; t++)
				if (ember_evsel__fd(pos, c, t) >= 0)
					ids[nr_ids++] = ember_evsel__id(pos, c, t);
		err = ember_data_writer__add_attr(rec->out.writer, ember_evsel__attr(pos), ids,
						  (uint32_t)nr_ids, ember_evsel__name(pos));
		free(ids);
		if (err < 0)
			return err;
	}
	return 0;
}

/* Create the file (or take the pipe), declare the events and write the header. 0 or 1. */
static int open_file(struct record *rec)
{
	struct ember_data_writer_opts wo = {
		.sz = sizeof(wo),
		.pipe = rec->out.pipe,
		.fd = rec->out.out_fd,
		.compress_level = rec->opts.output.comp_level,
		/*
		 * Room for a whole read pass, so the write() happens after it
		 * (record_output__flush), when every ring buffer was just emptied,
		 * never in the middle of one while the kernel may be filling it.
		 */
		.buffer_size = RECORD_WRITE_BUFFER,
	};
	int err;

	/* As perf: no build-ids in pipe mode, with -B, or when the maps carry them. */
	if (!rec->out.pipe && !rec->opts.output.no_buildid && !rec->opts.sample.buildid_mmap) {
		rec->out.buildids = ember_synth_buildids__new(rec->opts.output.buildid_all);
		rec->out.ip_offset = record_loop__ip_offset(rec);
		if (!rec->out.buildids) {
			record_err("out of memory");
			return 1;
		}
	}
	rec->out.writer = ember_data_writer__open(rec->out.pipe ? NULL : rec->out.path, &wo);
	if (!rec->out.writer) {
		record_err("cannot create %s: %s",
			   rec->out.pipe ? "the pipe output" : rec->out.path, strerror(errno));
		return 1;
	}
	err = add_attrs(rec);
	if (!err)
		err = ember_data_writer__start(rec->out.writer, &rec->out.env);
	if (err) {
		rec->out.write_err = err;
		return 1;
	}
	return 0;
}

int record_output__open(struct record *rec)
{
	int err;

	err = setup_env(rec);
	if (err) {
		record_err("cannot describe this machine for the header: %s", strerror(-err));
		return 1;
	}
	if (!rec->out.pipe) {
		err = backup(rec->out.path);
		if (err) {
			record_err("cannot rename %s to %s.old: %s", rec->out.path, rec->out.path,
				   strerror(-err));
			return 1;
		}
	}
	return open_file(rec);
}

static int write_record(struct record_output *out, const void *data, size_t size, bool ring)
{
	const struct perf_event_header *h = data;	/* every caller writes one record */
	int err;

	if (out->write_err)
		return out->write_err;
	if (out->buildids) {
		if (h->type == PERF_RECORD_SAMPLE)
			err = ember_synth_buildids__sample(out->buildids, h, out->ip_offset);
		else if (h->type == PERF_RECORD_MMAP || h->type == PERF_RECORD_MMAP2)
			err = ember_synth_buildids__note(out->buildids, h);
		else
			err = 0;
		if (err)
			return out->write_err = err;
	}
	/* -z compresses what the ring buffers give, as perf: its own records stay plain */
	err = ring ? ember_data_writer__write(out->writer, data, size)
		   : ember_data_writer__write_plain(out->writer, data, size);
	if (err) {
		out->write_err = err;
		return err;
	}
	out->stats.bytes += size;
	out->stats.records++;
	if (h->type == PERF_RECORD_LOST)
		out->stats.lost_records++;
	return 0;
}

int record_output__write(struct record_output *out, const void *data, size_t size)
{
	return write_record(out, data, size, false);
}

int record_output__write_ring(struct record_output *out, const void *data, size_t size)
{
	return write_record(out, data, size, true);
}

void record_output__flush(struct record_output *out)
{
	uint64_t size;

	if (out->write_err || !out->writer)
		return;
	size = ember_data_writer__data_size(out->writer);
	/*
	 * The ring buffers' space went back to the kernel when their records
	 * were copied here, so writing less often delays no buffer; it only
	 * saves a write() and a header update per pass (a pass of -m 1 buffers
	 * holds a few KB).
	 */
	if (size - out->flushed_size < RECORD_FLUSH_BYTES)
		return;
	record_output__sync(out);
	out->flushed_size = ember_data_writer__data_size(out->writer);
}

int record_output__sync(struct record_output *out)
{
	int err;

	if (out->write_err || !out->writer)
		return out->write_err;
	err = ember_data_writer__sync(out->writer);
	if (err)
		out->write_err = err;
	return err;
}

void record_output__report_error(struct record_output *out)
{
	int err = -out->write_err;

	if (err == EPIPE) {
		record_err("the reader of the pipe went away; recording stopped");
		return;
	}
	if (out->pipe) {
		record_err("cannot write to the pipe: %s", strerror(err));
		return;
	}
	record_err("cannot write %s: %s%s; recording stopped, what was written before is "
		   "kept and readable", out->path, strerror(err),
		   err == ENOSPC || err == EDQUOT ? " (the disk is full)" : "");
}

/*
 * Finish the file: the build-ids of what was mapped, SAMPLE_TIME and the
 * other features, the final header. Returns 0, or 1 after a write error
 * (kept in rec->out.write_err; the last sync's header stays, salvaged).
 */
static int finish_file(struct record *rec)
{
	int err;

	rec->out.env.first_sample_time = rec->out.stats.first_time;
	rec->out.env.last_sample_time = rec->out.stats.last_time;
	/* Flush first so the data size is final; on error the last sync's header stays. */
	err = record_output__sync(&rec->out);
	rec->out.file_bytes = ember_data_writer__data_size(rec->out.writer);
	ember_data_writer__compressed(rec->out.writer, &rec->out.zin, &rec->out.zout);
	if (err) {
		ember_data_writer__delete(rec->out.writer);
		rec->out.writer = NULL;
		if (!rec->out.pipe)
			ember_data_writer__salvage(rec->out.path);
		return 1;
	}
	if (rec->out.buildids) {
		err = ember_synth_buildids__read(rec->out.buildids, &rec->out.env);
		ember_synth_buildids__delete(rec->out.buildids);
		rec->out.buildids = NULL;
		if (err) {
			rec->out.write_err = err;
			ember_data_writer__delete(rec->out.writer);
			rec->out.writer = NULL;
			return 1;
		}
	}
	err = ember_data_writer__close(rec->out.writer, &rec->out.env);
	rec->out.writer = NULL;
	/* The next file (--switch-output) lists its own. */
	for (uint32_t i = 0; i < rec->out.env.nr_build_ids; i++)
		free(rec->out.env.build_ids[i].filename);
	rec->out.env.nr_build_ids = 0;
	ember_env__set_feat(&rec->out.env, EMBER_FEAT_BUILD_ID, false);
	if (err) {
		rec->out.write_err = err;
		return 1;
	}
	return 0;
}

/* perf's timestamp suffix: local time to the centisecond, "YYYYmmddHHMMSScc". */
static void timestamp(char *buf, size_t size)
{
	struct timeval tv;
	struct tm tm;
	char base[32];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(base, sizeof(base), "%Y%m%d%H%M%S", &tm);
	snprintf(buf, size, "%.16s%02u", base, (unsigned int)(tv.tv_usec / 10000) % 100);
}

/* Rename the finished file to PATH.TIMESTAMP, keep at most --switch-max-files of them. */
static int dump_file(struct record *rec)
{
	char ts[32], *name;

	timestamp(ts, sizeof(ts));
	if (asprintf(&name, "%s.%s", rec->out.path, ts) < 0) {
		record_err("out of memory");
		return 1;
	}
	if (rename(rec->out.path, name) < 0) {
		record_err("cannot rename %s to %s: %s", rec->out.path, name, strerror(errno));
		free(name);
		return 1;
	}
	if (!rec->opts.quiet)
		fprintf(stderr, "[ ember record: Dump %s ]\n", name);
	if (rec->opts.output.switch_max_files) {
		unsigned int max = rec->opts.output.switch_max_files;

		if (!rec->out.dumped) {
			rec->out.dumped = calloc(max, sizeof(*rec->out.dumped));
			if (!rec->out.dumped) {
				free(name);
				return 1;
			}
			rec->out.max_dumped = max;
		}
		/* a ring of the newest names: the one it replaces is removed */
		if (rec->out.dumped[rec->out.nr_dumped % max]) {
			unlink(rec->out.dumped[rec->out.nr_dumped % max]);
			free(rec->out.dumped[rec->out.nr_dumped % max]);
		}
		rec->out.dumped[rec->out.nr_dumped % max] = name;
	} else {
		free(name);
	}
	rec->out.nr_dumped++;
	return 0;
}

int record_output__switch(struct record *rec)
{
	if (!rec->opts.quiet)
		fprintf(stderr, "[ ember record: dump data: Woken up %llu times ]\n",
			(unsigned long long)rec->out.stats.waking);
	if (finish_file(rec) || dump_file(rec))
		return 1;
	memset(&rec->out.stats, 0, sizeof(rec->out.stats));
	rec->out.flushed_size = 0;
	return open_file(rec);
}

/*
 * What the kernel dropped, in the words perf 6.1 record uses. perf says it
 * from the pass over the file that collects build-ids, so not for a pipe,
 * with --no-buildid or with -z (whose COMPRESSED records it would count);
 * ember has the counts at hand and says it where perf does.
 */
static void print_lost(const struct record *rec)
{
	struct ember_session_stats st = {
		.nr_records = rec->out.stats.records,
		.nr_samples = rec->out.stats.samples,
		.nr_lost_records = rec->out.stats.lost_records,
		.nr_lost_samples = rec->out.stats.lost_samples,
	};

	if (rec->out.pipe || rec->opts.output.no_buildid || rec->opts.output.comp_level > 0)
		return;
	ember_session_stats__fprintf_lost(&st, stderr);
}

/* perf's closing line, with "ember" for "perf". */
static void print_summary(const struct record *rec, uint64_t size)
{
	const struct record_output *out = &rec->out;

	fprintf(stderr, "[ ember record: Captured and wrote %.3f MB %s%s", size / 1024.0 / 1024.0,
		out->path, rec->opts.output.timestamp_filename ? ".<timestamp>" : "");
	if (out->stats.samples)
		fprintf(stderr, " (%llu samples)", (unsigned long long)out->stats.samples);
	/* of the ring buffers' records, the ones compressed, as perf */
	if (rec->opts.output.comp_level > 0 && out->zin && out->zout)
		fprintf(stderr, ", compressed (original %.3f MB, ratio is %.3f)",
			out->zin / 1024.0 / 1024.0, (double)out->zin / out->zout);
	fprintf(stderr, " ]\n");
}

int record_output__close(struct record *rec, bool summary)
{
	uint64_t size;
	struct stat st;

	if (!rec->out.writer)
		return 0;
	if (finish_file(rec))
		return 1;
	size = rec->out.file_bytes;
	if (!rec->out.pipe && stat(rec->out.path, &st) == 0)
		size = (uint64_t)st.st_size;
	if (!rec->out.pipe && rec->opts.output.timestamp_filename && dump_file(rec))
		return 1;
	if (summary && !rec->opts.quiet) {
		print_lost(rec);
		print_summary(rec, size);
	}
	return 0;
}

void record_output__exit(struct record_output *out)
{
	if (out->writer)
		ember_data_writer__delete(out->writer);
	out->writer = NULL;
	ember_synth_buildids__delete(out->buildids);
	out->buildids = NULL;
	if (out->out_fd >= 0)
		close(out->out_fd);
	out->out_fd = -1;
	if (out->env_ready)
		ember_env__exit(&out->env);
	out->env_ready = false;
	for (unsigned int i = 0; out->dumped && i < out->max_dumped; i++)
		free(out->dumped[i]);
	free(out->dumped);
	out->dumped = NULL;
}
