/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ember probe's stages: adding definitions (-a, or the words of the
 * command line), showing them (-D), listing what tracefs holds (-l) and
 * deleting by filter (-d). Messages are perf probe's, with ember in its
 * place; they go to stderr as perf's do, listings to stdout.
 */
#ifndef EMBER_SRC_PROBE_H
#define EMBER_SRC_PROBE_H

#include <stdbool.h>
#include <stddef.h>

/* perf's MAX_PROBES: definitions per command, and places per definition by default. */
#define PROBE_MAX_DEFS 128

struct probe_opts {
	const char *target;		/* -x, as given */
	char *exec;			/* -x made absolute (realpath), malloc'd */
	const char *defs[PROBE_MAX_DEFS];	/* -a / -D / the command line's words, joined */
	size_t nr_defs;
	bool definition;		/* -D: print the lines, add nothing */
	const char *dels[PROBE_MAX_DEFS];	/* -d */
	size_t nr_dels;
	bool list;
	const char *list_filter;	/* -l's filter, or NULL for all */
	bool force, dry_run, quiet;
	int verbose;
	int max_probes;
	char tracefs[4096];
};

/* Add (or with -D print) every definition. Returns the exit code, messages printed. */
int probe_add(struct probe_opts *o);
/* -l: the probes defined, perf's layout, to stdout. Returns the exit code. */
int probe_list(struct probe_opts *o);
/* -d: remove the probes the filters name. Returns the exit code. */
int probe_del(struct probe_opts *o);

/*
 * perf's event filter (its strfilter): globs joined by '|' and '&', '!'
 * and parentheses. Whether "group:event" (or its event alone) matches.
 * Returns 1, 0, or -EINVAL for a filter that does not parse.
 */
int probe_filter__match(const char *filter, const char *group, const char *event);

#endif
