// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember flamegraph: one interactive SVG flame graph straight from a
 * perf.data file (no perf script text in between), or from folded stacks
 * as flamegraph.pl takes them; folded stacks out with --folded; a
 * differential graph of two inputs with --diff. `perf script |
 * stackcollapse-perf.pl | flamegraph.pl` in one step, with the same
 * output.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ember/event.h>
#include <ember/flame.h>

#include "builtin.h"
#include "flamegraph/flamegraph.h"
#include "util/parse-options.h"

static const char *const flamegraph_usage[] = {
	"ember flamegraph [<options>] [-i perf.data | <folded-file>] [-o flame.svg]",
	"ember flamegraph --diff [<options>] <before> <after>",
	NULL,
};

/* A positive finite number no bigger than max into opt->value (0 when unset). */
static int parse_positive(const struct option *opt, const char *arg, bool unset, double max)
{
	double *v = opt->value;
	char *end;

	if (unset) {
		*v = 0;
		return 0;
	}
	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*v) || *v <= 0 || *v > max) {
		fprintf(stderr, "ember flamegraph: --%s expects a positive number, not '%s'\n",
			opt->long_name, arg);
		return -1;
	}
	return 0;
}

static int opt_number(const struct option *opt, const char *arg, bool unset)
{
	return parse_positive(opt, arg, unset, 1e6);
}

/* --factor, --total: any positive finite number, large or small. */
static int opt_positive(const struct option *opt, const char *arg, bool unset)
{
	return parse_positive(opt, arg, unset, INFINITY);
}

static int opt_pids(const struct option *opt, const char *arg, bool unset)
{
	struct fg_select *sel = opt->value;

	return fg_select__parse_list(arg, "pid", &sel->pids, &sel->nr_pids);
}

static int opt_tids(const struct option *opt, const char *arg, bool unset)
{
	struct fg_select *sel = opt->value;

	return fg_select__parse_list(arg, "tid", &sel->tids, &sel->nr_tids);
}

static int opt_comms(const struct option *opt, const char *arg, bool unset)
{
	struct fg_select *sel = opt->value;

	return fg_select__parse_comms(arg, &sel->comms, &sel->nr_comms);
}

static int opt_cpus(const struct option *opt, const char *arg, bool unset)
{
	struct fg_select *sel = opt->value;

	ember_cpu_map__put(sel->cpus);
	sel->cpus = ember_cpu_map__new(arg);
	if (!sel->cpus || ember_cpu_map__nr(sel->cpus) <= 0) {
		fprintf(stderr, "ember flamegraph: --cpu expects a cpu list like 0-3,6, not '%s'\n",
			arg);
		return -1;
	}
	return 0;
}

static int opt_time(const struct option *opt, const char *arg, bool unset)
{
	return fg_select__parse_time(arg, opt->value);
}

static bool stdin_is_pipe(void)
{
	struct stat st;

	return !fstat(STDIN_FILENO, &st) && (S_ISFIFO(st.st_mode) || S_ISREG(st.st_mode));
}

static int check_annotate(const char *arg)
{
	char *copy = strdup(arg), *save = NULL;
	int ret = 0;

	if (!copy)
		return -1;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (strcmp(t, "kernel") && strcmp(t, "jit") && strcmp(t, "all")) {
			fprintf(stderr, "ember flamegraph: --annotate takes kernel, jit or all, not '%s'\n",
				t);
			ret = -1;
			break;
		}
	}
	free(copy);
	return ret;
}

