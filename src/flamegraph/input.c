// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember flamegraph's input: a perf.data file (or pipe) read through a
 * session and folded sample by sample, or folded stacks as flamegraph.pl
 * reads them. Which one is decided by the first bytes, "PERFILE2" for
 * perf.data in both its file and pipe forms. On a terminal, a progress
 * line on stderr while a big input is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ember/perf-data.h>
#include <ember/session.h>

#include "core/clock.h"
#include "flamegraph/flamegraph.h"
#include "util/session-open.h"

#define PROGRESS_MIN_BYTES (16u << 20)	/* smaller inputs read too fast to need one */
#define PROGRESS_EVERY_NS 200000000ull

struct progress {
	bool on, shown;
	const char *name;
	uint64_t size;		/* 0: unknown (a pipe) */
	uint64_t count;
	uint64_t last_ns;
};

static void progress_init(struct progress *p, const struct fg_opts *opts, const char *name, int fd)
{
	struct stat st;

	memset(p, 0, sizeof(*p));
	p->name = name;
	if (opts->quiet || !isatty(STDERR_FILENO) || fstat(fd, &st))
		return;
	if (S_ISREG(st.st_mode)) {
		if ((uint64_t)st.st_size < PROGRESS_MIN_BYTES)
			return;
		p->size = st.st_size;
	}
	p->on = true;
	p->last_ns = clock_now_ns();
}

static void progress_show(struct progress *p, uint64_t pos, const char *unit)
{
	uint64_t t = clock_now_ns();

	/* The first at once (a big input is known to take a while), then a few a second. */
	if (p->shown && t - p->last_ns < PROGRESS_EVERY_NS)
		return;
	p->last_ns = t;
	p->shown = true;
	if (p->size)
		fprintf(stderr, "\rember flamegraph: reading %s: %3d%% (%" PRIu64 " %s)\033[K",
			p->name, (int)(pos * 100 / p->size), p->count, unit);
	else
		fprintf(stderr, "\rember flamegraph: reading %s: %" PRIu64 " %s\033[K", p->name,
			p->count, unit);
}

static void progress_done(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
}

/*
 * The first 8 bytes of fd without consuming them: pread for files, tee(2)
 * for pipes (the bytes stay in the pipe for whoever reads next). Returns
 * how many bytes were seen (fewer at the end of the input).
 */
static ssize_t peek_magic(int fd, char magic[8])
{
	struct stat st;
	ssize_t n = 0;

	if (fstat(fd, &st))
		return -1;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		off_t pos = lseek(fd, 0, SEEK_CUR);

		return pread(fd, magic, 8, pos < 0 ? 0 : pos);
	}
	if (S_ISFIFO(st.st_mode)) {
		int p[2];

		if (pipe(p))
			return -1;
		for (int tries = 0; tries < 100000; tries++) {
			ssize_t t = tee(fd, p[1], 8, 0);

			if (t <= 0) {
				/* 0: the writer is gone and the pipe is empty. */
				n = t < 0 ? -1 : 0;
				break;
			}
			/* tee copies what is there now: wait until 8 bytes are, or the end. */
			if (t >= 8 || tries == 99999) {
				n = read(p[0], magic, 8);
				break;
			}
			usleep(1000);
		}
		close(p[0]);
		close(p[1]);
		return n;
	}
	/* A terminal or a socket: not perf.data anyone would type; read it as text. */
	return 0;
}

struct perf_read {
	struct ember_flame_fold *fold;
	const struct fg_opts *opts;
	struct fg_input_stats *st;
	enum ember_flame_side side;
	struct progress progress;
	struct time_range *pct;		/* --time in percents, for this file */
	size_t nr_pct;
	bool select;			/* some selection option given: ask each sample */
};

static int on_sample(struct ember_session *s, const struct ember_session_sample *ss, void *arg)
{
	struct perf_read *r = arg;
	int ret;

	if (r->progress.on && !(++r->progress.count & 4095))
		progress_show(&r->progress, ss->file_offset, "samples");
	if (r->select && (!fg_select__match(&r->opts->select, ss) ||
			  perf_time__skip(r->pct, r->nr_pct, ss->sample->time))) {
		r->st->skipped++;
		return 0;
	}
	ret = ember_flame_fold__sample(r->fold, s, ss, r->side);
	if (ret < 0)
		return ret;
	r->st->samples += ret;
	r->st->left_out += !ret;
	return 0;
}

