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
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <ember/event.h>
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

/* Parse one -e style spec into evlist, explaining a failure. 0 or -1. */
static int parse_into(struct ember_evlist *evlist, const char *arg)
{
	struct ember_parse_error perr = { 0 };
	int err;

	err = ember_evlist__parse_events(evlist, arg, &perr);
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
	return 0;
}

static int opt_event(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	int before = ember_evlist__nr_entries(o->evlist);
	struct ember_evsel *pos;

	if (unset)
		return 0;
	if (parse_into(o->evlist, arg))
		return -1;
	o->events_given = true;
	/* the first evsel this -e added (NULL when it added none) */
	ember_evlist__for_each(o->evlist, pos)
		if (ember_evsel__idx(pos) == before)
			break;
	o->last_glob = pos;
	return 0;
}

/* --switch-output-event: watched, not recorded; implies --switch-output=signal. */
static int opt_switch_output_event(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset)
		return 0;
	if (!o->sb_evlist) {
		o->sb_evlist = ember_evlist__new();
		if (!o->sb_evlist) {
			record_err("out of memory");
			return -1;
		}
	}
	if (parse_into(o->sb_evlist, arg))
		return -1;
	o->switch_output = o->switch_signal = true;
	return 0;
}

static int opt_control(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->control = NULL;
		return 0;
	}
	if (record_control__check(arg)) {
		record_err("invalid --control '%s': fifo:ctl-fifo[,ack-fifo] or fd:ctl-fd[,ack-fd]",
			   arg);
		return -1;
	}
	o->control = arg;
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
	for (pos = o->last_glob; pos; pos = ember_evlist__next(o->evlist, pos)) {
		if (!ember_evsel__tracepoint(pos, NULL, NULL)) {
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

/* perf's -j names (util/parse-branch-options.c), and -b's "any". */
static const struct {
	const char *name;
	uint64_t bit;
} branch_modes[] = {
	{ "u", PERF_SAMPLE_BRANCH_USER },
	{ "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV },
	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "hw_index", PERF_SAMPLE_BRANCH_HW_INDEX },
	{ "priv", PERF_SAMPLE_BRANCH_PRIV_SAVE },
};

int record_options__parse_branch(const char *arg, uint64_t *mask)
{
	const uint64_t plm = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
			     PERF_SAMPLE_BRANCH_HV;
	const char *p = arg;

	*mask = 0;
	while (*p) {
		size_t len = strcspn(p, ",|"), i;

		for (i = 0; i < sizeof(branch_modes) / sizeof(branch_modes[0]); i++)
			if (strlen(branch_modes[i].name) == len &&
			    !strncmp(branch_modes[i].name, p, len))
				break;
		if (i == sizeof(branch_modes) / sizeof(branch_modes[0])) {
			record_err("unknown branch filter %.*s, check man page", (int)len, p);
			return -EINVAL;
		}
		*mask |= branch_modes[i].bit;
		p += len;
		if (*p)
			p++;
	}
	/* As perf: privilege levels alone mean any branch at those levels. */
	if (!(*mask & ~plm))
		*mask |= PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

static int opt_branch_filter(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	uint64_t mask;

	if (unset) {
		o->branch_stack = 0;
		return 0;
	}
	if (record_options__parse_branch(arg, &mask))
		return -1;
	o->branch_stack |= mask;
	return 0;
}

static int opt_branch_any(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	o->branch_stack = unset ? 0 : o->branch_stack | PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

/* x86_64's perf register names, in PERF_REG_X86_* order. */
static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

/* --user-regs / --intr-regs: "" or NULL is perf's default set, "?" lists them. */
static int parse_regs(const char *what, const char *arg, uint64_t *mask)
{
	const char *p = arg;

	if (!arg || !*arg) {
		*mask = 0xff0fffULL;	/* every register but ds, es, fs, gs, as perf */
		return 0;
	}
	if (!strcmp(arg, "?")) {
		fputs("available registers:", stdout);
		for (size_t i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]); i++)
			printf(" %s", x86_regs[i]);
		putchar('\n');
		return 1;
	}
	*mask = 0;
	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]); i++)
			if (strlen(x86_regs[i]) == len && !strncasecmp(x86_regs[i], p, len))
				break;
		if (i == sizeof(x86_regs) / sizeof(x86_regs[0])) {
			record_err("unknown register \"%.*s\" in %s, check man page (or %s=?)",
				   (int)len, p, what, what);
			return -1;
		}
		*mask |= 1ULL << i;
		p += len;
		if (*p)
			p++;
	}
	return 0;
}

