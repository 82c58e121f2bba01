// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember probe's variables from DWARF: the arguments of each place that
 * name variables (or are $vars / $params) turned into fetch arguments
 * before the lines are made, and -V, the variables available at a
 * probe point, in perf's layout and words.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/probe.h>
#include "probe/probe.h"

/* Room for perf's messages about one place. */
#define MSG_MAX 4096

static struct ember_probe_dwarf *open_dwarf(const struct probe_opts *o, const char *path,
					   const char *what)
{
	struct ember_probe_dwarf *d = ember_probe_dwarf__open(path);

	if (d)
		return d;
	if (errno == ENOMEM)
		fprintf(stderr, "ember probe: out of memory\n");
	else if (!o->quiet) {
		/* perf's words when the binary has no debug information (none with -q) */
		probe_no_debuginfo(path);
		fprintf(stderr, "  Error: Failed to %s.\n", what);
	}
	return NULL;
}

int probe_vars__args(struct probe_opts *o, const struct ember_probe_def *def,
		     struct ember_probe_trace *traces, int nr, struct ember_probe_dwarf **dwarf)
{
	char msg[MSG_MAX];
	int err;

	if (!nr || !o->exec || !ember_probe_def__needs_dwarf_args(def))
		return 0;
	*dwarf = open_dwarf(o, o->exec, "add events");
	if (!*dwarf)
		return 1;
	err = ember_probe_dwarf__args(*dwarf, def, traces, (size_t)nr, msg, sizeof(msg));
	/* -q: not a word, not even why (perf's) */
	if (!o->quiet)
		fputs(msg, stderr);
	if (err == -ENOMEM) {
		fprintf(stderr, "ember probe: out of memory\n");
		return 1;
	}
	if (err) {
		if (!o->quiet)
			fprintf(stderr, "  Error: Failed to add events.\n");
		return 1;
	}
	return 0;
}

/* perf's default --filter for -V: no kernel symbol tables or CRCs. */
#define VARS_FILTER "!__k???tab_* & !__crc_*"

/*
 * Whether --filter's (or else perf's default) leaves a line out. perf
 * matches against the line after its first tab (the name, or with
 * --range what follows [VAL]). 1, 0, -EINVAL for a filter that does not parse.
 */
static int filtered_out(const struct probe_opts *o, const char *line)
{
	const char *s = strchr(line, '\t');
	int m;

	s = s ? s + 1 : line;
	m = o->nr_filters ? probe_filters__match(o, s) : probe_filter__match_name(VARS_FILTER, s);
	return m < 0 ? m : !m;
}

struct shown {
	const struct probe_opts *o;
	FILE *out;		/* the lines, printed after the place's header */
	unsigned int nr;
};

static int show_var(const char *line, void *arg)
{
	struct shown *s = arg;
	int out = filtered_out(s->o, line);

	if (out)
		return out < 0 ? out : 0;
	fprintf(s->out, "\t\t%s\n", line);
	s->nr++;
	return 0;
}

/*
 * The places of a -V point: DWARF's, as perf finds them (lines, patterns,
 * globs in DWARF's order, inlined copies), else the symbol table's (a
 * return probe, an address). When none is found, perf's words: what the
 * search said, then that the point has no address (nothing found, or no
 * symbol for perf's retry) or that the analysis failed (a source file or
 * line perf cannot retry at a symbol, or the retry's address is outside
 * DWARF). Returns the number of places, or -1 after telling why.
 */
static int find_places(struct probe_opts *o, const struct ember_probe_def *def,
		       struct ember_probe_trace *traces, size_t max)
{
	struct ember_probe_dwarf_opts opts = {
		.sz = sizeof(opts), .no_inlines = o->no_inlines, .source_prefix = o->source,
		.kernel = o->kernel,
	};
	char msg[MSG_MAX], point[1024];
	char *last;
	int n = ember_probe__resolve_dwarf(def, o->exec, &opts, traces, max, msg, sizeof(msg));

