// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember report: perf report 6.1's --stdio output from a perf.data file
 * (or a pipe): the header lines, per event a table of entries merged by
 * the sort keys, Children/Self when callchains exist, and each entry's
 * callchain as a graph, fractal, flat or folded tree. On a terminal the
 * report opens in the TUI's browser (src/tui/), as perf's does; --stdio
 * there goes through a pager.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "builtin.h"
#include "report/run.h"
#include "util/parse-options.h"
#include "util/session-open.h"
#include "util/sysctl.h"

static const char *const report_usage[] = {
	"ember report [<options>]",
	NULL,
};

static int opt_children(const struct option *opt, const char *arg, bool unset)
{
	*(int *)opt->value = unset ? 0 : 1;
	return 0;
}

static int opt_callgraph(const struct option *opt, const char *arg, bool unset)
{
	struct report_opts *o = opt->value;

	o->callgraph_set = true;
	o->callgraph = unset ? "none" : arg ? arg : "";
	return 0;
}

static int opt_percent_limit(const struct option *opt, const char *arg, bool unset)
{
	struct report_opts *o = opt->value;
	char *end;

	o->min_percent = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "%"))) {
		fprintf(stderr, "ember report: invalid --percent-limit '%s'\n", arg);
		return -1;
	}
	o->min_percent_set = true;
	return 0;
}

static int opt_percentage(const struct option *opt, const char *arg, bool unset)
{
	struct report_opts *o = opt->value;

	if (!strcmp(arg, "relative") || !strcmp(arg, "r"))
		o->filter_relative = true;
	else if (!strcmp(arg, "absolute") || !strcmp(arg, "a"))
		o->filter_relative = false;
	else {
		fprintf(stderr, "ember report: --percentage takes 'relative' or 'absolute'\n");
		return -1;
	}
	return 0;
}

/*
 * perf's -g takes its argument from the next word unless that is an
 * option ("-g caller", "-g --stdio"); the option parser only knows
 * attached optional arguments, so rewrite "-g X" into "--call-graph=X".
 * The words made so are also listed in *made (NULL-terminated) for
 * free_words(): parse_options() reorders the vector, which then no longer
 * tells them apart.
 */
static const char **rewrite_callgraph(int *argcp, const char **argv, char ***made)
{
	int argc = *argcp, i, j = 0, m = 0;
	const char **v = calloc(argc + 1, sizeof(*v));

	*made = calloc(argc + 1, sizeof(**made));
	if (!v || !*made) {
		free(v);
		return NULL;
	}
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				v[j++] = argv[i++];
			break;
		}
		if (i && (!strcmp(argv[i], "-g") || !strcmp(argv[i], "--call-graph"))) {
			if (i + 1 < argc && argv[i + 1][0] != '-') {
				char *s;

				if (asprintf(&s, "--call-graph=%s", argv[i + 1]) < 0) {
					free(v);
					return NULL;
				}
				v[j++] = s;
				(*made)[m++] = s;
				i++;
			} else {
				v[j++] = "--call-graph=";
			}
			continue;
		}
		v[j++] = argv[i];
	}
	v[j] = NULL;
	*argcp = j;
	return v;
}

static void free_words(char **w)
{
	for (char **p = w; p && *p; p++)
		free(*p);
	free(w);
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "ember report: %s (see 'ember report --help')\n", msg);
	return 2;
}

/* Default callchain settings, then -g, -G, --percent-limit on top. */
static int setup_callchain_param(struct report *rep, bool children)
{
	struct ember_callchain_param *p = &rep->hopts.chain;

	ember_callchain_param__init(p);
	if (rep->o.callgraph_set && ember_callchain_param__parse(p, rep->o.callgraph))
		return usage_error("invalid -g/--call-graph argument");
	if (rep->o.inverted) {
		p->order = EMBER_CALLCHAIN_CALLER;
		p->order_set = true;
	}
	/* perf shows --children graphs from the callers down unless told otherwise */
	if (children && !p->order_set)
		p->order = EMBER_CALLCHAIN_CALLER;
	if (rep->o.min_percent_set)
		p->min_percent = rep->o.min_percent;
	return 0;
}

