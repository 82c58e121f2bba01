// SPDX-License-Identifier: GPL-2.0-only
/* ember trace's options (perf trace's names) and -e's syscall list. */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/syscall.h>
#include "trace/perf-events.h"
#include "record/options.h"
#include "trace/options.h"
#include "util/parse-options.h"

static const char *const trace_usage[] = {
	"ember trace [<options>] [<command>]",
	"ember trace [<options>] -- <command> [<options>]",
	"ember trace record [<options>] [<command>]",
	"ember trace record [<options>] -- <command> [<options>]",
	NULL,
};

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "ember trace: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return -1;
}

static int add_nr(struct trace_opts *o, int nr)
{
	int *v;

	for (int i = 0; i < o->nr_syscalls; i++)
		if (o->syscall_nrs[i] == nr)
			return 0;
	v = realloc(o->syscall_nrs, (o->nr_syscalls + 1) * sizeof(*v));
	if (!v)
		return usage_error("%s", "out of memory");
	o->syscall_nrs = v;
	o->syscall_nrs[o->nr_syscalls++] = nr;
	return 0;
}

/* sys:name, kept as given (tracefs checks it later). */
static int add_tracepoint(struct trace_opts *o, const char *item)
{
	const char **v = realloc(o->tp_specs, (o->nr_tp_specs + 1) * sizeof(*v));

	if (!v)
		return usage_error("%s", "out of memory");
	o->tp_specs = v;
	v[o->nr_tp_specs] = strdup(item);
	if (!v[o->nr_tp_specs])
		return usage_error("%s", "out of memory");
	o->nr_tp_specs++;
	return 0;
}

/* One -e item: a syscall name or a glob of them; anything else is refused with a reason. */
static int add_syscalls(struct trace_opts *o, const char *item)
{
	char hint[128];
	int nr = ember_syscall__next_match(item, 0);

	if (strchr(item, ':'))
		return add_tracepoint(o, item);
	if (nr < 0) {
		if (ember_syscall__suggest(item, hint, sizeof(hint)) > 0) {
			fprintf(stderr, "ember trace: unknown syscall '%s'; did you mean %s?\n",
				item, hint);
			return -1;
		}
		return usage_error("unknown syscall '%s' (see /sys/kernel/tracing/events/syscalls)",
				   item);
	}
	for (; nr >= 0; nr = ember_syscall__next_match(item, nr + 1))
		if (add_nr(o, nr))
			return -1;
	return 0;
}

/* -e/--expr: "open*,close", "!read,write" (perf's: a leading ! negates the list). */
static int opt_event(const struct option *opt, const char *arg, bool unset)
{
	struct trace_opts *o = opt->value;
	char *list, *save = NULL, *item;
	int err = 0;

	if (*arg == '!') {
		o->negate = true;
		arg++;
	}
	list = strdup(arg);
	if (!list)
		return usage_error("%s", "out of memory");
	for (item = strtok_r(list, ",", &save); item && !err; item = strtok_r(NULL, ",", &save)) {
		err = add_syscalls(o, item);
		o->have_qualifier |= !strchr(item, ':');
	}
	free(list);
	return err;
}

static int opt_duration(const struct option *opt, const char *arg, bool unset)
{
	struct trace_opts *o = opt->value;
	char *end;

	errno = 0;
	o->duration = strtod(arg, &end);
	if (errno || end == arg || *end || o->duration < 0)
		return usage_error("--duration takes milliseconds, like 0.5, not '%s'", arg);
	return 0;
}

static int opt_user(const struct option *opt, const char *arg, bool unset)
{
	struct trace_opts *o = opt->value;
	struct passwd *pw = getpwnam(arg);
	char *end;
	unsigned long uid;

	o->user = arg;
	o->filter_uid = true;
	if (pw) {
		o->uid = pw->pw_uid;
		return 0;
	}
	errno = 0;
	uid = strtoul(arg, &end, 10);
	if (errno || end == arg || *end)
		return usage_error("-u: no such user '%s'", arg);
	o->uid = (uid_t)uid;
	return 0;
}