	if (n == -ENODATA)
		n = ember_probe__resolve_uprobe(def, o->exec, traces, max);
	if (n > 0 || o->quiet)
		return n > 0 ? n : -1;
	if (n == -ENOMEM) {
		fprintf(stderr, "ember probe: out of memory\n");
		return -1;
	}
	ember_probe_def__point(def, point, sizeof(point));
	/* adding's "Probe point '...' not found." is not -V's */
	if (n == -ENODEV && (last = strstr(msg, "Probe point '")))
		*last = '\0';
	fputs(msg, stderr);
	if (n == -ENODEV ? !def->function || def->file ||
				   strstr(msg, "Failed to find debug information") :
			   n != -ENOENT)
		fprintf(stderr, "Debuginfo analysis failed.\n");
	else
		fprintf(stderr, "Failed to find the address of %s\n", point);
	fprintf(stderr, "  Error: Failed to show vars.\n");
	return -1;
}

/* The places of one -V point, each with its variables. 0 or the exit code. */
static int show_point(struct probe_opts *o, struct ember_probe_dwarf *d, const char *text)
{
	struct ember_probe_def def = { 0 };
	struct ember_probe_trace *traces;
	char point[1024], where[1024], *listing = NULL;
	size_t max = (size_t)(o->max_probes > 0 ? o->max_probes : PROBE_MAX_DEFS), len = 0;
	FILE *out;
	int n, ret = 0;

	n = ember_probe_def__parse(&def, text);
	if (n) {
		fprintf(stderr, "ember probe: bad probe point '%s': %s\n", text, def.err);
		return 2;
	}
	traces = calloc(max, sizeof(*traces));
	if (!traces) {
		ember_probe_def__exit(&def);
		fprintf(stderr, "ember probe: out of memory\n");
		return 1;
	}
	n = find_places(o, &def, traces, max);
	if (n < 0) {
		ret = 1;
		goto out;
	}
	/* every place first, then the listing: a failure prints none of it (perf's) */
	out = open_memstream(&listing, &len);
	if (!out) {
		fprintf(stderr, "ember probe: out of memory\n");
		ret = 1;
		goto out;
	}
	for (int i = 0; i < n && !ret; i++) {
		struct shown s = { .o = o };
		char *lines = NULL;
		size_t nlines = 0;
		int err;

		s.out = open_memstream(&lines, &nlines);
		if (!s.out) {
			ret = -ENOMEM;
			break;
		}
		err = ember_probe_dwarf__vars(d, &traces[i], traces[i].event,
					      (o->externs ? EMBER_PROBE_VARS_EXTERNS : 0) |
						      (o->range ? EMBER_PROBE_VARS_RANGE : 0),
					      where, sizeof(where), show_var, &s);
		if (fclose(s.out) && !err)
			err = -ENOMEM;
		if (!err) {
			fprintf(out, "\t@<%s>\n", where);
			fputs(s.nr ? lines : "\t\t(No matched variables)\n", out);
		} else if (err == -ENOMEM) {
			ret = -ENOMEM;
		} else {
			/* no function there in the debug information: where holds the address */
			if (!o->quiet)
				fprintf(stderr, "Failed to find debug information for address %s\n"
					"Debuginfo analysis failed.\n  Error: Failed to show vars.\n",
					where);
			ret = 1;
		}
		free(lines);
	}
	if (fclose(out) && !ret)
		ret = -ENOMEM;
	if (ret == -ENOMEM) {
		fprintf(stderr, "ember probe: out of memory\n");
		ret = 1;
	}
	if (!ret) {
		ember_probe_def__point(&def, point, sizeof(point));
		printf("Available variables at %s\n%s", point, listing);
	}
	free(listing);
out:
	free(traces);
	ember_probe_def__exit(&def);
	return ret;
}

int probe_show_vars(struct probe_opts *o)
{
	struct ember_probe_dwarf *d;
	int ret = 0;

	if (!o->exec) {
		fprintf(stderr, "ember probe: -V on the kernel needs its debug information (vmlinux), "
			"which ember probe does not read yet; give -x BINARY\n");
		return 1;
	}
	if (o->nr_filters && probe_filters__match(o, "") < 0) {
		fprintf(stderr, "ember probe: cannot parse the filter\n");
		return 2;
	}
	d = open_dwarf(o, o->exec, "show vars");
	if (!d)
		return 1;
	for (size_t i = 0; i < o->nr_vars && !ret; i++)
		ret = show_point(o, d, o->vars[i]);
	ember_probe_dwarf__delete(d);
	return ret;
}
