// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sample selection for ember flamegraph, as perf script selects: --pid,
 * --tid and --comm lists (comma-separated), --cpu lists ("0-3,6"), and
 * --time as perf script reads it (util/perf-time.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ember/event.h>
#include <ember/session.h>

#include "flamegraph/flamegraph.h"

int fg_select__parse_list(const char *arg, const char *what, pid_t **v, int *nr)
{
	const char *p = arg;

	if (!*p) {
		fprintf(stderr, "ember flamegraph: --%s expects a comma-separated list of ids, "
				"not an empty one\n",
			what);
		return -1;
	}
	while (*p) {
		char *end;
		long n;
		pid_t *grown;

		errno = 0;
		n = strtol(p, &end, 10);
		if (errno || end == p || n < 0 || n > INT_MAX || (*end && *end != ',')) {
			fprintf(stderr, "ember flamegraph: --%s expects a comma-separated list of ids, "
					"not '%s'\n",
				what, arg);
			return -1;
		}
		grown = realloc(*v, (*nr + 1) * sizeof(*grown));
		if (!grown) {
			fprintf(stderr, "ember flamegraph: out of memory\n");
			return -1;
		}
		*v = grown;
		(*v)[(*nr)++] = n;
		p = *end ? end + 1 : end;
	}
	return 0;
}

int fg_select__parse_comms(const char *arg, char ***v, int *nr)
{
	const char *p = arg;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char **grown;

		if (len) {
			grown = realloc(*v, (*nr + 1) * sizeof(*grown));
			if (!grown || !(grown[*nr] = strndup(p, len))) {
				if (grown)
					*v = grown;
				fprintf(stderr, "ember flamegraph: out of memory\n");
				return -1;
			}
			*v = grown;
			(*nr)++;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

/*
 * perf script's --time forms (util/perf-time.c): START,END in seconds, or
 * percent slices, which need the file's first and last sample times and
 * are resolved per input (fg_select__resolve_percent).
 */
int fg_select__parse_time(const char *arg, struct fg_select *sel)
{
	struct time_range *probe = NULL;
	size_t nr = 0;
	int err;

	free(sel->ranges);
	sel->ranges = NULL;
	sel->nr_ranges = 0;
	sel->time_percent = NULL;
	if (perf_time__is_percent(arg)) {
		/* The syntax now, against a stand-in recording; the slices per file. */
		err = perf_time__parse_ranges(arg, 1, 1000000001, false, &probe, &nr);
		free(probe);
		if (!err)
			sel->time_percent = arg;
	} else {
		err = perf_time__parse_ranges(arg, 0, 0, false, &sel->ranges, &sel->nr_ranges);
	}
	if (err) {
		fprintf(stderr, "ember flamegraph: --time expects START,END in seconds (as perf "
				"script prints them) or percents (10%%/2, 0%%-10%%,30%%-40%%), not '%s'\n",
			arg);
		return -1;
	}
	return 0;
}

void fg_select__exit(struct fg_select *sel)
{
	free(sel->pids);
	free(sel->tids);
	for (int i = 0; i < sel->nr_comms; i++)
		free(sel->comms[i]);
	free(sel->comms);
	ember_cpu_map__put(sel->cpus);
	free(sel->ranges);
	memset(sel, 0, sizeof(*sel));
}

static bool in_list(const pid_t *v, int nr, pid_t id)
{
	for (int i = 0; i < nr; i++)
		if (v[i] == id)
			return true;
	return false;
}

bool fg_select__match(const struct fg_select *sel, const struct ember_session_sample *ss)
{
	const struct ember_sample *s = ss->sample;

	if (sel->nr_pids && !in_list(sel->pids, sel->nr_pids, s->pid))
		return false;
	if (sel->nr_tids && !in_list(sel->tids, sel->nr_tids, s->tid))
		return false;
	if (sel->nr_comms) {
		const char *comm = ss->al.comm ? ss->al.comm : "";
		bool found = false;

		for (int i = 0; i < sel->nr_comms && !found; i++)
			found = !strcmp(sel->comms[i], comm);
		if (!found)
			return false;
	}
	if (sel->cpus) {
		bool found = false;

		for (int i = 0; i < ember_cpu_map__nr(sel->cpus) && !found; i++)
			found = (uint32_t)ember_cpu_map__cpu(sel->cpus, i) == s->cpu;
		if (!found)
			return false;
	}
	if (perf_time__skip(sel->ranges, sel->nr_ranges, s->time))
		return false;
	return true;
}