static bool file_has(struct ember_data_reader *r, uint64_t sample_bit)
{
	uint32_t i, nr = ember_data_reader__nr_attrs(r);

	for (i = 0; i < nr; i++)
		if (ember_data_reader__attr(r, i)->attr.sample_type & sample_bit)
			return true;
	return false;
}

static bool all_tracepoints(struct ember_data_reader *r)
{
	uint32_t i, nr = ember_data_reader__nr_attrs(r);

	for (i = 0; i < nr; i++)
		if (ember_data_reader__attr(r, i)->attr.type != PERF_TYPE_TRACEPOINT)
			return false;
	return nr > 0;
}

static int open_session(struct report *rep)
{
	struct ember_session_opts so = {
		.sz = sizeof(so),
		.force = rep->o.force,
		/* on_sample() resolves the sample's address when no folded stack has it */
		.lazy_sample_ip = true,
		/* perf's unwinder takes --max-stack frames */
		.max_stack = rep->o.max_stack,
		.no_inline = !rep->o.inline_frames,
		.symbol = {
			.sz = sizeof(so.symbol),
			.symfs = rep->o.symfs,
			.kallsyms = rep->o.kallsyms,
			.no_demangle = rep->o.no_demangle,
		},
	};

	rep->session = session_open("report", rep->o.input, &so);
	return rep->session ? 0 : 1;
}

static const char *shown_path(const struct report *rep)
{
	const char *path = ember_session__path(rep->session);

	return strcmp(path, "-") ? path : "standard input";
}

/*
 * A damaged file that left no sample fails, with one line saying why; a
 * whole file without samples is reported as perf reports it.
 */
static bool nothing_usable(const struct report *rep)
{
	char why[256];

	if (!ember_session__nothing_usable(rep->session, why, sizeof(why)))
		return false;
	fprintf(stderr, "ember report: %s: no samples: %s\n", shown_path(rep), why);
	return true;
}

/*
 * Keys ember shows with perf's value for "none" (weight 0, cgroup N/A...):
 * right for files without that data, so a file with it is refused.
 */
static bool refuse_absent_keys(const struct report *rep)
{
	static const struct {
		enum ember_hist_dim dim;
		uint64_t bits;
		const char *what;
	} keys[] = {
		{ EMBER_HIST_DIM_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT,
		  "sample weights" },
		{ EMBER_HIST_DIM_LOCAL_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT,
		  "sample weights" },
		{ EMBER_HIST_DIM_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "instruction latencies" },
		{ EMBER_HIST_DIM_LOCAL_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "instruction latencies" },
		{ EMBER_HIST_DIM_TRANSACTION, PERF_SAMPLE_TRANSACTION, "transaction flags" },
		{ EMBER_HIST_DIM_CGROUP, PERF_SAMPLE_CGROUP, "cgroups" },
		{ EMBER_HIST_DIM_CGROUP_ID, PERF_SAMPLE_CGROUP, "cgroups" },
		{ EMBER_HIST_DIM_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "code page sizes" },
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!(rep->layout.key_mask & EMBER_HIST_KEY(keys[i].dim)) ||
		    !file_has(rep->reader, keys[i].bits))
			continue;
		fprintf(stderr, "ember report: --sort %s: %s has %s, which ember cannot show yet\n",
			ember_hist_dim__name(keys[i].dim), shown_path(rep), keys[i].what);
		return true;
	}
	return false;
}

/* The single value of a one-entry filter list, or NULL. */
static const char *single(const char *list)
{
	return list && *list && !strchr(list, ',') ? list : NULL;
}

static const char *elide_value(const struct report *rep, enum ember_hist_dim d, const char **name)
{
	switch (d) {
	case EMBER_HIST_DIM_SYM:
		*name = "symbol";
		return single(rep->o.syms);
	case EMBER_HIST_DIM_DSO:
		*name = "dso";
		return single(rep->o.dsos);
	case EMBER_HIST_DIM_COMM:
		*name = "comm";
		return single(rep->o.comms);
	default:
		return NULL;
	}
}