static int opt_user_regs(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->user_regs = 0;
		return 0;
	}
	return parse_regs("--user-regs", arg, &o->user_regs);
}

static int opt_intr_regs(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->intr_regs = 0;
		return 0;
	}
	return parse_regs("--intr-regs", arg, &o->intr_regs);
}

/* perf's clockid names (util/clockid.c), and numbers. */
static const struct {
	const char *name;
	int id;
} clockids[] = {
	{ "monotonic", CLOCK_MONOTONIC }, { "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME }, { "boottime", CLOCK_BOOTTIME }, { "tai", CLOCK_TAI },
	{ "mono", CLOCK_MONOTONIC }, { "raw", CLOCK_MONOTONIC_RAW }, { "real", CLOCK_REALTIME },
	{ "boot", CLOCK_BOOTTIME },
};

static int opt_clockid(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	const char *name = arg;
	char *end;
	long v;

	if (unset) {
		o->use_clockid = false;
		return 0;
	}
	if (!strncasecmp(name, "CLOCK_", 6))
		name += 6;
	for (size_t i = 0; i < sizeof(clockids) / sizeof(clockids[0]); i++) {
		if (!strcasecmp(clockids[i].name, name)) {
			o->use_clockid = true;
			o->clockid = clockids[i].id;
			return 0;
		}
	}
	errno = 0;
	v = strtol(arg, &end, 0);
	if (errno || end == arg || *end || v < 0) {
		record_err("unknown clockid %s, check man page", arg);
		return -1;
	}
	/* The kernel's perf clocks: the ones clock_gettime() reads without a task or cpu. */
	if (v != CLOCK_MONOTONIC && v != CLOCK_MONOTONIC_RAW && v != CLOCK_REALTIME &&
	    v != CLOCK_BOOTTIME && v != CLOCK_TAI) {
		record_err("wrong clockid (%ld): perf events time with monotonic, monotonic_raw, "
			   "realtime, boottime or tai", v);
		return -1;
	}
	o->use_clockid = true;
	o->clockid = (int)v;
	return 0;
}

/* A size with an optional B/K/M/G suffix. Returns 0 or -EINVAL. */
int record_options__parse_size(const char *arg, uint64_t *bytes)
{
	unsigned long long v, mul = 1;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || end == arg || arg[0] == '-')
		return -EINVAL;
	switch (*end) {
	case '\0': break;
	case 'B': case 'b': mul = 1; end++; break;
	case 'K': case 'k': mul = 1ULL << 10; end++; break;
	case 'M': case 'm': mul = 1ULL << 20; end++; break;
	case 'G': case 'g': mul = 1ULL << 30; end++; break;
	default: return -EINVAL;
	}
	if (*end || v > UINT64_MAX / mul)
		return -EINVAL;
	*bytes = v * mul;
	return 0;
}

static int opt_max_size(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->max_size = 0;
		return 0;
	}
	if (record_options__parse_size(arg, &o->max_size)) {
		record_err("invalid --max-size '%s' (a size such as 200M)", arg);
		return -1;
	}
	return 0;
}

static int opt_mmap_flush(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->mmap_flush = 0;
		return 0;
	}
	if (record_options__parse_size(arg, &o->mmap_flush)) {
		record_err("invalid --mmap-flush '%s' (bytes, or a size such as 4K)", arg);
		return -1;
	}
	return 0;
}

static int opt_affinity(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset || !strcmp(arg, "sys"))
		o->affinity = RECORD_AFFINITY_SYS;
	else if (!strcmp(arg, "node"))
		o->affinity = RECORD_AFFINITY_NODE;
	else if (!strcmp(arg, "cpu"))
		o->affinity = RECORD_AFFINITY_CPU;
	else {
		record_err("--affinity takes node or cpu, not '%s'", arg);
		return -1;
	}
	return 0;
}

/* --switch-output[=signal|SIZE|TIME]: perf's forms, SIZE in B/K/M/G, TIME in s/m/h/d. */
int record_options__parse_switch_output(struct record_opts *o, const char *arg)
{
	size_t len = arg ? strlen(arg) : 0;
	unsigned long long v;
	char *end;

	o->switch_output = true;
	if (!arg || !strcmp(arg, "signal")) {
		o->switch_signal = true;
		return 0;
	}
	if (!record_options__parse_size(arg, &o->switch_size) && o->switch_size &&
	    strchr("BbKkMmGg", arg[len - 1]))
		return 0;
	o->switch_size = 0;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!errno && end != arg && arg[0] != '-' && v && end[0] && !end[1]) {
		unsigned long long mul = end[0] == 's' ? 1 : end[0] == 'm' ? 60 :
					 end[0] == 'h' ? 3600 : end[0] == 'd' ? 86400 : 0;

		if (mul) {
			o->switch_time_s = v * mul;
			return 0;
		}
	}
	record_err("invalid --switch-output '%s': signal, a size (10M) or a time (30s, 5m, 1h, 1d)",
		   arg);
	return -EINVAL;
}

