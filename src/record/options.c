// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember record's options, as perf record 6.1 spells them, and the checks
 * perf makes on them before anything is opened.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "event/parse-events.h"
#include "record/options.h"
#include "util/parse-options.h"

static const char *const record_usage[] = {
	"ember record [<options>] [<command>]",
	"ember record [<options>] -- <command> [<options>]",
	NULL,
};

void record_err(const char *fmt, ...)
{
	va_list ap;

	fputs("ember record: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int opt_event(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	struct ember_evsel *before = o->evlist->last;
	struct ember_parse_error perr = { 0 };
	int err;

	if (unset)
		return 0;
	err = ember_evlist__parse_events(o->evlist, arg, &perr);
	if (err) {
		char buf[2048];

		if (err == -EINVAL || perr.msg) {
			if (!perr.str)
				perr.str = strdup(arg);
			ember_parse_error__snprintf(&perr, 0, buf, sizeof(buf));
			fputs(buf, stderr);
			fputs("Run 'ember list' for a list of valid events\n", stderr);
		} else if (err == -EACCES || err == -EPERM) {
			record_err("cannot use event '%s': permission denied reading the tracing "
				   "directory (/sys/kernel/tracing); run as root", arg);
		} else {
			record_err("cannot use event '%s': %s", arg, strerror(-err));
		}
		ember_parse_error__exit(&perr);
		return -1;
	}
	ember_parse_error__exit(&perr);
	o->events_given = true;
	o->last_glob = before ? before->next : o->evlist->first;
	return 0;
}

/* --filter applies to every evsel the latest -e added, as perf's foreach_evsel_in_last_glob. */
static int opt_filter(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	struct ember_evsel *pos;

	if (unset)
		return 0;
	if (!o->last_glob) {
		record_err("--filter option should follow a -e tracepoint option");
		return -1;
	}
	for (pos = o->last_glob; pos; pos = pos->next) {
		if (pos->kind != EMBER_EVSEL_TRACEPOINT) {
			record_err("--filter option should follow a -e tracepoint option "
				   "('%s' is not a tracepoint; address filters need a hardware "
				   "tracer this machine does not have)", ember_evsel__name(pos));
			return -1;
		}
		if (ember_evsel__set_filter(pos, arg)) {
			record_err("out of memory");
			return -1;
		}
	}
	return 0;
}

static int opt_freq(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	char *end;
	unsigned long v;

	if (unset)
		return 0;
	o->freq_given = true;
	if (!strcmp(arg, "max")) {
		o->freq_max = true;
		return 0;
	}
	errno = 0;
	v = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-' || v > 0xffffffffUL) {
		record_err("-F expects a frequency in Hz or 'max', not '%s'", arg);
		return -1;
	}
	o->freq = (unsigned int)v;
	o->freq_max = false;
	return 0;
}

static int opt_period(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	char *end;

	if (unset)
		return 0;
	errno = 0;
	o->period = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-') {
		record_err("-c expects a sample period (events between samples), not '%s'", arg);
		return -1;
	}
	o->period_given = true;
	return 0;
}

int record_options__parse_mmap_pages(const char *arg, unsigned int *pages, bool *rounded)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long v, n;
	char *end;

	*rounded = false;
	if (!arg || !*arg || arg[0] == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || end == arg)
		return -EINVAL;
	if (*end) {
		/* A size: 512K, 1M, 4096B... */
		unsigned long long mul;

		switch (*end) {
		case 'B': case 'b': mul = 1; break;
		case 'K': case 'k': mul = 1ULL << 10; break;
		case 'M': case 'm': mul = 1ULL << 20; break;
		case 'G': case 'g': mul = 1ULL << 30; break;
		default: return -EINVAL;
		}
		if (end[1] || v > (1ULL << 40) / mul)
			return -EINVAL;
		v = (v * mul + (unsigned long long)page - 1) / (unsigned long long)page;
	}
	if (v == 0 || v > (1ULL << 28))
		return -EINVAL;
	for (n = 1; n < v; n <<= 1)
		;
	*rounded = n != v;
	*pages = (unsigned int)n;
	return 0;
}