/* perf hides a column its filter pins to one value (unless that hides them all). */
static void setup_elide(struct report *rep)
{
	struct ember_hist_layout *l = &rep->layout;
	bool all = true;
	int c;

	for (c = 0; c < l->nr_cols; c++) {
		const char *name;

		if (ember_hist_dim__is_value(l->cols[c]))
			continue;
		l->elide[c] = elide_value(rep, l->cols[c], &name) != NULL;
		all &= l->elide[c];
	}
	if (all)
		memset(l->elide, 0, sizeof(l->elide));
}

static void print_elide(const struct report *rep, FILE *fp)
{
	const struct ember_hist_layout *l = &rep->layout;
	int c;

	for (c = 0; c < l->nr_cols; c++) {
		const char *name, *v;

		if (l->elide[c] && (v = elide_value(rep, l->cols[c], &name)))
			fprintf(fp, "# %s: %s\n", name, v);
	}
}

/* The words parse_options() is given, and those made for it (see rewrite_callgraph()). */
struct report_args {
	const char **words;
	char **made;
};

/*
 * Parses the command line into rep->o. Returns -1 to go on, or the exit
 * status. The options point into args, freed with free_args() at the end.
 */
static int parse_args(struct report *rep, int argc, const char **argv, struct report_args *args)
{
	struct report_opts *o = &rep->o;
	const struct option options[] = {
		OPT_STRING('i', "input", &o->input, "file", "input file name"),
		OPT_BOOLEAN('f', "force", &o->force, "don't complain, do it"),
		OPT_INCR('v', "verbose", &o->verbose, "be more verbose"),
		OPT_BOOLEAN('q', "quiet", &o->quiet, "do not show any warnings or messages"),
		OPT_BOOLEAN('D', "dump-raw-trace", &o->dump, "dump raw trace in ASCII"),
		OPT_BOOLEAN(0, "stats", &o->stats, "display event stats"),
		OPT_BOOLEAN(0, "stdio", &o->stdio, "use the stdio interface"),
		OPT_BOOLEAN(0, "tui", &o->tui, "use the TUI interface (the default on a terminal)"),
		OPT_BOOLEAN(0, "header", &o->header, "show data header"),
		OPT_BOOLEAN(0, "header-only", &o->header_only, "show only data header"),
		OPT_BOOLEAN('I', "show-info", &o->show_full_info, "display extended information about the perf.data file"),
		OPT_BOOLEAN('n', "show-nr-samples", &o->show_nr_samples, "show a column with the number of samples"),
		OPT_BOOLEAN(0, "show-total-period", &o->show_total_period, "show a column with the sum of periods"),
		OPT_CALLBACK_NOARG(0, "children", &o->children, "accumulate callchains of children and show total overhead as well", opt_children),
		OPT_STRING('s', "sort", &o->sort_order, "key[,key2...]", "sort by key(s): pid comm dso symbol parent cpu socket srcline srcfile trace addr time symbol_size dso_size overhead overhead_sys overhead_us overhead_children sample period"),
		OPT_STRING('F', "fields", &o->field_order, "key[,keys...]", "output field(s): overhead period sample plus the sort keys"),
		OPT_STRING('t', "field-separator", &o->field_sep, "separator", "separator for columns, no spaces will be added between columns"),
		OPT_STRING('p', "parent", &o->parent_pattern, "regex", "regex filter to identify parent, see: '--sort parent'"),
		OPT_BOOLEAN('x', "exclude-other", &o->exclude_other, "only display entries with parent-match"),
		{ OPTION_CALLBACK, 'g', "call-graph", o, "print_type,threshold[,print_limit],order,sort_key[,branch],value",
		  "display call graph: graph, flat, fractal, folded or none; threshold (0.5); print limit; caller or callee; function or address; percent, period or count",
		  opt_callgraph, OPTF_OPTARG, "" },
		OPT_BOOLEAN('G', "inverted", &o->inverted, "alias for inverted call graph"),
		OPT_BOOLEAN(0, "inline", &o->inline_frames, "Show inline function"),
		OPT_UINTEGER(0, "max-stack", &o->max_stack, "n",
			     "Set the maximum stack depth when parsing the callchain, anything beyond the specified depth will be ignored. Default: kernel.perf_event_max_stack or 127"),
		{ OPTION_CALLBACK, 0, "percent-limit", o, "percent", "don't show entries under that percent", opt_percent_limit },
		{ OPTION_CALLBACK, 0, "percentage", o, "relative|absolute", "how to display percentage of filtered entries", opt_percentage },
		OPT_STRING('c', "comms", &o->comms, "comm[,comm...]", "only consider symbols in these comms"),
		OPT_STRING(0, "pid", &o->pids, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &o->tids, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_STRING('d', "dsos", &o->dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		OPT_STRING('S', "symbols", &o->syms, "symbol[,symbol...]", "only consider these symbols"),
		OPT_STRING('C', "cpu", &o->cpus, "cpu", "list of cpus to profile"),
		OPT_BOOLEAN('U', "hide-unresolved", &o->hide_unresolved, "only display entries resolved to a symbol"),
		OPT_STRING(0, "symfs", &o->symfs, "directory", "look for files with symbols relative to this directory"),
		OPT_STRING('k', "vmlinux", &o->kallsyms, "file", "kernel symbols (a kallsyms file)"),
		OPT_STRING(0, "kallsyms", &o->kallsyms, "file", "kallsyms pathname"),
		OPT_BOOLEAN(0, "no-demangle", &o->no_demangle, "do not demangle symbol names"),
		OPT_END(),
	};
	int ret;

	args->words = rewrite_callgraph(&argc, argv, &args->made);
	if (!args->words)
		return 1;
	ret = parse_options(argc, args->words, options, report_usage, 0);
	if (parse_options_exit_code(ret) >= 0)
		return parse_options_exit_code(ret);
	if (ret > 0)
		return usage_error("unexpected argument");
	return -1;
}

static void free_args(struct report_args *args)
{
	free(args->words);
	free_words(args->made);
}

/* perf's filters: --comms, --pid, --tid, --dsos, --symbols, --cpu. 0, or the exit status. */
static int make_filters(struct report *rep)
{
	const struct report_opts *o = &rep->o;
	struct ember_hist_filter_opts fo = {
		.sz = sizeof(fo),
		.comms = o->comms,
		.pids = o->pids,
		.tids = o->tids,
		.dsos = o->dsos,
		.syms = o->syms,
		.cpus = o->cpus,
	};
	char why[4096];

	rep->filters = ember_hist_filters__new(&fo, why, sizeof(why));
	if (rep->filters)
		return 0;
	if (errno == EINVAL)
		fprintf(stderr, "ember report: invalid %s\n", why);
	return 2;
}

/* Whether reading the file failed (err, said so) or left nothing usable (said why). */
static bool unreadable(const struct report *rep, int err)
{
	if (err) {
		fprintf(stderr, "ember report: reading %s failed: %s\n", shown_path(rep),
			strerror(-err));
		return true;
	}
	return nothing_usable(rep);
}

/*
 * The report's first lines: the file's header with --header, else (not
 * with -q) where to find it and the values of the columns hidden.
 */
static void print_header(const struct report *rep)
{
	if (rep->o.header) {
		ember_data_reader__fprintf_header(rep->reader, stdout, rep->o.show_full_info);
	} else if (!rep->o.quiet) {
		fputs("# To display the perf.data header info, please use "
		      "--header/--header-only options.\n#\n", stdout);
		print_elide(rep, stdout);
	}
}

/* -D (the records, then their counts) or --stats (the counts). The exit status. */
static int dump_file(struct report *rep)
{
	/* perf -D: the header lines of the report first, then the records */
	if (rep->o.dump)
		print_header(rep);
	if (unreadable(rep, report__dump(rep)))
		return 1;
	report__dump_stats(rep, stdout);
	/* perf --stats shows the counts and nothing else */
	if (rep->o.dump)
		ember_session__fprintf_warnings(rep->session, stderr);
	return 0;
}

/*
 * The histograms' callchain options: callchains are shown when the file
 * has them, cumulated (--children) by default then. 0, or the exit status.
 */
static int setup_callchains(struct report *rep, bool *children)
{
	const struct report_opts *o = &rep->o;
	int ret;

	rep->have_callchain = file_has(rep->reader, PERF_SAMPLE_CALLCHAIN);
	if (o->callgraph_set && strcmp(o->callgraph, "none") && !rep->have_callchain &&
	    !rep->pipe) {
		fprintf(stderr, "Selected -g or --branch-history.\nBut no callchain or branch data.\n"
				"Did you call 'perf record' without -g or -b?\n");
		return 1;
	}
	/* in pipe mode perf decides before it knows the events: no --children */
	*children = rep->have_callchain && o->children != 0 && (!rep->pipe || o->children == 1);
	ret = setup_callchain_param(rep, rep->have_callchain && o->children != 0);
	if (ret)
		return ret;
	if (!rep->have_callchain)
		rep->hopts.chain.mode = EMBER_CALLCHAIN_NONE;
	rep->hopts.use_callchain = rep->have_callchain &&
				   rep->hopts.chain.mode != EMBER_CALLCHAIN_NONE;
	rep->hopts.children = *children;
	rep->hopts.parent_pattern = o->parent_pattern;
	rep->hopts.exclude_other = o->exclude_other;
	return 0;
}

/* The sort keys and columns (--sort, -F, -p, -n...). 0, or the exit status. */
static int setup_layout(struct report *rep, bool children)
{
	const struct report_opts *o = &rep->o;
	struct ember_hist_layout_opts lo = {
		.sz = sizeof(lo),
		.sort_order = o->sort_order,
		.field_order = o->field_order,
		.children = children,
		.show_nr_samples = o->show_nr_samples,
		.show_total_period = o->show_total_period,
		/*
		 * perf sorts a file of tracepoints only by their text; a
		 * pipe's events are not known when it decides
		 */
		.default_sort = all_tracepoints(rep->reader) && !rep->pipe ? "trace" :
									      "comm,dso,sym",
	};
	char *sort = NULL, bad[128] = "";
	int err;

	/* perf: a parent pattern of one's own adds the parent key */
	if (o->parent_pattern) {
		if (asprintf(&sort, "%s%s,parent", o->sort_order ? "" : "+",
			     o->sort_order ? o->sort_order : "") < 0)
			return 1;
		lo.sort_order = sort;
	}
	err = ember_hist_layout__setup(&rep->layout, &lo, bad, sizeof(bad));
	free(sort);
	if (err == -EINVAL && ember_hist_dim__unsupported(bad)) {
		fprintf(stderr, "ember report: --sort %s: %s\n", bad,
			ember_hist_dim__unsupported(bad));
		return 2;
	} else if (err == -EINVAL) {
		fprintf(stderr, "Error:\nUnknown --sort key: `%s'\n", bad);
		return 2;
	} else if (err) {
		return 1;
	}
	if (refuse_absent_keys(rep))
		return 1;
	if ((rep->layout.key_mask & EMBER_HIST_KEY(EMBER_HIST_DIM_PARENT)) && !rep->have_callchain &&
	    !rep->pipe) {
		fprintf(stderr, "Selected --sort parent, but no callchain data. Did you call 'perf record' without -g?\n");
		return 1;
	}
	setup_elide(rep);
	return 0;
}

/*
 * perf's choice of interface: the browser when standard output is a
 * terminal (--tui on a terminal too), unless --stdio, an output only
 * stdio has (the header, -D, --stats), or the file read from standard
 * input (perf then prints: its browser reads the keys there).
 */
static bool use_tui(const struct report *rep)
{
	const struct report_opts *o = &rep->o;

	return !o->stdio && isatty(STDOUT_FILENO) && !o->dump && !o->stats && !o->header &&
	       !o->header_only && strcmp(ember_session__path(rep->session), "-");
}

/* The file read into the histograms, shown in the browser. The exit status, -1: print it. */
static int browse_report(struct report *rep)
{
	if (unreadable(rep, report__process(rep)))
		return 1;
	ember_session__fprintf_warnings(rep->session, stderr);
	if (!ember_session__stats(rep->session)->nr_samples) {
		fprintf(stderr, "Error:\nThe %s data has no samples!\n",
			ember_session__path(rep->session));
		return 0;
	}
	return report__browse(rep);
}

/* The report printed, from the histograms read (processed) or from the file. The exit status. */
static int print_report(struct report *rep, bool processed)
{
	const struct report_opts *o = &rep->o;

	if (!processed && unreadable(rep, report__process(rep)))
		return 1;
	if (!processed)
		ember_session__fprintf_warnings(rep->session, stderr);
	print_header(rep);
	/* perf refuses -t '.' (its names have dots), after the header lines */
	if (o->field_sep && o->field_sep[0] == '.') {
		if (!o->quiet)
			fputs("'.' is the only non valid --field-separator argument\n", stderr);
		return 0;
	}
	/* perf: a whole recording without samples gets its header lines and this, status 0 */
	if (!ember_session__stats(rep->session)->nr_samples) {
		fprintf(stderr, "Error:\nThe %s data has no samples!\n",
			ember_session__path(rep->session));
		return 0;
	}
	report__print(rep, stdout);
	return 0;
}

/* What the options ask of the file, once they are known. The exit status. */
static int report_file(struct report *rep)
{
	const struct report_opts *o = &rep->o;
	bool children, tui;
	int ret = make_filters(rep);

	if (ret)
		return ret;
	if (open_session(rep))
		return 1;
	rep->reader = ember_session__reader(rep->session);
	rep->pipe = ember_data_reader__is_pipe(rep->reader);
	rep->dump_name = rep->pipe ? "pipe" : "perf.data";
	if (o->input && strcmp(o->input, "-") && !rep->pipe)
		rep->dump_name = o->input;

	tui = use_tui(rep);
	if (isatty(STDOUT_FILENO) && !o->dump && !o->stats && !tui)
		report_pager__start(&rep->pager);
	if (o->header_only) {
		ember_data_reader__fprintf_header(rep->reader, stdout, o->show_full_info);
		return 0;
	}
	if (o->dump || o->stats)
		return dump_file(rep);
	ret = setup_callchains(rep, &children);
	if (!ret)
		ret = setup_layout(rep, children);
	if (!ret && tui) {
		ret = browse_report(rep);
		/* a terminal that cannot hold the browser gets the pager, as perf's */
		if (ret == -1) {
			report_pager__start(&rep->pager);
			ret = print_report(rep, true);
		}
	} else if (!ret) {
		ret = print_report(rep, false);
	}
	return ret;
}

int cmd_report(int argc, const char **argv)
{
	struct report rep = { .o = { .children = -1, .max_stack = sysctl__max_stack(),
				     .inline_frames = true } };
	struct report_args args = { 0 };
	int ret;

	rep.argc = argc;
	rep.argv = argv;
	ret = parse_args(&rep, argc, argv, &args);

	if (ret < 0)
		ret = report_file(&rep);
	/* A full disk or a closed pipe must not pass for a finished report. */
	if ((fflush(stdout) || ferror(stdout)) && !ret) {
		fprintf(stderr, "ember report: cannot write the report: %s\n", strerror(errno));
		ret = 1;
	}
	report_pager__finish(&rep.pager);
	ember_hist_feed__delete(rep.feed);
	ember_hist_filters__delete(rep.filters);
	ember_session__delete(rep.session);
	free_args(&args);
	return ret;
}