static int opt_switch_output(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->switch_output = o->switch_signal = false;
		o->switch_size = o->switch_time_s = 0;
		return 0;
	}
	return record_options__parse_switch_output(o, arg) ? -1 : 0;
}

static int opt_threads(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	o->threads_given = !unset;
	return 0;
}

/* --synth=no|all|task|mmap|cgroup[,...], as perf's parse_record_synth_option(). */
static int opt_synth(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	const char *p = arg;

	if (unset) {
		o->synth = RECORD_SYNTH_ALL;
		return 0;
	}
	o->synth = 0;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == 2 && !strncmp(p, "no", 2))
			o->synth = 0;
		else if (len == 3 && !strncmp(p, "all", 3))
			o->synth = RECORD_SYNTH_ALL;
		else if (len == 4 && !strncmp(p, "task", 4))
			o->synth |= RECORD_SYNTH_TASK;
		else if (len == 4 && !strncmp(p, "mmap", 4))
			o->synth |= RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP;
		else if (len == 6 && !strncmp(p, "cgroup", 6))
			o->synth |= RECORD_SYNTH_CGROUP;
		else {
			record_err("--synth takes no, all, task, mmap or cgroup, not '%.*s'",
				   (int)len, p);
			return -1;
		}
		p += len;
		if (*p)
			p++;
	}
	return 0;
}

/*
 * --exclude-perf: the preceding -e tracepoints skip ember's own events, as
 * perf's (a "common_pid != PID" filter joined to any --filter).
 */
