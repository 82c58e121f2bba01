// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember probe: define, list and delete dynamic probes as perf probe does,
 * through tracefs' uprobe_events (-x BINARY) and kprobe_events (the
 * kernel). The lines written are perf's for the same command, so either
 * tool sees and removes the other's probes. This file reads the options
 * and picks the stage in src/probe/: add (or -D show), -l, -d.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/event.h>
#include "builtin.h"
#include "probe/probe.h"
#include "util/parse-options.h"

static const char *const probe_usage[] = {
	"ember probe [<options>] 'PROBEDEF' ['PROBEDEF' ...]",
	"ember probe [<options>] --add 'PROBEDEF' [--add 'PROBEDEF' ...]",
	"ember probe [<options>] --del '[GROUP:]EVENT' ...",
	"ember probe --list [GROUP:]EVENT ...",
	"ember probe [<options>] --line 'LINEDESC'",
	"ember probe [<options>] --vars 'PROBEPOINT'",
	"ember probe [<options>] --funcs",
	NULL,
};

static int usage_error(const char *msg)
{
	fprintf(stderr, "ember probe: %s\n", msg);
	return 2;
}

/* arg at the end of one of the options' lists, PROBE_MAX_DEFS at most; -1 told when full. */
static int append(const char **list, size_t *nr, const char *arg, const char *what)
{
	if (*nr == PROBE_MAX_DEFS) {
		fprintf(stderr, "ember probe: too many %s (at most %d)\n", what, PROBE_MAX_DEFS);
		return -1;
	}
	list[(*nr)++] = arg;
	return 0;
}

/* -a and -D: one definition each; the same list (perf's). */
static int opt_add(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	return append(o->defs, &o->nr_defs, arg, "probe definitions");
}

static int opt_definition(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	o->definition = true;
	return opt_add(opt, arg, unset);
}

static int opt_vars(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	return append(o->vars, &o->nr_vars, arg, "-V points");
}

static int opt_del(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	return append(o->dels, &o->nr_dels, arg, "-d filters");
}

/* -F, and --filter: filters, any of which may match (perf ORs them). */
static int add_filter(struct probe_opts *o, const char *filter)
{
	return append(o->filters, &o->nr_filters, filter, "filters");
}

static int opt_funcs(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	o->funcs = true;
	/* bare, its filter is the word after it, else perf's default (see cmd_probe) */
	if (arg && *arg)
		return add_filter(o, arg);
	o->funcs_bare = true;
	return 0;
}

/* --no-filter changes nothing in perf 6.1: -F's filter stays. */
static int opt_filter(const struct option *opt, const char *arg, bool unset)
{
	return unset || !arg ? 0 : add_filter(opt->value, arg);
}

static int opt_list(const struct option *opt, const char *arg, bool unset)
{
	struct probe_opts *o = opt->value;

	o->list = true;
	if (arg && *arg)
		o->list_filter = arg;
	return 0;
}

/* The words left on the command line: one definition (joined, as perf), or -l's filters. */
static char *join_words(int argc, const char **argv, const char *sep)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + strlen(sep);
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, sep);
		strcat(s, argv[i]);
	}
	return s;
}

static int run(struct probe_opts *o)
{
	int actions = !!o->nr_defs + !!o->nr_dels + o->list + !!o->line_range + o->funcs +
		      !!o->nr_vars;
	int err;

	if (actions == 0)
		return usage_error("nothing to do: give a probe definition, -l, -d, -L, -F or -V "
				   "(see --help)");
	if (actions > 1)
		return usage_error("only one of adding, -l, -d, -L, -F and -V at a time");
	if (o->max_probes < 0)
		return usage_error("--max-probes takes a number from 1");
	if (o->target) {
		o->exec = realpath(o->target, NULL);
		if (!o->exec) {
			fprintf(stderr, "ember probe: cannot use -x %s: %s\n", o->target,
				strerror(errno));
			return 2;
		}
	}
	err = ember_tracefs__find(o->tracefs, sizeof(o->tracefs));
	if (err) {
		fprintf(stderr, "ember probe: cannot find tracefs: %s%s\n", strerror(-err),
			err == -EACCES || err == -EPERM ? " (probes need root or CAP_SYS_ADMIN)" :
							  "");
		return 1;
	}
	if (o->funcs)
		return probe_show_funcs(o);
	if (!o->exec && (o->line_range || o->nr_vars)) {
		err = probe_kernel_debuginfo(o, o->line_range ? "show lines" : "show vars");
		if (err)
			return err;
	}
	if (o->line_range)
		return probe_show_lines(o);
	if (o->list)
		return probe_list(o);
	if (o->nr_dels)
		return probe_del(o);
	if (o->nr_vars)
		return probe_show_vars(o);
	return probe_add(o);
}

