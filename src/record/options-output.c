// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember record's options on the ring buffers and the output: sizes (-m,
 * --mmap-flush, --max-size), compression, --affinity, --switch-output,
 * --threads and --synth.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record/err.h"
#include "record/options-callbacks.h"
#include "record/options.h"

/*
 * An -m argument: a number of pages, or a size with a B/K/M/G suffix,
 * rounded up to a power of two of pages. Returns 0 and *pages, or -EINVAL.
 */
static int parse_mmap_pages(const char *arg, unsigned int *pages, bool *rounded)
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

int record_opt_mmap_pages(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	char first[64];
	const char *comma = strchr(arg, ',');
	bool rounded;

	if (unset)
		return 0;
	/* perf's "pages[,aux pages]": there is no AUX area to map here. */
	snprintf(first, sizeof(first), "%.*s", comma ? (int)(comma - arg) : (int)strlen(arg), arg);
	if (parse_mmap_pages(first, &o->loop.mmap_pages, &rounded)) {
		record_err("invalid argument for --mmap-pages/-m: '%s' (a number of pages, or a "
			   "size such as 512K)", arg);
		return -1;
	}
	o->loop.mmap_rounded = rounded;
	return 0;
}

int record_opt_comp_level(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	char *end;
	long v;

	if (unset) {
		o->output.comp_level = 0;
		return 0;
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0) {
		record_err("-z/--compression-level expects a level from 1 to 22, not '%s'", arg);
		return -1;
	}
	o->output.comp_level = v > 22 ? 22 : (int)v;
	return 0;
}

/* A size with an optional B/K/M/G suffix. Returns 0 or -EINVAL. */
static int parse_size(const char *arg, uint64_t *bytes)
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

int record_opt_max_size(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->output.max_size = 0;
		return 0;
	}
	if (parse_size(arg, &o->output.max_size)) {
		record_err("invalid --max-size '%s' (a size such as 200M)", arg);
		return -1;
	}
	return 0;
}

int record_opt_mmap_flush(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->loop.mmap_flush = 0;
		return 0;
	}
	if (parse_size(arg, &o->loop.mmap_flush)) {
		record_err("invalid --mmap-flush '%s' (bytes, or a size such as 4K)", arg);
		return -1;
	}
	return 0;
}

int record_opt_affinity(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset || !strcmp(arg, "sys"))
		o->loop.affinity = RECORD_AFFINITY_SYS;
	else if (!strcmp(arg, "node"))
		o->loop.affinity = RECORD_AFFINITY_NODE;
	else if (!strcmp(arg, "cpu"))
		o->loop.affinity = RECORD_AFFINITY_CPU;
	else {
		record_err("--affinity takes node or cpu, not '%s'", arg);
		return -1;
	}
	return 0;
}

/* --switch-output[=signal|SIZE|TIME]: perf's forms, SIZE in B/K/M/G, TIME in s/m/h/d. */
static int parse_switch_output(struct record_output_opts *o, const char *arg)
{
	size_t len = arg ? strlen(arg) : 0;
	unsigned long long v;
	char *end;

	o->switch_output = true;
	if (!arg || !strcmp(arg, "signal")) {
		o->switch_signal = true;
		return 0;
	}
	if (!parse_size(arg, &o->switch_size) && o->switch_size &&
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

int record_opt_switch_output(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->output.switch_output = o->output.switch_signal = false;
		o->output.switch_size = o->output.switch_time_s = 0;
		return 0;
	}
	return parse_switch_output(&o->output, arg) ? -1 : 0;
}

int record_opt_threads(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	o->threads_given = !unset;
	return 0;
}

/* --synth=no|all|task|mmap|cgroup[,...], as perf's parse_record_synth_option(). */
int record_opt_synth(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	const char *p = arg;

	if (unset) {
		o->synth.synth = RECORD_SYNTH_ALL;
		return 0;
	}
	o->synth.synth = 0;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == 2 && !strncmp(p, "no", 2))
			o->synth.synth = 0;
		else if (len == 3 && !strncmp(p, "all", 3))
			o->synth.synth = RECORD_SYNTH_ALL;
		else if (len == 4 && !strncmp(p, "task", 4))
			o->synth.synth |= RECORD_SYNTH_TASK;
		else if (len == 4 && !strncmp(p, "mmap", 4))
			o->synth.synth |= RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP;
		else if (len == 6 && !strncmp(p, "cgroup", 6))
			o->synth.synth |= RECORD_SYNTH_CGROUP;
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
