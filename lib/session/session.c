// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Opening a perf.data file for reading as perf report and perf script do:
 * the ownership rule, the idle thread, the build-ids of the header, the
 * tracepoint formats, and perf's closing warnings.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ember/trace.h>
#include "data/reader.h"
#include "machine/machine.h"
#include "session/session-priv.h"
#include "collapse/inline.h"
#include "unwind/unwind.h"

/* perf refuses files of other users: someone could feed it a crafted one. */
static int check_owner(int fd, bool force)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISREG(st.st_mode) && st.st_size == 0)
		return -ENODATA;
	if (!force && st.st_uid && st.st_uid != geteuid())
		return -EPERM;
	return 0;
}

static bool attrs_allow_ordering(struct ember_data_reader *r)
{
	uint32_t nr = ember_data_reader__nr_attrs(r);

	for (uint32_t i = 0; i < nr; i++) {
		const struct ember_data_attr *a = ember_data_reader__attr(r, i);

		if (!a->attr.sample_id_all)
			return false;
	}
	return true;
}

static void add_header_build_ids(struct ember_session *s)
{
	const struct ember_env *env = ember_data_reader__env(s->reader);

	for (uint32_t i = 0; i < env->nr_build_ids; i++) {
		const struct ember_env_build_id *b = &env->build_ids[i];
		uint16_t mode = b->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		bool kernel = mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;

		if (b->filename && b->size)
			ember_machine__set_build_id(s->machine, kernel, b->filename, b->build_id,
						    b->size);
	}
}

/* perf's machine__idle_thread: pid 0 is "swapper" before any record says so. */
static int register_idle_thread(struct ember_machine *m)
{
	struct ember_thread *idle = machine__findnew_thread(m, 0, 0);

	if (!idle)
		return -ENOMEM;
	return machine__set_comm(m, idle, "swapper", false);
}

/* As perf: with no -i, a pipe on standard input is read rather than perf.data. */
static bool stdin_is_fifo(void)
{
	struct stat st;

	return !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode);
}

struct ember_session *ember_session__open(const char *path, const struct ember_session_opts *opts)
{
	struct ember_session_opts o = { .sz = sizeof(o) };
	/* a damaged file is read as far as it can be: its usable part counts */
	struct ember_data_reader_opts ropts = { .sz = sizeof(ropts), .lenient = true };
	struct ember_session *s;
	int fd = -1, err;

	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	if (o.error)
		*o.error = (struct ember_open_error){ 0 };
	ropts.error = o.error;
	if (!path || !*path)
		path = stdin_is_fifo() ? "-" : "perf.data";

	s = calloc(1, sizeof(*s));
	if (!s) {
		err = -ENOMEM;
		goto fail_early;
	}
	s->fd = -1;
	s->opts = o;
	s->opts.error = NULL;	/* the caller's, for this call only */
	ordered_queue__init(&s->queue);
	s->path = strdup(path);
	if (!s->path)
		goto fail_errno;

	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			goto fail_errno;
		err = check_owner(fd, o.force);
		if (err)
			goto fail;
		s->reader = ember_data_reader__open_fd(fd, &ropts);
	} else {
		s->reader = ember_data_reader__open_fd(STDIN_FILENO, &ropts);
	}
	if (!s->reader)
		goto fail_errno;
	/* The reader keeps reading through the fd; it is closed with the session. */
	s->stats.nr_events = ember_data_reader__nr_attrs(s->reader);
	s->events = calloc(s->stats.nr_events + 1, sizeof(*s->events));
	s->machine = ember_machine__new(o.symbol.sz ? &o.symbol : NULL);
	if (!s->events || !s->machine)
		goto fail_errno;
	s->stats.events = s->events;
	err = register_idle_thread(s->machine);
	if (err)
		goto fail;
	add_header_build_ids(s);
	s->ordered = !o.no_ordering && attrs_allow_ordering(s->reader);
	/* the mapped file outlives the queue: its records are queued in place */
	if (s->reader->mem_mapped)
		ordered_queue__stable(&s->queue, s->reader->mem, s->reader->mem_len);
	s->fd = fd;
	return s;

fail_errno:
	err = -errno;
fail:
	if (fd >= 0)
		close(fd);
	s->fd = -1;
	ember_session__delete(s);
fail_early:
	errno = err < 0 ? -err : ENOMEM;
	/* the reader may have said what was wrong with the file: its detail stays */
	if (o.error)
		o.error->err = errno;
	return NULL;
}

void ember_session__delete(struct ember_session *s)
{
	if (!s)
		return;
	ember_trace__delete(s->trace);
	ember_machine__delete(s->machine);
	ember_data_reader__delete(s->reader);
	if (s->fd >= 0)
		close(s->fd);
	ordered_queue__exit(&s->queue);
	free(s->chain);
	free(s->words);
	unwinder__delete(s->unwinder);
	inline_cache__exit(&s->inlines);
	free(s->events);
	free(s->path);
	free(s);
}