static void report_input(const struct fg_opts *opts, const char *path,
			 const struct fg_input_stats *st)
{
	const char *name = strcmp(path, "-") ? path : "standard input";

	if (opts->quiet)
		return;
	if (st->ignored)
		fprintf(stderr, "ember flamegraph: %s: ignored %" PRIu64 " line%s with invalid "
				"format (the first is line %" PRIu64 ")%s\n",
			name, st->ignored, st->ignored == 1 ? "" : "s", st->first_ignored,
			st->binary ? ", some binary" : "");
	if (st->other_event && st->event)
		fprintf(stderr, "ember flamegraph: %s: drawing event '%s' only, %" PRIu64 " samples "
				"of other events left out (choose one with --event)\n",
			name, st->event, st->other_event);
	if (st->no_debuginfo)
		fprintf(stderr, "ember flamegraph: %s: --inline could not read %" PRIu64 " binar%s; "
				"their frames are drawn without inlined functions\n",
			name, st->no_debuginfo, st->no_debuginfo == 1 ? "y" : "ies");
	if (st->perf_data && st->no_callchain)
		fprintf(stderr, "ember flamegraph: %s has no callchains (record with -g): each "
				"sample is drawn as its sampled function alone\n",
			name);
}

/* Says why nothing was drawn; always an error. */
static void report_empty(const struct fg_opts *opts, const char *path,
			 const struct fg_input_stats *st)
{
	const char *name = strcmp(path, "-") ? path : "standard input";

	if (!st->perf_data)
		fprintf(stderr, "ember flamegraph: no stack counts found in %s%s\n", name,
			st->ignored ? " (no line has the form 'frame;frame;... count')" : "");
	else if (st->skipped || st->left_out)
		fprintf(stderr, "ember flamegraph: no samples of %s are left after the selection "
				"(%" PRIu64 " left out)\n",
			name, st->skipped + st->left_out);
	else
		fprintf(stderr, "ember flamegraph: no samples in %s\n", name);
}

/* Reads each input into fl and says what it made of it; 0, or 1 after saying why not. */
static int read_inputs(struct ember_flame *fl, const struct fg_opts *o, const char **inputs,
		       int nr_inputs, struct fg_input_stats *st)
{
	for (int i = 0; i < nr_inputs; i++) {
		enum ember_flame_side side = o->diff && i == 0 ? EMBER_FLAME_BEFORE
							       : EMBER_FLAME_AFTER;

		if (fg_read_input(fl, inputs[i], side, o, &st[i]))
			return 1;
		report_input(o, inputs[i], &st[i]);
		if ((side == EMBER_FLAME_BEFORE ? ember_flame__total_before(fl)
						: ember_flame__total(fl)) <= 0) {
			report_empty(o, inputs[i], &st[i]);
			return 1;
		}
	}
	/* As flamegraph.pl: a --total below the input's is ignored, said when it is not rounding. */
	if (o->total && o->total < ember_flame__total(fl) && !o->quiet &&
	    o->total / ember_flame__total(fl) > 0.02)
		fprintf(stderr, "ember flamegraph: --total %g is less than the input's total %.15g; "
				"ignored\n",
			o->total, ember_flame__total(fl));
	if (o->normalize && ember_flame__normalize(fl)) {
		fprintf(stderr, "ember flamegraph: cannot normalize: %s has no counts\n", inputs[0]);
		return 1;
	}
	return 0;
}

/* Writes the folded stacks or the SVG to output; 0, or 1 after saying why not. */
static int write_output(struct ember_flame *fl, const struct fg_opts *o, const char *output,
			const struct ember_flame_svg_opts *so, struct ember_flame_svg_stats *sst)
{
	struct fg_output out;
	int err;

	if (fg_output__open(&out, output))
		return 1;
	err = o->folded ? ember_flame__write_folded(fl, out.fp, 0)
			: ember_flame__write_svg(fl, out.fp, so, sst);
	if (err) {
		/* -EIO is the stream's error: errno still says which (ENOSPC). */
		int why = err == -EIO && errno ? errno : -err;

		fg_output__close(&out, false);
		fprintf(stderr, "ember flamegraph: cannot write %s: %s\n", output,
			!o->folded && err == -EINVAL ? "invalid drawing options" : strerror(why));
		return 1;
	}
	return fg_output__close(&out, true) ? 1 : 0;
}