static int opt_mmap_pages(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	char first[64];
	const char *comma = strchr(arg, ',');
	bool rounded;

	if (unset)
		return 0;
	/* perf's "pages[,aux pages]": there is no AUX area to map here. */
	snprintf(first, sizeof(first), "%.*s", comma ? (int)(comma - arg) : (int)strlen(arg), arg);
	if (record_options__parse_mmap_pages(first, &o->mmap_pages, &rounded)) {
		record_err("invalid argument for --mmap-pages/-m: '%s' (a number of pages, or a "
			   "size such as 512K)", arg);
		return -1;
	}
	o->mmap_rounded = rounded;
	return 0;
}

int record_options__parse_callchain(const char *arg, enum record_callchain *mode,
				    unsigned int *stack_size)
{
	const char *comma = strchr(arg, ',');
	size_t len = comma ? (size_t)(comma - arg) : strlen(arg);

	if (len == 2 && !strncmp(arg, "fp", 2) && !comma) {
		*mode = RECORD_CALLCHAIN_FP;
		return 0;
	}
	if (len == 3 && !strncmp(arg, "lbr", 3) && !comma) {
		*mode = RECORD_CALLCHAIN_LBR;
		return 0;
	}
	if (len == 5 && !strncmp(arg, "dwarf", 5)) {
		unsigned long long size = RECORD_DWARF_STACK;

		if (comma) {
			char *end;

			errno = 0;
			size = strtoull(comma + 1, &end, 0);
			if (errno || end == comma + 1 || *end || size == 0) {
				record_err("callchain: Incorrect stack dump size: %s", comma + 1);
				return -EINVAL;
			}
			size = (size + 7) & ~7ULL;
			if (size > RECORD_DWARF_STACK_MAX) {
				record_err("callchain: Incorrect stack dump size (max %d): %s",
					   RECORD_DWARF_STACK_MAX, comma + 1);
				return -EINVAL;
			}
		}
		*mode = RECORD_CALLCHAIN_DWARF;
		*stack_size = (unsigned int)size;
		return 0;
	}
	record_err("callchain: Unknown --call-graph option value: %s (use fp, dwarf[,size] or lbr)",
		   arg);
	return -EINVAL;
}

static int opt_call_graph(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->callchain = RECORD_CALLCHAIN_NONE;
		return 0;
	}
	return record_options__parse_callchain(arg, &o->callchain, &o->stack_size) ? -1 : 0;
}

/* -g: frame-pointer call graphs, unless --call-graph already chose a mode. */
static int opt_g(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset)
		o->callchain = RECORD_CALLCHAIN_NONE;
	else if (o->callchain == RECORD_CALLCHAIN_NONE)
		o->callchain = RECORD_CALLCHAIN_FP;
	return 0;
}

static int opt_comp_level(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	char *end;
	long v;

	if (unset) {
		o->comp_level = 0;
		return 0;
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0) {
		record_err("-z/--compression-level expects a level from 1 to 22, not '%s'", arg);
		return -1;
	}
	o->comp_level = v > 22 ? 22 : (int)v;
	return 0;
}

static int usage_error(const char *msg)
{
	record_err("%s (see 'ember record --help')", msg);
	return 2;
}

/* /proc/sys/kernel/perf_event_max_sample_rate, or 0 when unreadable. */
static unsigned int max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	unsigned int rate = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%u", &rate) != 1)
		rate = 0;
	fclose(f);
	return rate;
}

/*
 * perf's record_opts__config_freq(): -F and -c exclude each other, -F max
 * means the kernel's limit, and a frequency above it is lowered with a
 * warning (refused with --strict-freq).
 */