const char *ember_session__path(const struct ember_session *s)
{
	return s->path;
}

struct ember_data_reader *ember_session__reader(struct ember_session *s)
{
	return s->reader;
}

struct ember_machine *ember_session__machine(struct ember_session *s)
{
	return s->machine;
}

int ember_session__defer_kernel_symbols(struct ember_session *s)
{
	return machine__defer_kernel_symbols(s->machine);
}

void ember_session__resolve_late(struct ember_session *s, struct ember_addr_location *al)
{
	machine__resolve_late(s->machine, al);
}

const struct ember_session_stats *ember_session__stats(const struct ember_session *s)
{
	return &s->stats;
}

/* libtraceevent's %ps/%pS: the kernel symbol holding the address. */
static char *resolve_kernel_function(void *priv, unsigned long long *addrp, char **modp)
{
	struct ember_session *s = priv;
	struct ember_addr_location al;

	*modp = NULL;
	if (ember_machine__resolve(s->machine, -1, 0, PERF_RECORD_MISC_KERNEL, *addrp, &al) ||
	    !al.sym)
		return NULL;
	*addrp -= al.sym_off;
	return (char *)al.sym_name;
}

struct ember_trace *ember_session__trace(struct ember_session *s)
{
	const struct ember_env *env = ember_data_reader__env(s->reader);

	if (s->trace)
		return s->trace;
	if (!env->tracing_data.data || !env->tracing_data.size) {
		errno = ENOENT;
		return NULL;
	}
	if (s->trace_err) {
		errno = s->trace_err;
		return NULL;
	}
	s->trace = ember_trace__parse(env->tracing_data.data, env->tracing_data.size);
	if (!s->trace) {
		s->trace_err = errno ? errno : EINVAL;
		errno = s->trace_err;
		return NULL;
	}
	ember_trace__set_function_resolver(s->trace, resolve_kernel_function, s);
	return s->trace;
}

int ember_session__process(struct ember_session *s, const struct ember_session_ops *ops,
			   void *ctx)
{
	static const struct ember_session_ops none;
	int ret;

	s->ops = ops ? ops : &none;
	s->ctx = ctx;
	ret = session__process(s);
	s->ops = NULL;
	s->ctx = NULL;
	return ret;
}