int cmd_probe(int argc, const char **argv)
{
	struct probe_opts *o = calloc(1, sizeof(*o));
	char *words = NULL;
	int ret;

	if (!o) {
		fprintf(stderr, "ember probe: out of memory\n");
		return 1;
	}
	const struct option options[] = {
		/* PROBEDEF: [[GROUP:]EVENT=]FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT [ARG ...] */
		OPT_CALLBACK('a', "add", o, "PROBEDEF", "probe point definition", opt_add),
		OPT_CALLBACK('D', "definition", o, "PROBEDEF",
			     "Show trace event definition of given traceevent for k/uprobe_events.",
			     opt_definition),
		OPT_CALLBACK('d', "del", o, "[GROUP:]EVENT", "delete a probe event.", opt_del),
		OPT_BOOLEAN('f', "force", &o->force, "forcibly add events with existing name"),
		{ OPTION_CALLBACK, 'F', "funcs", o, "[FILTER]", "Show potential probe-able functions.",
		  opt_funcs, OPTF_OPTARG, "" },
		OPT_STRING('k', "vmlinux", &o->vmlinux, "file", "vmlinux pathname"),
		OPT_STRING('L', "line", &o->line_range, "FUNC[:RLN[+NUM|-RLN2]]|SRC:ALN[+NUM|-ALN2]",
			   "Show source code lines."),
		{ OPTION_CALLBACK, 'l', "list", o, "[GROUP:]EVENT", "list up probe events", opt_list,
		  OPTF_OPTARG, "" },
		OPT_BOOLEAN('n', "dry-run", &o->dry_run, "dry run"),
		OPT_BOOLEAN(0, "no-inlines", &o->no_inlines, "Don't search inlined functions"),
		OPT_BOOLEAN('q', "quiet", &o->quiet,
			    "be quiet (do not show any warnings or messages)"),
		OPT_STRING('s', "source", &o->source, "directory", "path to kernel source"),
		OPT_INCR('v', "verbose", &o->verbose,
			 "be more verbose (show parsed arguments, etc)"),
		OPT_STRING('x', "exec", &o->target, "executable|path",
			   "target executable name or path"),
		OPT_CALLBACK(0, "filter", o, "[!]FILTER",
			     "Set a filter (with --vars/funcs only)\n\t\t\t(default: \"!__k???tab_* & "
			     "!__crc_*\" for --vars,\n\t\t\t \"!_* & !*@plt\" for --funcs)", opt_filter),
		OPT_CALLBACK('V', "vars", o, "FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT",
			     "Show accessible variables on PROBEDEF", opt_vars),
		OPT_BOOLEAN(0, "externs", &o->externs,
			    "Show external variables too (with --vars only)"),
		OPT_BOOLEAN(0, "range", &o->range,
			    "Show variables location range in scope (with --vars only)"),
		OPT_INTEGER(0, "max-probes", &o->max_probes, "n",
			    "Set how many probe points can be found for a probe."),
		OPT_END()
	};

	o->usage = probe_usage;
	argc = parse_options(argc, argv, options, probe_usage, 0);
	if ((ret = parse_options_exit_code(argc)) >= 0)
		goto out;
	/* perf's too: an absolute path before the definition is the -x target */
	if (argc > 0 && !o->target && !o->list && argv[0][0] == '/') {
		o->target = argv[0];
		argc--, argv++;
	}
	if (argc > 0) {
		words = join_words(argc, argv, o->list ? "|" : " ");
		if (!words) {
			fprintf(stderr, "ember probe: out of memory\n");
			ret = 1;
			goto out;
		}
		if (o->list) {
			o->list_filter = words;
		} else if (o->funcs_bare) {
			o->funcs_bare = false;
			add_filter(o, words);
		} else if (o->nr_dels || o->nr_defs) {
			ret = usage_error("give definitions either as words or with --add, and no "
					  "words with -d");
			goto out;
		} else {
			o->defs[o->nr_defs++] = words;
		}
	}
	/* -F bare and last: perf's default filter */
	if (o->funcs_bare && add_filter(o, "!_* & !*@plt")) {
		ret = 2;
		goto out;
	}
	ret = run(o);
out:
	free(words);
	free(o->exec);
	free(o);
	return ret;
}