static int config_freq(struct record_opts *o)
{
	unsigned int max = max_sample_rate();

	if (o->freq_given && o->period_given)
		return usage_error("cannot set frequency (-F) and period (-c) at the same time");
	if (o->freq_max) {
		if (!max)
			return usage_error("-F max: cannot read "
					   "/proc/sys/kernel/perf_event_max_sample_rate");
		o->freq = max;
		if (!o->quiet)
			fprintf(stderr, "info: Using a maximum frequency rate of %u Hz\n", max);
	}
	if (!o->freq_given)
		o->freq = RECORD_DEFAULT_FREQ;
	if (o->period_given ? o->period == 0 : o->freq == 0)
		return usage_error("frequency and count are zero, aborting");
	if (!max || o->period_given)
		return 0;
	if (o->freq_given && o->freq > max) {
		if (o->strict_freq) {
			fprintf(stderr,
				"error: Maximum frequency rate (%u Hz) exceeded.\n"
				"       Please use -F freq option with a lower value or consider\n"
				"       tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n",
				max);
			return 2;
		}
		if (!o->quiet)
			fprintf(stderr,
				"warning: Maximum frequency rate (%u Hz) exceeded, throttling from "
				"%u Hz to %u Hz.\n"
				"         The limit can be raised via "
				"/proc/sys/kernel/perf_event_max_sample_rate.\n"
				"         The kernel will lower it when perf's interrupts take too "
				"long.\n"
				"         Use --strict-freq to disable this throttling, refusing "
				"to record.\n", max, o->freq, max);
		o->freq = max;
	}
	if (o->freq > max) {
		if (!o->quiet)
			fprintf(stderr, "Lowering default frequency rate from %u to %u.\n"
				"Please consider tweaking "
				"/proc/sys/kernel/perf_event_max_sample_rate.\n", o->freq, max);
		o->freq = max;
	}
	return 0;
}

/* Combinations perf refuses or overrides. Returns -1 to go on, or an exit code. */
static int check_options(struct record *rec)
{
	struct record_opts *o = &rec->opts;
	int err;

	if (o->pid && o->tid)
		return usage_error("use either -p or -t, not both");
	if ((o->pid || o->tid) && (o->system_wide || o->cpu_list)) {
		/* perf: "PID/TID switch overriding SYSTEM" */
		if (!o->quiet)
			fprintf(stderr, "Warning:\nPID/TID switch overriding %s\n",
				o->system_wide ? "SYSTEM" : "CPU");
		o->system_wide = false;
		o->cpu_list = NULL;
	}
	/* As perf: without a command or a target, the whole system until ^C. */
	if (!rec->argc && !o->pid && !o->tid && !o->cpu_list)
		o->system_wide = true;
	if (o->all_user && o->all_kernel)
		return usage_error("--all-user and --all-kernel cannot be used together");
	if (o->per_thread && (o->system_wide || o->cpu_list))
		return usage_error("--per-thread records threads, -a/-C cpus: choose one");
	/*
	 * As perf: -t records exactly the threads given, without their future
	 * children; per-thread buffers cannot take inherited events.
	 */
	if (o->tid || o->per_thread)
		o->no_inherit = true;
	if (o->mmap_rounded && !o->quiet) {
		unsigned long long bytes = (unsigned long long)o->mmap_pages *
					   (unsigned long long)sysconf(_SC_PAGESIZE);

		if (!(bytes & ((1ULL << 20) - 1)))
			fprintf(stderr, "rounding mmap pages size to %lluM (%u pages)\n",
				bytes >> 20, o->mmap_pages);
		else
			fprintf(stderr, "rounding mmap pages size to %lluK (%u pages)\n",
				bytes >> 10, o->mmap_pages);
	}
	err = config_freq(o);
	return err ? err : -1;
}

