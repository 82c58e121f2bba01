// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * "did you mean": for a name the parser does not know, the closest known
 * one by edit distance, among symbolic events, PMU aliases and tracepoints.
 */
#include <stdio.h>
#include <unistd.h>
#include "core/edit-distance.h"
#include "event/event-names.h"
#include "event/parse-events-priv.h"
#include "event/tracefs.h"

struct suggest {
	const char *want;
	size_t want_len;
	int limit;		/* farthest edit distance worth suggesting */
	int best;
	char *pick;		/* malloc'd */
	const char *suffix;	/* appended to symbolic picks (the typed ":mods") */
};

static void suggest_init(struct suggest *sg, const char *want, size_t len)
{
	memset(sg, 0, sizeof(*sg));
	sg->want = want;
	sg->want_len = len;
	sg->limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
	sg->best = sg->limit + 1;
}

/* Consider candidate cand (compared) standing for full (suggested; NULL: cand). */
static void suggest_consider(struct suggest *sg, const char *cand, const char *full,
			     const char *suffix)
{
	int d = edit_distance(sg->want, sg->want_len, cand, strlen(cand), sg->limit);
	char *pick;

	/* Distance 0 is the typed text itself, unless it stands for a longer name. */
	if ((d == 0 && !full) || d >= sg->best)
		return;
	if (asprintf(&pick, "%s%s", full ? full : cand, suffix ? suffix : "") < 0)
		return;
	free(sg->pick);
	sg->pick = pick;
	sg->best = d;
}

static int suggest_symbol_cb(const char *name, void *arg)
{
	struct suggest *sg = arg;

	suggest_consider(sg, name, NULL, sg->suffix);
	return 0;
}

static int suggest_tp_cb(const char *sys, const char *name, uint64_t id, void *arg)
{
	struct suggest *sg = arg;
	char full[512];

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	suggest_consider(sg, full, NULL, NULL);
	/* A bare name may be the tracepoint without its system. */
	if (!memchr(sg->want, ':', sg->want_len))
		suggest_consider(sg, name, full, NULL);
	return 0;
}

/* "did you mean 'x'?" for sg's pick, or NULL. */
static char *suggest_hint(struct suggest *sg)
{
	char *hint = NULL;

	if (sg->pick && asprintf(&hint, "did you mean '%s'?", sg->pick) < 0)
		hint = NULL;
	free(sg->pick);
	sg->pick = NULL;
	return hint;
}

static int count_cb(const char *sys, const char *name, uint64_t id, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

/*
 * Why a tracepoint a tutorial names is missing on this kernel, when that is
 * known: perf probe's groups ("probe" for kernel probes, "probe_BINARY" for
 * user probes) exist only once a probe was added, and only where the kernel
 * has kprobe/uprobe events; sched_stat_* need CONFIG_SCHEDSTATS. A
 * malloc'd hint, or NULL.
 */
static char *missing_reason(const char *root, const char *sys, const char *name, int nsys)
{
	char path[512], *hint = NULL;
	int r = -1;

	if (!strcmp(sys, "probe")) {
		snprintf(path, sizeof(path), "%s/kprobe_events", root);
		if (access(path, F_OK))
			r = asprintf(&hint, "probe:* events are kernel probes that 'ember probe --add' "
				     "creates; this kernel has no kprobes (no kprobe_events in "
				     "%s: CONFIG_KPROBE_EVENTS is off)", root);
		else
			r = asprintf(&hint, "probe:* events are kernel probes: add this one first "
				     "with 'ember probe --add %s'", name);
	} else if (!strncmp(sys, "probe_", 6)) {
		snprintf(path, sizeof(path), "%s/uprobe_events", root);
		if (access(path, F_OK))
			r = asprintf(&hint, "%s:* events are user probes that 'ember probe -x' "
				     "creates; this kernel has no uprobes (no uprobe_events in "
				     "%s: CONFIG_UPROBE_EVENTS is off)", sys, root);
		else
			r = asprintf(&hint, "%s:* events are user probes: add this one first with "
				     "'ember probe -x /path/to/%s --add %s'", sys, sys + 6, name);
	} else if (nsys && !strcmp(sys, "sched") && !strncmp(name, "sched_stat_", 11)) {
		r = asprintf(&hint, "the sched:sched_stat_* tracepoints exist only in kernels "
			     "built with CONFIG_SCHEDSTATS=y; this one is not");
	}
	return r < 0 ? NULL : hint;
}

/* "sys:name" does not exist: say which part, and suggest the closest. */
int parse_events__unknown_tracepoint(struct parser *p, int s, int colon, int end, const char *root)
{
	const char *spec = p->spec;
	char *sys = strndup(spec + s, colon - s), *name, *why;
	int nsys = 0;
	struct suggest sg;

	if (!sys)
		return parse_no_memory(p, s);
	tracefs__for_each_system(root, sys, count_cb, &nsys);
	name = strndup(spec + colon + 1, end - colon - 1);
	why = name ? missing_reason(root, sys, name, nsys) : NULL;
	free(name);
	if (why) {
		int ret = parse_events__fail_hint(p, -EINVAL, nsys ? colon + 1 : s, why,
						  "unknown tracepoint '%.*s'", end - s, spec + s);

		free(sys);
		return ret;
	}
	free(sys);
	suggest_init(&sg, spec + s, end - s);
	ember_tracefs__for_each_event(root, NULL, NULL, 0, suggest_tp_cb, &sg);
	if (!nsys) {
		/* Maybe a symbolic event with a typo before its modifiers: "cpu-clok:u". */
		struct suggest sym;
		char *suffix = strndup(spec + colon, end - colon);

		suggest_init(&sym, spec + s, colon - s);
		sym.suffix = suffix;
		event_names__for_each(suggest_symbol_cb, &sym);
		free(suffix);
		if (sym.pick && sym.best <= sg.best) {
			free(sg.pick);
			sg = sym;
		} else {
			free(sym.pick);
		}
		return parse_events__fail_hint(p, -EINVAL, s, suggest_hint(&sg),
					       "unknown event or tracepoint '%.*s'", end - s,
					       spec + s);
	}
	return parse_events__fail_hint(p, -EINVAL, colon + 1, suggest_hint(&sg),
				       "unknown tracepoint '%.*s'", end - s, spec + s);
}

static int suggest_pmu_alias(struct parser *p, struct suggest *sg)
{
	int nr = parse_events__list_pmus(p);

	for (int i = 0; i < nr; i++) {
		const char *name = p->pmu_names[i];
		const struct pmu *pmu = parse_events__get_pmu(p, name, strlen(name));

		for (int j = 0; pmu && j < pmu->nr_aliases; j++)
			suggest_consider(sg, pmu->aliases[j].name, NULL, NULL);
	}
	return 0;
}

int parse_events__unknown_event(struct parser *p, int s, int e)
{
	struct suggest sg;
	const char *root;

	suggest_init(&sg, p->spec + s, e - s);
	event_names__for_each(suggest_symbol_cb, &sg);
	suggest_pmu_alias(p, &sg);
	root = parse_events__tracefs(p);
	if (root)
		ember_tracefs__for_each_event(root, NULL, NULL, 0, suggest_tp_cb, &sg);
	return parse_events__fail_hint(p, -EINVAL, s, suggest_hint(&sg), "unknown event '%.*s'",
				       e - s, p->spec + s);
}