int fg_run(struct fg_opts *o, const char **inputs, int nr_inputs)
{
	struct ember_flame_opts fopts = {
		.sz = sizeof(fopts),
		.flamechart = o->flamechart,
		.reverse = o->reverse,
	};
	struct ember_flame_svg_opts sopts;
	struct ember_flame_svg_stats sst;
	struct fg_input_stats st[2] = { 0 };
	const struct fg_input_stats *last = &st[nr_inputs - 1];
	struct ember_flame *fl = NULL;
	const char *output = o->output ? o->output : o->folded ? "-" : "flame.svg";
	int ret, err;

	ret = fg_svg_opts__init(&sopts, o);
	if (ret)
		goto out;
	ret = 1;
	fl = ember_flame__new(&fopts);
	if (!fl) {
		fprintf(stderr, "ember flamegraph: out of memory\n");
		goto out;
	}
	if (read_inputs(fl, o, inputs, nr_inputs, st))
		goto out;
	if (o->cp) {
		sopts.palette_map = ember_flame_palette_map__read(o->cp);
		if (!sopts.palette_map) {
			fprintf(stderr, "ember flamegraph: cannot read the palette %s: %s\n", o->cp,
				errno == EINVAL ? "not 'name->rgb(r,g,b)' lines" : strerror(errno));
			goto out;
		}
	}
	if (write_output(fl, o, output, &sopts, &sst))
		goto out;
	if (sopts.palette_map) {
		err = ember_flame_palette_map__write(sopts.palette_map, o->cp);
		if (err) {
			fprintf(stderr, "ember flamegraph: cannot write the palette %s: %s\n", o->cp,
				strerror(-err));
			goto out;
		}
	}
	if (!o->quiet && strcmp(output, "-")) {
		if (o->folded)
			fprintf(stderr, "ember flamegraph: wrote %s\n", output);
		else
			fprintf(stderr, "ember flamegraph: wrote %s (%" PRIu64 " %s, %zu frames)\n",
				output, last->samples, last->perf_data ? "samples" : "stacks",
				sst.frames);
	}
	ret = 0;
out:
	for (int i = 0; i < 2; i++)
		free(st[i].event_buf);
	fg_svg_opts__exit(&sopts);
	ember_flame__delete(fl);
	return ret;
}

/*
 * The inputs named (into inputs[2]) and the options checked against each
 * other; the number of inputs, or -1 after saying what is wrong.
 */
static int check_options(struct fg_opts *o, int argn, const char **argv, const char **inputs)
{
	int nr;

	if (o->diff) {
		if (argn != 2 || o->input) {
			fprintf(stderr, "ember flamegraph: --diff takes two inputs: <before> <after>\n");
			return -1;
		}
		inputs[0] = argv[0];
		inputs[1] = argv[1];
		nr = 2;
	} else {
		if (argn > 1 || (argn == 1 && o->input)) {
			fprintf(stderr, "ember flamegraph: one input only (or --diff <before> <after>)\n");
			return -1;
		}
		/* --negate also swaps the hues of folded input with two counts per line. */
		if (o->normalize) {
			fprintf(stderr, "ember flamegraph: --normalize needs --diff\n");
			return -1;
		}
		/* As perf report (and flamegraph.pl): no input named, and stdin redirected, means stdin. */
		inputs[0] = argn ? argv[0] : o->input ? o->input : stdin_is_pipe() ? "-" : "perf.data";
		nr = 1;
	}
	if (o->hash && o->random_colors) {
		fprintf(stderr, "ember flamegraph: --hash and --random exclude each other\n");
		return -1;
	}
	if (o->kernel_only && o->user_only) {
		fprintf(stderr, "ember flamegraph: --kernel-only and --user-only exclude each other\n");
		return -1;
	}
	if (o->annotate && check_annotate(o->annotate))
		return -1;
	if (o->folded && (o->flamechart && o->diff)) {
		fprintf(stderr, "ember flamegraph: --flamechart and --diff do not mix\n");
		return -1;
	}
	if (o->width && (o->width < 40 || o->width > 1000000)) {
		fprintf(stderr, "ember flamegraph: --width must be between 40 and 1000000 pixels\n");
		return -1;
	}
	if (o->height > 10000) {
		fprintf(stderr, "ember flamegraph: --height must be at most 10000 pixels\n");
		return -1;
	}
	return nr;
}

