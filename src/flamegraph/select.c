// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sample selection for ember flamegraph, as perf script selects: --pid,
 * --tid and --comm lists (comma-separated), --cpu lists ("0-3,6"), and
 * --time START,END in seconds as perf prints them (either side may be
 * left out).
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

/* "SECS[.FRACTION]" to ns; -1 on junk. */
static int parse_secs(const char *s, size_t len, uint64_t *ns)
{
	uint64_t secs = 0, frac = 0, scale = 1000000000;
	size_t i = 0;
	bool digits = false;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (secs > UINT64_MAX / 10 / 1000000000)
			return -1;
		secs = secs * 10 + (s[i] - '0');
		digits = true;
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			if (scale > 1) {
				scale /= 10;
				frac += (s[i] - '0') * scale;
			}
			digits = true;
		}
	}
	if (i != len || !digits)
		return -1;
	*ns = secs * 1000000000 + frac;
	return 0;
}

int fg_select__parse_time(const char *arg, struct fg_select *sel)
{
	const char *comma = strchr(arg, ',');
	size_t first = comma ? (size_t)(comma - arg) : strlen(arg);

	sel->time_start = 0;
	sel->time_end = 0;
	if ((first && parse_secs(arg, first, &sel->time_start)) ||
	    (comma && comma[1] && parse_secs(comma + 1, strlen(comma + 1), &sel->time_end)) ||
	    (sel->time_end && sel->time_end < sel->time_start)) {
		fprintf(stderr, "ember flamegraph: --time expects START,END in seconds "
				"(as perf script prints them), not '%s'\n",
			arg);
		return -1;
	}
	sel->has_time = true;
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
	if (sel->has_time &&
	    (s->time < sel->time_start || (sel->time_end && s->time > sel->time_end)))
		return false;
	return true;
}