/* -m PAGES (or SIZE with a B/K/M/G suffix, as perf): the ring buffer, a power of 2 of pages. */
static int opt_mmap_pages(const struct option *opt, const char *arg, bool unset)
{
	struct trace_opts *o = opt->value;
	unsigned long long v, bytes, pg = 4096;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || !v)
		return usage_error("-m takes a number of pages (or a size: 64K, 16M), not '%s'", arg);
	switch (*end) {
	case '\0': bytes = v * pg; break;
	case 'B': case 'b': bytes = v; break;
	case 'K': case 'k': bytes = v << 10; break;
	case 'M': case 'm': bytes = v << 20; break;
	case 'G': case 'g': bytes = v << 30; break;
	default:
		return usage_error("-m takes a number of pages (or a size: 64K, 16M), not '%s'", arg);
	}
	if (bytes < pg || bytes > (1ULL << 31))
		return usage_error("-m %s: the buffer takes from one page to 2 GB", arg);
	/* the BPF ring buffer is a power of 2 of pages: round up, as perf does */
	o->buffer_size = pg;
	while (o->buffer_size < bytes)
		o->buffer_size <<= 1;
	return 0;
}

/*
 * --call-graph: frame pointers, what the kernel walks for BPF, or dwarf[,SIZE]:
 * the registers and SIZE bytes of stack copied at each exit, unwound here.
 * perf's parser (record's), so perf's messages for a bad SIZE or mode.
 */
static int opt_call_graph(const struct option *opt, const char *arg, bool unset)
{
	struct trace_opts *o = opt->value;
	enum record_callchain mode = RECORD_CALLCHAIN_NONE;
	unsigned int size = 0, depth = 0;
	char why[256];

	if (record_callchain__parse(arg, &mode, &size, &depth, why, sizeof(why)))
		return usage_error("%s", why);
	if (mode == RECORD_CALLCHAIN_DWARF) {
		o->call_graph = false;
		o->dwarf_stack = size;
		return 0;
	}
	if (mode != RECORD_CALLCHAIN_FP || strcmp(arg, "fp"))
		return usage_error("--call-graph %s: ember trace walks frame pointers "
				   "(--call-graph fp) or DWARF (--call-graph dwarf[,SIZE])", arg);
	o->call_graph = true;
	o->dwarf_stack = 0;
	return 0;
}

/* -F/--pf all|maj|min: the page faults to show. */
static int opt_pf(const struct option *opt, const char *arg, bool unset)
{
	struct trace_opts *o = opt->value;

	if (trace_faults__parse(arg, &o->pf_kinds))
		return usage_error("--pf takes all, maj or min, not '%s'", arg);
	return 0;
}

/* --syscalls, --no-syscalls: remembered as given, for -F's default (no syscalls). */
static int opt_syscalls(const struct option *opt, const char *arg, bool unset)
{
	struct trace_opts *o = opt->value;

	o->syscalls = !unset;
	o->syscalls_given = true;
	return 0;
}