static void warn(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(FILE *fp, const char *fmt, ...)
{
	va_list ap;

	fputs("Warning:\n", fp);
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
}

/* perf and ember write the feature sections last: none means unfinished. */
/*
 * --call-graph dwarf files carry copies of the user stack instead of a
 * user callchain; unwinding them (perf's libdw unwinder) is not built yet,
 * and a report with the user ip alone (user-ip.c) must not look like a
 * complete one.
 */
static bool has_user_stack_copies(const struct ember_session *s)
{
	uint32_t nr = ember_data_reader__nr_attrs(s->reader);

	for (uint32_t i = 0; i < nr; i++) {
		const struct ember_data_attr *a = ember_data_reader__attr(s->reader, i);

		if (a->attr.sample_type & PERF_SAMPLE_STACK_USER)
			return true;
	}
	return false;
}

static bool no_features(const struct ember_session *s)
{
	const struct ember_env *env = ember_data_reader__env(s->reader);

	for (size_t i = 0; i < sizeof(env->feat) / sizeof(env->feat[0]); i++) {
		if (env->feat[i])
			return false;
	}
	return true;
}

void ember_session_stats__fprintf_lost(const struct ember_session_stats *st, FILE *fp)
{
	if (st->nr_lost_records)
		warn(fp, "Processed %" PRIu64 " events and lost %" PRIu64 " chunks!\n\n"
			 "Check IO/CPU overload!\n\n", st->nr_records, st->nr_lost_records);
	if (st->nr_lost_samples) {
		/* perf 6.1 counts the lost ones among the processed */
		uint64_t total = st->nr_samples + st->nr_lost_samples;
		double rate = (double)st->nr_lost_samples / (double)total;

		if (rate > 0.05)
			warn(fp, "Processed %" PRIu64 " samples and lost %3.2f%%!\n\n", total,
			     rate * 100.0);
	}
}

void ember_session__fprintf_warnings(const struct ember_session *s, FILE *fp)
{
	const struct ember_session_stats *st = &s->stats;
	struct ember_session_stats lost;
	struct ember_data_reader_end end;

	if (ember_data_reader__data_size_was_zero(s->reader))
		warn(fp, "The %s file's data size field is 0 which is unexpected.\n"
			 "Was the 'perf record' command properly terminated?\n\n", s->path);
	else if (!st->truncated && !ember_data_reader__is_pipe(s->reader) && st->nr_records &&
		 no_features(s))
		warn(fp, "%s has no feature sections: the recorder did not finish "
			 "(killed?); it was read up to its last whole record.\n\n", s->path);
	if (st->truncated)
		warn(fp, "%s ends inside a record: it was read up to its last whole record.\n"
			 "Was the recorder killed?\n\n", s->path);
	ember_data_reader__end(s->reader, &end);
	if (end.stopped)
		warn(fp, "%s: the data stops at offset %#" PRIx64 ", at a record of size %u "
			 "(smaller than its 8-byte header):\nwhat follows cannot be read; "
			 "the %" PRIu64 " samples before it are shown.\n\n",
		     s->path, end.stop_offset, end.stop_size, st->nr_samples);
	if (end.nr_skipped)
		warn(fp, "%s: %" PRIu64 " %s could not be decoded and %s skipped "
			 "(the first, of type %u%s, at offset %#" PRIx64 ").\n\n",
		     s->path, end.nr_skipped, end.nr_skipped == 1 ? "record" : "records",
		     end.nr_skipped == 1 ? "was" : "were", end.skip_type,
		     end.skip_type == EMBER_RECORD_COMPRESSED ? " (COMPRESSED)" : "",
		     end.skip_offset);
	/* perf counts the COMPRESSED records themselves too, beside what they hold */
	lost = *st;
	lost.nr_records += ember_data_reader__nr_records(s->reader, EMBER_RECORD_COMPRESSED);
	ember_session_stats__fprintf_lost(&lost, fp);
	if (st->nr_unknown)
		warn(fp, "Found %" PRIu64 " unknown events!\n\n"
			 "Is this an older tool processing a perf.data file generated by a more recent tool?\n\n",
		     st->nr_unknown);
	if (st->nr_invalid_samples)
		warn(fp, "%" PRIu64 " samples could not be decoded (no event with their id, or too short)\n\n",
		     st->nr_invalid_samples);
	if (st->nr_unordered)
		warn(fp, "%" PRIu64 " out of order events recorded.\n", st->nr_unordered);
	if (st->nr_samples && has_user_stack_copies(s) &&
	    !session__unwinds_arch(ember_data_reader__env(s->reader)->arch))
		warn(fp, "%s was recorded with --call-graph dwarf on %s: ember unwinds user "
			 "stack copies of x86_64 only,\nso callchains show their kernel part and "
			 "the user ip only (perf report unwinds them).\n\n", s->path,
		     ember_data_reader__env(s->reader)->arch);
}

const char *ember_session__nothing_usable(const struct ember_session *s, char *buf, size_t len)
{
	const struct ember_session_stats *st = &s->stats;
	bool pipe = ember_data_reader__is_pipe(s->reader);
	struct ember_data_reader_end end;

	if (st->nr_samples)
		return NULL;
	ember_data_reader__end(s->reader, &end);
	if (!ember_data_reader__nr_attrs(s->reader))
		snprintf(buf, len, "it describes no event (no attribute section or ATTR record)");
	else if (end.stopped)
		snprintf(buf, len, "the data stops at offset %#" PRIx64 ", at a record of size %u "
				   "(smaller than its 8-byte header), before any sample",
			 end.stop_offset, end.stop_size);
	else if (st->truncated)
		snprintf(buf, len, "the file ends before its first sample (cut short: was the "
				   "recorder killed?)");
	else if (st->nr_invalid_samples)
		snprintf(buf, len, "none of its %" PRIu64 " samples can be decoded (too short for "
				   "their layout, or of no event)", st->nr_invalid_samples);
	else if (end.nr_skipped)
		snprintf(buf, len, "%" PRIu64 " %s could not be decoded (the first at offset "
				   "%#" PRIx64 "), and no sample is left", end.nr_skipped,
			 end.nr_skipped == 1 ? "record" : "records", end.skip_offset);
	else if (!pipe && ember_data_reader__data_size_was_zero(s->reader))
		snprintf(buf, len, "the recorder did not finish (the header's data size is 0) and "
				   "no sample was written");
	else if (!pipe && no_features(s))
		snprintf(buf, len, "the recorder did not finish (no feature sections) and no "
				   "sample was written");
	/*
	 * A recorder closes each batch it takes from the ring buffers with a
	 * FINISHED_ROUND, and its synthesized records with FINISHED_INIT: a
	 * stream that ends on anything else was cut. (One that ends on either
	 * can be a whole recording of a quiet workload, so it is not damaged.)
	 */
	else if (pipe && end.last_type != EMBER_RECORD_FINISHED_ROUND &&
		 end.last_type != EMBER_RECORD_FINISHED_INIT)
		snprintf(buf, len, "the stream ends before its first sample, on a record of type "
				   "%u, not on the recorder's FINISHED_ROUND or FINISHED_INIT (cut short?)",
			 end.last_type);
	else
		return NULL;
	return buf;
}