static int opt_exclude_perf(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	struct ember_evsel *pos;

	if (unset)
		return 0;
	if (!o->last_glob) {
		record_err("--exclude-perf option should follow a -e tracepoint option");
		return -1;
	}
	for (pos = o->last_glob; pos; pos = ember_evlist__next(o->evlist, pos)) {
		const char *filter = ember_evsel__filter(pos);
		char *f;
		int n;

		if (!ember_evsel__tracepoint(pos, NULL, NULL)) {
			record_err("--exclude-perf option should follow a -e tracepoint option "
				   "('%s' is not a tracepoint)", ember_evsel__name(pos));
			return -1;
		}
		if (filter)
			n = asprintf(&f, "(%s) && (common_pid != %d)", filter, (int)getpid());
		else
			n = asprintf(&f, "common_pid != %d", (int)getpid());
		if (n < 0 || ember_evsel__set_filter(pos, f)) {
			if (n >= 0)
				free(f);
			record_err("out of memory");
			return -1;
		}
		free(f);
	}
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
	if (o->uid && (o->pid || o->tid))
		return usage_error("use either -u or -p/-t, not both");
	if (o->uid && (o->system_wide || o->cpu_list)) {
		if (!o->quiet)
			fprintf(stderr, "Warning:\nUID switch overriding %s\n",
				o->system_wide ? "SYSTEM" : "CPU");
		o->system_wide = false;
		o->cpu_list = NULL;
	}
	if ((o->pid || o->tid) && (o->system_wide || o->cpu_list)) {
		/* perf: "PID/TID switch overriding SYSTEM" */
		if (!o->quiet)
			fprintf(stderr, "Warning:\nPID/TID switch overriding %s\n",
				o->system_wide ? "SYSTEM" : "CPU");
		o->system_wide = false;
		o->cpu_list = NULL;
	}
	/* As perf: without a command or a target, the whole system until ^C. */
	if (!rec->argc && !o->pid && !o->tid && !o->uid && !o->cpu_list)
		o->system_wide = true;
	if (o->all_user && o->all_kernel)
		return usage_error("--all-user and --all-kernel cannot be used together");
	/* As perf: events on cpus get per-cpu buffers; --per-thread only matters for tasks. */
	if (o->per_thread && (o->system_wide || o->cpu_list))
		o->per_thread = false;
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
	if (o->kcore) {
		record_err("--kcore (a copy of /proc/kcore's kernel text in a perf.data directory) is "
			   "not supported: ember reads kernel symbols from /proc/kallsyms");
		return 1;
	}
	if (o->cgroup) {
		record_err("-G/--cgroup (events counted only inside a cgroup) is not supported; "
			   "--all-cgroups records the cgroup of every sample");
		return 1;
	}
	if (o->snapshot || o->aux_sample) {
		/* perf: "No AUX area tracing to snapshot" / "No AUX area event to sample" */
		record_err("%s needs an AUX area PMU (Intel PT, Arm CoreSight/SPE); this machine "
			   "has none", o->snapshot ? "-S/--snapshot" : "--aux-sample");
		return 1;
	}
	if (o->off_cpu) {
		record_err("--off-cpu (BPF off-cpu profiling) is not supported; "
			   "-e sched:sched_switch -g records the switches");
		return 1;
	}
	if (o->delay_ms < -1)
		return usage_error("-D/--delay takes milliseconds, or -1 to start disabled");
	if (o->delay_ms > 0 && !rec->argc)
		return usage_error("-D/--delay applies to a command ember starts (-D -1, events "
				   "enabled through --control, applies to any target)");
	if (o->switch_output && rec->pipe_to_stdout)
		return usage_error("--switch-output cannot write to a pipe");
	if (o->switch_output && o->output && !strcmp(o->output, "-"))
		return usage_error("--switch-output cannot write to a pipe");
	if (o->switch_output)
		o->timestamp_filename = true;
	/* As perf: the overwrite buffers are only read at the end: describe the tasks then. */
	if (o->overwrite)
		o->tail_synthesize = true;
	if (o->threads_given && !o->quiet)
		fprintf(stderr, "Warning:\nember record reads every ring buffer from one thread "
			"and writes one perf.data file; --threads changes nothing\n");
	/* The file is perf's; only ember's readers fall short, so say it here too. */
	if (o->callchain == RECORD_CALLCHAIN_DWARF && !o->quiet)
		fprintf(stderr, "Note: --call-graph dwarf records user stack copies as perf does; "
			"ember report and script do not unwind them yet (perf report does).\n");
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
		OPT_CALLBACK_NOARG('b', "branch-any", o, "sample any taken branches",
				   opt_branch_any),
		OPT_CALLBACK('j', "branch-filter", o, "branch filter mask",
			     "branch stack filter modes", opt_branch_filter),
		{ OPTION_CALLBACK, 0, "user-regs", o, "any register",
		  "sample selected machine registers on interrupt, use '--user-regs=?' to list "
		  "register names", opt_user_regs, OPTF_OPTARG, "" },
		{ OPTION_CALLBACK, 'I', "intr-regs", o, "any register",
		  "sample selected machine registers on interrupt, use '-I?' to list register names",
		  opt_intr_regs, OPTF_OPTARG, "" },
		OPT_BOOLEAN(0, "phys-data", &o->phys_addr, "Record the sample physical addresses"),
		OPT_BOOLEAN(0, "data-page-size", &o->data_page_size,
			    "Record the sampled data address data page size"),
		OPT_BOOLEAN(0, "code-page-size", &o->code_page_size,
			    "Record the sampled code address (ip) page size"),
		OPT_BOOLEAN('W', "weight", &o->sample_weight, "sample by weight (on special events only)"),
		OPT_BOOLEAN(0, "transaction", &o->transaction,
			    "sample transaction flags (special events only)"),
		OPT_BOOLEAN(0, "sample-identifier", &o->sample_identifier, "Record the sample identifier"),
		OPT_BOOLEAN(0, "running-time", &o->running_time,
			    "Record running/enabled time of read (:S) events"),
		OPT_BOOLEAN('n', "no-samples", &o->no_samples, "don't sample"),
		OPT_BOOLEAN(0, "no-buffering", &o->no_buffering, "collect data without buffering"),
		OPT_BOOLEAN(0, "kernel-callchains", &o->kernel_callchains,
			    "collect kernel callchains"),
		OPT_BOOLEAN(0, "user-callchains", &o->user_callchains, "collect user callchains"),
		OPT_BOOLEAN(0, "group", &o->group, "put the counters into a counter group"),
		OPT_BOOLEAN(0, "namespaces", &o->namespaces, "Record namespaces events"),
		OPT_BOOLEAN(0, "all-cgroups", &o->all_cgroups, "Record cgroup events"),
		OPT_STRING('G', "cgroup", &o->cgroup, "name", "monitor event in cgroup name only"),
		OPT_CALLBACK('k', "clockid", o, "clockid",
			     "clockid to use for events, see clock_gettime()", opt_clockid),
		OPT_INTEGER('D', "delay", &o->delay_ms, "ms",
			    "ms to wait before starting measurement after program start (-1: start "
			    "with events disabled)"),
		OPT_CALLBACK(0, "max-size", o, "size",
			     "Limit the maximum size of the output file", opt_max_size),
		OPT_CALLBACK(0, "mmap-flush", o, "number",
			     "Minimal number of bytes that is extracted from mmap data pages "
			     "(default: 1)", opt_mmap_flush),
		OPT_CALLBACK(0, "affinity", o, "node|cpu",
			     "Set affinity mask of trace reading thread to NUMA node cpu mask or "
			     "cpu of processed mmap buffer", opt_affinity),
		{ OPTION_CALLBACK, 0, "threads", o, "spec",
		  "write collected trace data into several data files using parallel threads "
		  "(ember: one reader)", opt_threads, OPTF_OPTARG, "" },
		OPT_INTEGER('r', "realtime", &o->realtime_prio, "n",
			    "collect data with this RT SCHED_FIFO priority"),
		OPT_STRING('u', "uid", &o->uid, "user", "user to profile"),
		OPT_BOOLEAN(0, "dry-run", &o->dry_run, "Parse options then exit"),
		OPT_BOOLEAN(0, "tail-synthesize", &o->tail_synthesize,
			    "synthesize non-sample events at the end of output"),
		OPT_BOOLEAN(0, "overwrite", &o->overwrite, "use overwrite mode"),
		OPT_BOOLEAN(0, "timestamp-filename", &o->timestamp_filename,
			    "append timestamp to output filename"),
		{ OPTION_CALLBACK, 0, "switch-output", o, "signal or size[BKMG] or time[smhd]",
		  "Switch output when receiving SIGUSR2 (signal) or cross a size or time threshold",
		  opt_switch_output, OPTF_OPTARG, "signal" },
		OPT_UINTEGER(0, "switch-max-files", &o->switch_max_files, "n",
			     "Limit number of switch output generated files"),
		OPT_CALLBACK(0, "switch-output-event", o, "switch output event",
			     "switch output event selector. use 'ember list' to list available "
			     "events", opt_switch_output_event),
		OPT_CALLBACK(0, "control", o, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
			     "Listen on ctl-fd descriptor for command to control measurement "
			     "('enable': enable events, 'disable': disable events, 'enable name', "
			     "'disable name', 'snapshot', 'evlist', 'stop', 'ping')", opt_control),
		OPT_BOOLEAN(0, "kcore", &o->kcore, "copy /proc/kcore"),
		{ OPTION_BOOLEAN, 'S', "snapshot", &o->snapshot, NULL,
		  "AUX area tracing Snapshot Mode (needs an AUX area PMU)" },
		OPT_BOOLEAN(0, "aux-sample", &o->aux_sample,
			    "Sample AUX area (needs an AUX area PMU)"),
		OPT_BOOLEAN(0, "off-cpu", &o->off_cpu, "Enable off-cpu analysis"),
		OPT_CALLBACK_NOARG(0, "exclude-perf", o, "don't record events from perf itself",
				   opt_exclude_perf),
		OPT_CALLBACK(0, "synth", o, "no|all|task|mmap|cgroup",
			     "Fine-tune event synthesis: default=all", opt_synth),
		OPT_STRING(0, "vmlinux", &o->vmlinux, "file",
			   "vmlinux pathname (ember: kernel symbols come from kallsyms)"),
		{ OPTION_INTEGER, 0, "aio", &o->aio, "n",
		  "Use <n> control blocks in asynchronous trace writing mode (ember writes "
		  "synchronously)", NULL, OPTF_OPTARG, "1" },
		OPT_INTEGER(0, "num-thread-synthesize", &o->nr_threads_synthesize, "n",
			    "number of threads to run for event synthesis (ember: one)"),
		OPT_BOOLEAN(0, "timestamp-boundary", &o->timestamp_boundary,
			    "Record timestamp boundary (time of first/last samples)"),
		{ OPTION_STRING, 0, "debuginfod", &o->debuginfod, "debuginfod urls",
		  "Enable debuginfod data retrieval from DEBUGINFOD_URLS or specified urls",
		  NULL, OPTF_OPTARG, "system" },
		OPT_STRING(0, "clang-path", &o->clang_path, "clang path",
			   "clang binary to use for compiling BPF scriptlets (unused)"),
		OPT_STRING(0, "clang-opt", &o->clang_opt, "clang options",
			   "options passed to clang when compiling BPF scriptlets (unused)"),
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