int trace_opts__parse(struct trace_opts *o, int argc, const char **argv)
{
	const struct option options[] = {
		OPT_BOOLEAN('a', "all-cpus", &o->all_cpus, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &o->cpu_list, "cpu", "list of cpus to monitor"),
		OPT_CALLBACK('e', "event", o, "event", "event/syscall selector", opt_event),
		OPT_CALLBACK('F', "pf", o, "all|maj|min", "Trace pagefaults", opt_pf),
		OPT_STRING('i', "input", &o->input, "file", "Analyze events in file"),
		OPT_CALLBACK('m', "mmap-pages", o, "pages", "number of mmap data pages",
			     opt_mmap_pages),
		OPT_STRING('o', "output", &o->output, "file", "output file name"),
		OPT_STRING('p', "pid", &o->pids, "pid", "trace events on existing process id"),
		OPT_BOOLEAN('s', "summary", &o->summary_only,
			    "Show only syscall summary with statistics"),
		OPT_BOOLEAN('S', "with-summary", &o->with_summary,
			    "Show all syscalls and summary with statistics"),
		OPT_STRING('t', "tid", &o->tids, "tid", "trace events on existing thread id"),
		OPT_BOOLEAN('T', "time", &o->full_time,
			    "Show full timestamp, not time relative to first start"),
		OPT_CALLBACK('u', "uid", o, "user", "user to profile", opt_user),
		OPT_INCR('v', "verbose", &o->verbose, "be more verbose"),
		OPT_CALLBACK(0, "call-graph", o, "record_mode",
			     "setup and enables call-graph (stack chain/backtrace): fp dwarf",
			     opt_call_graph),
		OPT_BOOLEAN(0, "comm", &o->comm, "show the thread COMM next to its id"),
		OPT_CALLBACK(0, "duration", o, "float",
			     "show only events with duration > N.M ms", opt_duration),
		OPT_BOOLEAN(0, "errno-summary", &o->errno_summary,
			    "Show errno stats per syscall, use with -s or -S"),
		OPT_CALLBACK(0, "expr", o, "expr", "list of syscalls/events to trace", opt_event),
		OPT_BOOLEAN(0, "failure", &o->failure, "Show only syscalls that failed"),
		OPT_U64(0, "max-events", &o->max_events,
			"n", "Set the maximum number of events to print, exit after that is reached."),
		OPT_BOOLEAN(0, "no-inherit", &o->no_inherit, "child tasks do not inherit counters"),
		OPT_CALLBACK_NOARG(0, "syscalls", o, "Trace syscalls", opt_syscalls),
		OPT_END()
	};
	int targets;

	memset(o, 0, sizeof(*o));
	o->comm = true;
	o->syscalls = true;
	argc = parse_options(argc, argv, options, trace_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc == PARSE_OPT_HELP)
		return 0;
	if (argc < 0)
		return 2;
	o->argc = argc;
	o->argv = argv;
	o->summary = o->summary_only || o->with_summary;
	o->summary_only = o->summary_only && !o->with_summary;
	/* perf trace record: ember record with perf trace's events, the rest record's options */
	if (argc >= 1 && !strcmp(argv[0], "record")) {
		o->record = true;
		return -1;
	}
	/* -i: a file to read, no target */
	if (o->input)
		return -1;
	/* -C and -u narrow any target, or make one alone (every task on those cpus, of that user) */
	targets = !!o->pids + !!o->tids + o->all_cpus + !!argc;
	if (targets > 1) {
		fprintf(stderr, "ember trace: give one target: a command, -p, -t or -a\n");
		return 2;
	}
	/* as perf trace: no target is the whole system */
	if (!targets && !o->filter_uid && !o->cpu_list)
		o->all_cpus = true;
	/* as perf: -e naming only tracepoints traces no syscalls */
	if (o->nr_tp_specs && !o->have_qualifier)
		o->syscalls = false;
	/* and -F alone traces the faults only, unless --syscalls or -e syscalls ask for them */
	if (o->pf_kinds && !o->have_qualifier && !o->syscalls_given)
		o->syscalls = false;
	if (!o->syscalls && !o->nr_tp_specs && !o->pf_kinds) {
		fprintf(stderr, "ember trace: --no-syscalls leaves nothing to trace: add "
				"tracepoints with -e sys:name, or page faults with -F\n");
		return 2;
	}
	return -1;
}

void trace_opts__exit(struct trace_opts *o)
{
	free(o->syscall_nrs);
	o->syscall_nrs = NULL;
	for (int i = 0; i < o->nr_tp_specs; i++)
		free((char *)o->tp_specs[i]);
	free(o->tp_specs);
	o->tp_specs = NULL;
	o->nr_tp_specs = 0;
}

int *trace_opts__syscalls(const struct trace_opts *o, int *nr)
{
	int max = ember_syscall__max(), n = 0, *v;

	*nr = 0;
	if (!o->have_qualifier)
		return NULL;
	v = calloc(max > 0 ? max : 1, sizeof(*v));
	if (!v)
		return NULL;
	for (int s = 0; s < max; s++) {
		bool listed = false;

		if (!ember_syscall__name(s))
			continue;
		for (int i = 0; i < o->nr_syscalls && !listed; i++)
			listed = o->syscall_nrs[i] == s;
		if (listed != o->negate)
			v[n++] = s;
	}
	*nr = n;
	return v;
}