/* Whether fg_select__match() may refuse a sample (else every sample is asked for nothing). */
static bool sel_any(const struct fg_select *sel)
{
	return sel->nr_pids || sel->nr_tids || sel->nr_comms || sel->cpus || sel->nr_ranges;
}

static bool any_callchain(struct ember_session *s)
{
	struct ember_data_reader *reader = ember_session__reader(s);
	uint32_t nr = ember_data_reader__nr_attrs(reader);

	for (uint32_t i = 0; i < nr; i++)
		if (ember_data_reader__attr(reader, i)->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return !nr;
}

static int read_perf_data(struct ember_flame *fl, const char *path, enum ember_flame_side side,
			  const struct fg_opts *opts, struct fg_input_stats *st, int fd)
{
	struct ember_session_opts sopts = {
		.sz = sizeof(sopts),
		.force = opts->force,
		.symbol = {
			.sz = sizeof(struct ember_symbol_opts),
			.symfs = opts->symfs,
			.kallsyms = opts->kallsyms,
		},
		/* The folding resolves a sample's ip only when it needs it. */
		.lazy_sample_ip = true,
		/* as perf script's unwinder, --max-stack frames */
		.max_stack = opts->max_stack,
	};
	struct ember_flame_fold_opts copts = {
		.sz = sizeof(copts),
		.include_pid = opts->show_pid,
		.include_tid = opts->show_tid,
		.include_addrs = opts->addrs,
		.count_samples = opts->count_samples,
		.max_stack = opts->max_stack,
		.event = opts->event,
		.inline_frames = opts->inline_frames,
		.frames = opts->kernel_only ? EMBER_FLAME_FRAMES_KERNEL
			  : opts->user_only ? EMBER_FLAME_FRAMES_USER
					    : EMBER_FLAME_FRAMES_ALL,
	};
	struct ember_session_ops ops = { .sample = on_sample };
	struct perf_read r = { .opts = opts, .st = st, .side = side };
	const char *name = strcmp(path, "-") ? path : "standard input";
	struct ember_session *s;
	int err;

	if (opts->annotate) {
		copts.annotate_kernel = strstr(opts->annotate, "kernel") || !strcmp(opts->annotate, "all");
		copts.annotate_jit = strstr(opts->annotate, "jit") || !strcmp(opts->annotate, "all");
	}
	st->perf_data = true;
	s = session_open("flamegraph", path, &sopts);
	if (!s)
		return -1;
	if (opts->select.time_percent) {
		const struct ember_env *env = ember_data_reader__env(ember_session__reader(s));

		if (!env || !env->first_sample_time || env->last_sample_time <= env->first_sample_time ||
		    perf_time__parse_ranges(opts->select.time_percent, env->first_sample_time,
					    env->last_sample_time, false, &r.pct, &r.nr_pct)) {
			fprintf(stderr, "ember flamegraph: --time %s: %s has no first and last "
					"sample times to take percents of (perf.data's sample_time "
					"header; a pipe has none)\n",
				opts->select.time_percent, name);
			free(r.pct);
			ember_session__delete(s);
			return -1;
		}
	}
	r.fold = ember_flame_fold__new(fl, &copts);
	if (!r.fold) {
		fprintf(stderr, "ember flamegraph: out of memory\n");
		free(r.pct);
		ember_session__delete(s);
		return -1;
	}
	r.select = sel_any(&opts->select) || r.nr_pct;
	st->no_callchain = !any_callchain(s);
	progress_init(&r.progress, opts, name, fd);
	err = ember_session__process(s, &ops, &r);
	progress_done(&r.progress);
	if (ember_flame_fold__event(r.fold)) {
		st->event_buf = strdup(ember_flame_fold__event(r.fold));
		st->event = st->event_buf;
	}
	st->other_event = ember_flame_fold__nr_other_event(r.fold);
	st->no_debuginfo = ember_flame_fold__nr_no_debuginfo(r.fold);
	if (!opts->quiet)
		ember_session__fprintf_warnings(s, stderr);
	ember_flame_fold__delete(r.fold);
	free(r.pct);
	ember_session__delete(s);
	if (err == -ERANGE) {
		fprintf(stderr, "ember flamegraph: %s: the counts add up past 2^53, more than a "
				"flame graph can hold exactly\n",
			name);
		return -1;
	}
	if (err < 0) {
		fprintf(stderr, "ember flamegraph: cannot read %s: %s\n", name, strerror(-err));
		return -1;
	}
	return 0;
}

static int folded_progress(uint64_t bytes, void *ctx)
{
	struct progress *p = ctx;

	if (p->on) {
		p->count = bytes >> 20;
		progress_show(p, bytes, "MiB");
	}
	return 0;
}

/* The first option given that only means something for perf.data, or NULL. */
static const char *perf_only_option(const struct fg_opts *o)
{
	const struct fg_select *sel = &o->select;

	if (sel->nr_pids)
		return "--pid";
	if (sel->nr_tids)
		return "--tid";
	if (sel->nr_comms)
		return "--comm";
	if (sel->cpus)
		return "--cpu";
	if (sel->nr_ranges || sel->time_percent)
		return "--time";
	if (o->event)
		return "--event";
	if (o->kernel_only || o->user_only)
		return o->kernel_only ? "--kernel-only" : "--user-only";
	if (o->inline_frames)
		return "--inline";
	if (o->show_pid || o->show_tid)
		return o->show_pid ? "--show-pid" : "--show-tid";
	if (o->annotate || o->addrs || o->count_samples)
		return o->annotate ? "--annotate" : o->addrs ? "--addrs" : "--count-samples";
	return NULL;
}

static int read_folded(struct ember_flame *fl, const char *path, enum ember_flame_side side,
		       const struct fg_opts *opts, struct fg_input_stats *st, FILE *fp)
{
	struct progress progress;
	struct ember_flame_folded_opts fopts = {
		.sz = sizeof(fopts),
		.side = side,
		.progress = folded_progress,
		.ctx = &progress,
		.chain = opts->colors && !strcmp(opts->colors, "chain"),
	};
	struct ember_flame_folded_stats fst;
	const char *name = strcmp(path, "-") ? path : "standard input";
	int err;

	if (!opts->quiet && perf_only_option(opts))
		fprintf(stderr, "ember flamegraph: %s holds folded stacks, not perf.data: %s "
				"(and the other sample options) do not apply to it\n",
			name, perf_only_option(opts));
	progress_init(&progress, opts, name, fileno(fp));
	err = ember_flame__read_folded(fl, fp, &fopts, &fst);
	progress_done(&progress);
	st->samples = fst.stacks;
	st->ignored = fst.ignored;
	st->first_ignored = fst.first_ignored;
	st->binary = fst.binary;
	if (err == -ERANGE) {
		fprintf(stderr, "ember flamegraph: %s:%" PRIu64 ": count too large (the counts of "
				"a flame graph must add up to at most 2^53)\n",
			name, fst.error_line);
		return -1;
	}
	if (err) {
		fprintf(stderr, "ember flamegraph: cannot read %s: %s\n", name, strerror(-err));
		return -1;
	}
	return 0;
}

int fg_read_input(struct ember_flame *fl, const char *path, enum ember_flame_side side,
		  const struct fg_opts *opts, struct fg_input_stats *st)
{
	bool is_stdin = !strcmp(path, "-");
	char magic[8];
	ssize_t n;
	FILE *fp;
	int ret;

	memset(st, 0, sizeof(*st));
	fp = is_stdin ? stdin : fopen(path, "rb");
	if (!fp) {
		fprintf(stderr, "ember flamegraph: cannot open %s: %s%s\n", path, strerror(errno),
			errno == ENOENT && !strcmp(path, "perf.data")
				? " (record one with 'ember record -g', or give folded stacks)"
				: "");
		return -1;
	}
	n = peek_magic(fileno(fp), magic);
	if (n < 0) {
		fprintf(stderr, "ember flamegraph: cannot read %s: %s\n",
			is_stdin ? "standard input" : path, strerror(errno));
		if (!is_stdin)
			fclose(fp);
		return -1;
	}
	if (n == 8 && !memcmp(magic, "PERFILE2", 8)) {
		/* The session opens the file itself; stdin stays as it is for it. */
		ret = read_perf_data(fl, path, side, opts, st, fileno(fp));
		if (!is_stdin)
			fclose(fp);
		return ret;
	}
	ret = read_folded(fl, path, side, opts, st, fp);
	if (!is_stdin)
		fclose(fp);
	return ret;
}
