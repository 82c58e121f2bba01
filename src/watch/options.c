// SPDX-License-Identifier: GPL-2.0-only
/* ember watch's command line: thresholds, the window, the capture's span, where it goes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/parse-options.h"
#include "watch/watch.h"

static const char *const watch_usage[] = {
	"ember watch [--sys PCT] [--user PCT] [--iowait PCT] [--window S] [-C CPUS]",
	"            [--before S] [--after S] [-F HZ] [-o DIR] [--max N] [--cooldown S]",
	"            [--max-disk BYTES] [--exec CMD]",
	NULL,
};

/* A finite number in [min, max] into opt->value; -1 after saying what is wrong. */
static int parse_number(const struct option *opt, const char *arg, double min, double max)
{
	double *v = opt->value;
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*v) || *v < min || *v > max) {
		fprintf(stderr, "ember watch: --%s expects a number from %g to %g, not '%s'\n",
			opt->long_name, min, max, arg);
		return -1;
	}
	return 0;
}

static int opt_pct(const struct option *opt, const char *arg, bool unset)
{
	if (unset) {
		*(double *)opt->value = -1;
		return 0;
	}
	return parse_number(opt, arg, 0, 100);
}

static int opt_seconds(const struct option *opt, const char *arg, bool unset)
{
	return parse_number(opt, arg, 0, 86400);
}

/* --max-disk: bytes, or with a K, M or G suffix. */
static int opt_bytes(const struct option *opt, const char *arg, bool unset)
{
	uint64_t *v = opt->value;
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(arg, &end, 10);
	if (!errno && end != arg && arg[0] != '-') {
		int shift = 0;

		if (*end == 'K' || *end == 'k')
			shift = 10;
		else if (*end == 'M' || *end == 'm')
			shift = 20;
		else if (*end == 'G' || *end == 'g')
			shift = 30;
		if (shift)
			end++;
		if (!*end && n <= UINT64_MAX >> shift) {
			*v = (uint64_t)n << shift;
			return 0;
		}
	}
	fprintf(stderr, "ember watch: --max-disk expects bytes (or with K, M, G), not '%s'\n", arg);
	return -1;
}

int watch_options__parse(struct watch_opts *o, int argc, const char **argv)
{
	double unset = -2;
	const struct option options[] = {
		OPT_GROUP("When"),
		OPT_CALLBACK(0, "sys", &o->threshold[WATCH_SYS], "pct",
			     "a cpu's system time share that triggers (default 90 when no "
			     "threshold is given)", opt_pct),
		OPT_CALLBACK(0, "user", &o->threshold[WATCH_USER], "pct",
			     "a cpu's user time share that triggers", opt_pct),
		OPT_CALLBACK(0, "iowait", &o->threshold[WATCH_IOWAIT], "pct",
			     "a cpu's iowait share that triggers", opt_pct),
		OPT_CALLBACK(0, "window", &o->window_s, "s",
			     "the share is over this many seconds (default 1)", opt_seconds),
		OPT_STRING('C', "cpu", &o->cpus, "cpus", "watch only these cpus (0-3,6)"),
		OPT_CALLBACK(0, "cooldown", &o->cooldown_s, "s",
			     "no new incident for this long after one (default 30)", opt_seconds),
		OPT_UINTEGER(0, "max", &o->max, "n", "stop after n incidents (default: never)"),
		OPT_GROUP("What"),
		OPT_CALLBACK(0, "before", &o->before_s, "s",
			     "seconds of samples before the trigger (default 3)", opt_seconds),
		OPT_CALLBACK(0, "after", &o->after_s, "s",
			     "seconds of samples after it (default 1)", opt_seconds),
		OPT_UINTEGER('F', "freq", &o->freq, "hz",
			     "callchain samples a second per cpu (default 99)"),
		OPT_UINTEGER('m', "mmap-pages", &o->mmap_pages, "pages",
			     "ring buffer data pages per cpu, a power of two (default: sized "
			     "for --before + --after + --window at -F)"),
		OPT_GROUP("Where"),
		OPT_STRING('o', "output", &o->dir, "dir",
			   "write the incidents here (default: the current directory)"),
		OPT_CALLBACK(0, "max-disk", &o->max_disk, "bytes",
			     "write no incident once they take this much (default 512M; 0: no cap)",
			     opt_bytes),
		OPT_STRING(0, "exec", &o->exec, "cmd",
			   "run cmd (sh -c) after each incident: $1 the SVG, $2 the perf.data, "
			   "and EMBER_WATCH_* variables (see ember-watch(1))"),
		OPT_BOOLEAN('q', "quiet", &o->quiet, "no line when watching starts"),
		OPT_END(),
	};
	int n, any = 0;

	for (int m = 0; m < WATCH_NR_METRICS; m++)
		o->threshold[m] = unset;
	o->window_s = 1;
	o->before_s = 3;
	o->after_s = 1;
	o->cooldown_s = 30;
	o->freq = WATCH_DEFAULT_FREQ;
	o->dir = ".";
	o->max_disk = WATCH_DEFAULT_MAX_DISK;
	n = parse_options(argc, argv, options, watch_usage, 0);
	if (parse_options_exit_code(n) >= 0)
		return parse_options_exit_code(n);
	if (n > 0) {
		fprintf(stderr, "ember watch: unexpected argument '%s'\n", argv[0]);
		return 2;
	}
	for (int m = 0; m < WATCH_NR_METRICS; m++) {
		any += o->threshold[m] >= 0;
		if (o->threshold[m] == unset)
			o->threshold[m] = -1;
	}
	if (!any)
		o->threshold[WATCH_SYS] = WATCH_DEFAULT_SYS;
	if (o->window_s < WATCH_TICK_MS / 1000.0) {
		fprintf(stderr, "ember watch: --window must be at least %.1f s\n",
			WATCH_TICK_MS / 1000.0);
		return 2;
	}
	if (!o->freq || o->freq > 10000) {
		fprintf(stderr, "ember watch: -F expects 1 to 10000 samples a second\n");
		return 2;
	}
	if (o->mmap_pages & (o->mmap_pages - 1)) {
		fprintf(stderr, "ember watch: -m expects a power of two, not %u\n", o->mmap_pages);
		return 2;
	}
	return -1;
}
