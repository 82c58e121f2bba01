// SPDX-License-Identifier: GPL-2.0-only
/* Open counters as perf stat does: attrs, unsupported events, the :u fallback, errors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stat/stat-evsel.h"
#include "stat/stat-open.h"

static void configure(struct ember_evsel *evsel, const struct stat_open_opts *opts)
{
	struct perf_event_attr *attr = ember_evsel__attr(evsel);
	bool leader = ember_evsel__is_group_leader(evsel);

	attr->read_format = opts->scale ? PERF_FORMAT_TOTAL_TIME_ENABLED |
					  PERF_FORMAT_TOTAL_TIME_RUNNING : 0;
	attr->inherit = opts->inherit;
	attr->sample_period = 0;
	attr->sample_type = 0;
	/* Leaders start disabled; members run whenever their leader does. */
	attr->disabled = leader;
	attr->enable_on_exec = leader && opts->enable_on_exec;
}

static long paranoid_level(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	long level = 2;

	if (f) {
		if (fscanf(f, "%ld", &level) != 1)
			level = 2;
		fclose(f);
	}
	return level;
}

/*
 * perf's fallback for a refused event when only user space may be
 * measured: exclude the kernel and hypervisor and say so in the name.
 * Returns true when the evsel changed and is worth another try.
 */
static bool fallback_user_only(struct ember_evsel *evsel, int err, int verbose)
{
	struct perf_event_attr *attr = ember_evsel__attr(evsel);
	const char *name = ember_evsel__name(evsel), *sep;
	long level;
	char *new_name;

	if ((err != -EACCES && err != -EPERM) || attr->exclude_kernel || attr->exclude_user)
		return false;
	level = paranoid_level();
	if (level <= 1)
		return false;
	/* "cycles" becomes "cycles:u"; "cycles:p" and "cpu/cycles/" get a bare "u". */
	sep = strchr(name, '/') || strchr(name, ':') ? "" : ":";
	if (asprintf(&new_name, "%s%su", name, sep) < 0)
		return false;
	err = ember_evsel__set_name(evsel, new_name);
	free(new_name);
	if (err)
		return false;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	stat_evsel__refresh(evsel);
	if (verbose)
		fprintf(stderr, "kernel.perf_event_paranoid=%ld, trying to fall back to excluding "
			"kernel and hypervisor samples\n", level);
	return true;
}

/* The errnos perf stat reads as "this machine has no such event". */
static bool is_unsupported(int err)
{
	return err == -EINVAL || err == -ENOSYS || err == -ENOENT || err == -EOPNOTSUPP ||
	       err == -ENXIO || err == -ENODEV;
}

/*
 * --filter: set on every fd here rather than by the library's open, so
 * that a filter the kernel refuses fails the measurement (as perf's does)
 * instead of making the event look unsupported.
 */
static int open_one(struct ember_evsel *evsel)
{
	const char *given = ember_evsel__filter(evsel);
	char *filter = given ? strdup(given) : NULL;
	int err;

	if (given && !filter)
		return -ENOMEM;
	/* the library's open would set it, and a refusal look like a missing event */
	ember_evsel__set_filter(evsel, NULL);
	err = ember_evsel__open(evsel, NULL, NULL);
	ember_evsel__set_filter(evsel, filter);
	if (!err && filter) {
		err = ember_evsel__apply_filter(evsel, filter);
		if (err) {
			fprintf(stderr, "ember stat: cannot set filter \"%s\" on event %s: %s\n",
				filter, ember_evsel__name(evsel), strerror(-err));
			err = -EBADMSG;
		}
	}
	free(filter);
	return err;
}

int stat_open__counters(struct ember_evlist *evlist, const struct stat_open_opts *opts,
			int verbose)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos)
		configure(pos, opts);

	ember_evlist__for_each(evlist, pos) {
		struct stat_evsel *se = stat_evsel(pos);
		char msg[512];
		int err;

		/* duration_time and friends are counted by ember itself. */
		if (se->tool != EMBER_TOOL_NONE)
			continue;
		/* A group whose leader is missing is missing as a whole. */
		if (!ember_evsel__is_group_leader(pos) &&
		    !stat_evsel(ember_evsel__leader(pos))->supported) {
			se->supported = false;
			continue;
		}
		se->supported = true;
		err = open_one(pos);
		if (err == -EBADMSG) {
			/* The filter was refused: already said. */
			ember_evlist__close(evlist);
			return err;
		}
		if (err) {
			struct perf_event_attr attr = *ember_evsel__attr(pos);
			char *name = strdup(ember_evsel__name(pos));
			int first_err = err;

			if (name && fallback_user_only(pos, err, verbose)) {
				err = open_one(pos);
				/* Still refused: report the event as asked for. */
				if (err && !is_unsupported(err)) {
					ember_evsel__set_name(pos, name);
					*ember_evsel__attr(pos) = attr;
					stat_evsel__refresh(pos);
					err = first_err;
				}
			}
			free(name);
		}
		if (!err)
			continue;
		if (is_unsupported(err)) {
			if (verbose)
				fprintf(stderr, "%s event is not supported by the kernel.\n",
					ember_evsel__name(pos));
			se->supported = false;
			continue;
		}
		fprintf(stderr, "ember stat: cannot open event '%s': %s\n", ember_evsel__name(pos),
			ember_evsel__strerror_open(pos, err, msg, sizeof(msg)));
		ember_evlist__close(evlist);
		return err;
	}
	return 0;
}