int cmd_flamegraph(int argc, const char **argv)
{
	struct fg_opts o = { 0 };
	const struct option options[] = {
		OPT_GROUP("Input and output"),
		OPT_STRING('i', "input", &o.input, "file",
			   "perf.data file or folded stacks (default: perf.data; - for stdin)"),
		OPT_STRING('o', "output", &o.output, "file",
			   "where to write (default: flame.svg, stdout with --folded; - for stdout)"),
		OPT_BOOLEAN(0, "folded", &o.folded,
			    "write folded stacks (comm;frame;frame count) instead of an SVG"),
		OPT_BOOLEAN(0, "diff", &o.diff,
			    "differential flame graph of two inputs: <before> <after>"),
		OPT_BOOLEAN('n', "normalize", &o.normalize,
			    "with --diff: scale <before> to the total of <after>"),
		OPT_BOOLEAN(0, "negate", &o.negate,
			    "differential graphs: swap red and blue (grew blue, shrank red)"),
		OPT_BOOLEAN('f', "force", &o.force, "read a perf.data file not owned by you"),
		OPT_BOOLEAN('q', "quiet", &o.quiet, "no progress line, notes or 'wrote' message"),
		OPT_GROUP("Sample selection (perf.data)"),
		OPT_CALLBACK(0, "pid", &o.select, "pid[,pid...]", "only these processes", opt_pids),
		OPT_CALLBACK(0, "tid", &o.select, "tid[,tid...]", "only these threads", opt_tids),
		OPT_CALLBACK(0, "comm", &o.select, "comm[,comm...]", "only these commands",
			     opt_comms),
		OPT_CALLBACK('C', "cpu", &o.select, "cpus", "only samples on these cpus (0-3,6)",
			     opt_cpus),
		OPT_CALLBACK(0, "time", &o.select, "start,end",
			     "only samples between these times (seconds, as perf script prints)",
			     opt_time),
		OPT_STRING('e', "event", &o.event, "event",
			   "the event to draw (default: the first one, as stackcollapse-perf.pl)"),
		OPT_BOOLEAN(0, "kernel-only", &o.kernel_only,
			    "only samples in the kernel, only their kernel frames"),
		OPT_BOOLEAN(0, "user-only", &o.user_only,
			    "only samples in user space, only their user frames"),
		OPT_GROUP("Frames (perf.data; as stackcollapse-perf.pl)"),
		OPT_BOOLEAN(0, "show-pid", &o.show_pid, "root frame comm-PID (stackcollapse --pid)"),
		OPT_BOOLEAN(0, "show-tid", &o.show_tid,
			    "root frame comm-PID/TID (stackcollapse --tid)"),
		OPT_STRING(0, "annotate", &o.annotate, "kernel,jit,all",
			   "add _[k] to kernel and _[j] to JIT frame names"),
		OPT_BOOLEAN(0, "addrs", &o.addrs, "addresses in unresolved frames: [dso <addr>]"),
		OPT_BOOLEAN(0, "inline", &o.inline_frames,
			    "expand inlined functions (from DWARF) into frames of their own, "
			    "coloured aqua"),
		OPT_BOOLEAN(0, "count-samples", &o.count_samples,
			    "each sample counts 1 (default: its period, as perf report)"),
		OPT_UINTEGER(0, "max-stack", &o.max_stack, "n",
			     "callchain entries used per sample (default 127, as perf script)"),
		OPT_STRING(0, "symfs", &o.symfs, "dir", "look for binaries under this directory"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kernel symbols from this file"),
		OPT_GROUP("Drawing (as flamegraph.pl)"),
		OPT_STRING(0, "title", &o.title, "text", "title (default: Flame Graph)"),
		OPT_STRING(0, "subtitle", &o.subtitle, "text", "second-level title"),
		OPT_UINTEGER(0, "width", &o.width, "pixels", "image width (default 1200)"),
		OPT_UINTEGER(0, "height", &o.height, "pixels", "frame height (default 16)"),
		OPT_STRING(0, "minwidth", &o.minwidth, "px|pct%",
			   "omit frames narrower than this (default 0.1 pixels)"),
		OPT_STRING(0, "fonttype", &o.fonttype, "font", "font family (default Verdana)"),
		OPT_CALLBACK(0, "fontsize", &o.fontsize, "size", "font size (default 12)",
			     opt_number),
		OPT_CALLBACK(0, "fontwidth", &o.fontwidth, "ratio",
			     "average character width / font size (default 0.59)", opt_number),
		OPT_STRING(0, "countname", &o.countname, "name",
			   "what the counts are (default: samples)"),
		OPT_STRING(0, "nametype", &o.nametype, "text",
			   "what the names are (default: Function:)"),
		OPT_STRING(0, "colors", &o.colors, "palette",
			   "hot (default), mem, io, wakeup, chain, java, js, perl, red, green, blue, "
			   "aqua, yellow, purple, orange"),
		{ OPTION_STRING, 0, "color", &o.colors, "palette", "same as --colors", NULL,
		  OPTF_HIDDEN },
		{ OPTION_STRING, 0, "cp", &o.cp, "file",
		  "consistent palette: keep colours in this file (default palette.map)", NULL,
		  OPTF_OPTARG, "palette.map" },
		OPT_BOOLEAN(0, "inverted", &o.inverted, "icicle graph: root at the top"),
		OPT_BOOLEAN(0, "reverse", &o.reverse, "reverse the stacks: merge from the leaves"),
		OPT_BOOLEAN(0, "flamechart", &o.flamechart,
			    "flame chart: samples in time order, stacks not merged"),
		OPT_STRING(0, "bgcolors", &o.bgcolors, "color",
			   "background: yellow, blue, green, grey gradients or a flat #rrggbb "
			   "(default: the palette's)"),
		OPT_BOOLEAN(0, "hash", &o.hash,
			    "colours keyed by the function name (the default: same name, same colour)"),
		OPT_BOOLEAN(0, "random", &o.random_colors,
			    "random colours, as flamegraph.pl without --hash"),
		OPT_STRING(0, "nameattr", &o.nameattr, "file",
			   "SVG attributes per function: name<TAB>key=value<TAB>... lines"),
		OPT_CALLBACK(0, "factor", &o.factor, "factor",
			     "multiply the counts shown in tooltips by this", opt_positive),
		OPT_STRING(0, "encoding", &o.encoding, "name",
			   "the SVG's character encoding (default UTF-8)"),
		OPT_CALLBACK(0, "total", &o.total, "count",
			     "draw against this total (a bigger one than the input's)", opt_positive),
		OPT_STRING(0, "notes", &o.notes, "text", "a comment in the SVG"),
		OPT_END(),
	};
	const char *inputs[2];
	int argn, nr_inputs, ret;

	argn = parse_options(argc, argv, options, flamegraph_usage, 0);
	ret = parse_options_exit_code(argn);
	if (ret >= 0)
		goto out;
	ret = 2;
	nr_inputs = check_options(&o, argn, argv, inputs);
	if (nr_inputs <= 0)
		goto out;
	ret = fg_run(&o, inputs, nr_inputs);
out:
	fg_select__exit(&o.select);
	return ret;
}
