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
	char *exec;			/* -x made absolute (realpath), malloc'd; for -L and -V
					 * without -x, the kernel's vmlinux */
	const char *vmlinux;		/* -k */
	bool kernel;			/* exec is the kernel's vmlinux */
	const char *defs[PROBE_MAX_DEFS];	/* -a / -D / the command line's words, joined */
	size_t nr_defs;
	bool definition;		/* -D: print the lines, add nothing */
	const char *dels[PROBE_MAX_DEFS];	/* -d */
	size_t nr_dels;
	bool list;
	const char *vars[PROBE_MAX_DEFS];	/* -V points */
	size_t nr_vars;
	bool externs;			/* --externs: -V lists the unit's globals too */
	bool range;			/* --range: -V shows where each variable is valid */
	const char *list_filter;	/* -l's filter, or NULL for all */
	bool force, dry_run, quiet;
	int verbose;
	int max_probes;
	const char *const *usage;	/* the command's usage lines */
	const char *line_range;		/* -L */
	const char *source;		/* -s: where the sources are */
	bool no_inlines;		/* --no-inlines */
	bool funcs;			/* -F */
	bool funcs_bare;		/* -F without its filter attached */
	const char *filters[PROBE_MAX_DEFS];	/* -F's and --filter's, any may match (perf ORs them) */
	size_t nr_filters;
	char tracefs[4096];
};

/* Add (or with -D print) every definition. Returns the exit code, messages printed. */
int probe_add(struct probe_opts *o);
/* -l: the probes defined, perf's layout, to stdout. Returns the exit code. */
int probe_list(struct probe_opts *o);
/* -d: remove the probes the filters name. Returns the exit code. */
int probe_del(struct probe_opts *o);

struct ember_probe_def;
struct ember_probe_trace;
struct ember_probe_dwarf;

/*
 * The arguments of def's nr places (traces, from DWARF or the symbol table) that
 * name variables, set from the -x binary's DWARF (opened into *dwarf,
 * which owns their strings: the caller deletes it). Returns 0 or the
 * exit code, perf's messages printed.
 */
int probe_vars__args(struct probe_opts *o, const struct ember_probe_def *def,
		     struct ember_probe_trace *traces, int nr, struct ember_probe_dwarf **dwarf);
/* -V: the variables at each point, perf's layout, to stdout. Returns the exit code. */
int probe_show_vars(struct probe_opts *o);

/*
 * perf's event filter (its strfilter): globs joined by '|' and '&', '!'
 * and parentheses. Whether "group:event" (or its event alone) matches.
 * Returns 1, 0, or -EINVAL for a filter that does not parse.
 */
int probe_filter__match(const char *filter, const char *group, const char *event);
/* The same filter over one name (-F's functions). 1, 0 or -EINVAL. */
int probe_filter__match_name(const char *filter, const char *name);
/* Whether one of -F's and --filter's filters matches name (perf ORs them): 1, 0, -EINVAL. */
int probe_filters__match(const struct probe_opts *o, const char *name);

struct ember_probe_def;
struct ember_probe_trace;
/*
 * The places of def in the -x binary through its DWARF, perf's messages
 * printed (unless -q). Returns the number of places; -ENODATA when the
 * symbol table is to be used (no DWARF and none needed, a return probe,
 * an address); -1 after a failure was told.
 */
int probe_places_dwarf(const struct probe_opts *o, const struct ember_probe_def *def,
		       struct ember_probe_trace *out, size_t max);
/* Whether tracefs appends a probe to an event of the same name (its README says so). */
bool probe_multiprobe(const char *tracefs);
/* perf's two lines saying path has no debug information. */
void probe_no_debuginfo(const char *path);
/*
 * -L and -V without -x read the kernel's DWARF: o->exec set to -k's
 * vmlinux, or to the one perf's search finds. 0, or the exit code after
 * perf's words (what: "show lines", "show vars").
 */
int probe_kernel_debuginfo(struct probe_opts *o, const char *what);
/* -L: a function's or a source file's lines, the probe-able ones numbered. Exit code. */
int probe_show_lines(struct probe_opts *o);
/* -F: the -x binary's (else the kernel's) functions perf lists, filtered. Exit code. */
int probe_show_funcs(struct probe_opts *o);

#endif