int record_options__parse(struct record *rec, int argc, const char **argv)
{
	struct record_opts *o = &rec->opts;
	const struct option options[] = {
		OPT_CALLBACK('e', "event", o, "event",
			     "event selector. use 'ember list' to list available events",
			     opt_event),
		OPT_CALLBACK(0, "filter", o, "filter",
			     "event filter for the preceding -e tracepoint(s)", opt_filter),
		OPT_STRING('p', "pid", &o->pid, "pid", "record events on existing process id"),
		OPT_STRING('t', "tid", &o->tid, "tid", "record events on existing thread id"),
		OPT_BOOLEAN('a', "all-cpus", &o->system_wide,
			    "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &o->cpu_list, "cpu", "list of cpus to monitor"),
		OPT_BOOLEAN(0, "per-thread", &o->per_thread, "use per-thread mmaps"),
		OPT_CALLBACK('c', "count", o, "n", "event period to sample", opt_period),
		OPT_STRING('o', "output", &o->output, "file", "output file name ('-': stdout)"),
		OPT_BOOLEAN('i', "no-inherit", &o->no_inherit,
			    "child tasks do not inherit counters"),
		OPT_CALLBACK('F', "freq", o, "freq or 'max'",
			     "profile at this frequency", opt_freq),
		OPT_BOOLEAN(0, "strict-freq", &o->strict_freq,
			    "fail if the specified frequency can't be used"),
		OPT_CALLBACK('m', "mmap-pages", o, "pages[,pages]",
			     "number of mmap data pages", opt_mmap_pages),
		OPT_CALLBACK_NOARG('g', NULL, o, "enables call-graph recording", opt_g),
		OPT_CALLBACK(0, "call-graph", o, "record_mode[,record_size]",
			     "setup and enables call-graph (stack chain/backtrace): fp, dwarf, lbr",
			     opt_call_graph),
		OPT_INCR('v', "verbose", &o->verbose,
			 "be more verbose (show counter open errors, etc)"),
		OPT_BOOLEAN('q', "quiet", &o->quiet, "don't print any message"),
		OPT_BOOLEAN('s', "stat", &o->inherit_stat, "per thread counts"),
		OPT_BOOLEAN('d', "data", &o->sample_addr, "Record the sample addresses"),
		OPT_BOOLEAN(0, "sample-cpu", &o->sample_cpu, "Record the sample cpu"),
		OPT_BOOLEAN('T', "timestamp", &o->timestamp, "Record the sample timestamps"),
		OPT_BOOLEAN('P', "period", &o->sample_period, "Record the sample period"),
		OPT_BOOLEAN('R', "raw-samples", &o->raw_samples,
			    "collect raw sample records from all opened counters"),
		OPT_BOOLEAN('B', "no-buildid", &o->no_buildid,
			    "do not collect buildids in perf.data"),
		OPT_BOOLEAN('N', "no-buildid-cache", &o->no_buildid_cache,
			    "do not update the buildid cache (ember never does)"),
		OPT_BOOLEAN(0, "buildid-all", &o->buildid_all,
			    "Record build-id of all DSOs regardless of hits"),
		OPT_BOOLEAN(0, "buildid-mmap", &o->buildid_mmap,
			    "Record build-id in map events"),
		OPT_BOOLEAN(0, "switch-events", &o->switch_events, "Record context switch events"),
		OPT_BOOLEAN(0, "all-user", &o->all_user,
			    "Configure all used events to run in user space."),
		OPT_BOOLEAN(0, "all-kernel", &o->all_kernel,
			    "Configure all used events to run in kernel space."),
		OPT_BOOLEAN(0, "no-bpf-event", &o->no_bpf_event, "do not record bpf events"),
		{ OPTION_CALLBACK, 'z', "compression-level", o, "n",
		  "Compressed records using specified level (default: 1 - fastest compression, "
		  "22 - greatest compression)", opt_comp_level, OPTF_OPTARG, "1" },
		OPT_UINTEGER(0, "proc-map-timeout", &o->proc_map_timeout, "ms",
			     "per thread proc mmap processing timeout in ms"),
		OPT_END(),
	};
	int n;

	n = parse_options(argc, argv, options, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (n < 0)
		return parse_options_exit_code(n);
	rec->argc = n;
	rec->argv = argv;
	return check_options(rec);
}
