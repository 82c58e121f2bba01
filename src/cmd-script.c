// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember script: perf script 6.1's output of a perf.data file, line for
 * line: options → session (time-ordered, resolved samples) → field checks
 * as perf makes them → the printer (src/script/).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/ember.h>
#include "builtin.h"
#include "script/script.h"
#include "script/srcline.h"
#include "util/parse-options.h"
#include "util/session-open.h"

static const char *const script_usage[] = {
	"ember script [<options>]",
	NULL,
};

static int parse_fields_cb(const struct option *opt, const char *arg, bool unset)
{
	struct script *sc = opt->value;

	if (unset)
		return 0;
	return script_fields__parse(&sc->fields, arg, stderr) ? -1 : 0;
}

/*
 * "-f time,event,trace" is how perf script took fields before -F existed
 * (and how old notes still spell it); perf 6.1 reads -f as --force and
 * then fails on the list as a script name. When the one leftover argument
 * is a valid field list, take it as -F and say so.
 */
static int old_fields_form(struct script *sc, const char *arg)
{
	struct script_fields probe;
	FILE *null = fopen("/dev/null", "w");
	int err;

	if (!null)
		return -1;
	script_fields__init(&probe);
	err = script_fields__parse(&probe, arg, null);
	fclose(null);
	if (err)
		return -1;
	fprintf(stderr, "ember script: reading '%s' as -F %s (-f is --force; fields are -F)\n", arg,
		arg);
	/* quietly: perf's "not valid for ... events. Ignoring." lines would only confuse here */
	sc->fields = probe;
	return 0;
}

static int open_session(struct script *sc)
{
	struct ember_session_opts opts = {
		.sz = sizeof(opts),
		.force = sc->o.force,
		.no_ordering = sc->o.dump_unsorted || sc->o.show_round,
		/* perf's unwinder takes --max-stack frames */
		.max_stack = sc->o.max_stack,
		.no_inline = !sc->o.inline_frames,
		.symbol = {
			.sz = sizeof(opts.symbol),
			.symfs = sc->o.symfs,
			.kallsyms = sc->o.kallsyms,
			.no_demangle = !sc->o.demangle,
			.demangle_params = sc->o.verbose > 0,
		},
	};

	sc->session = session_open("script", sc->o.input, &opts);
	if (!sc->session)
		return -1;
	sc->reader = ember_session__reader(sc->session);
	sc->machine = ember_session__machine(sc->session);
	sc->pipe = ember_data_reader__is_pipe(sc->reader);
	sc->dump_name = sc->pipe ? "pipe" : ember_session__path(sc->session);
	return 0;
}

/* perf's field checks against the file, before the first record. */
static int check_fields(struct script *sc)
{
	const struct ember_env *env = ember_data_reader__env(sc->reader);
	struct script_file_info info = {
		.events = sc->infos,
		.nr_events = sc->pipe ? 0 : sc->nr_events,
		.pipe = sc->pipe,
		.has_stat = ember_env__has_feat(env, EMBER_FEAT_STAT),
		.has_auxtrace = ember_env__has_feat(env, EMBER_FEAT_AUXTRACE),
		.no_callchain = sc->o.hide_call_graph,
	};

	uint64_t all = 0;

	if (script_fields__check(&sc->fields, &info, &sc->pr.use_callchain, stderr))
		return -1;
	for (int j = 0; j < SCRIPT_OT_MAX; j++)
		all |= sc->fields.t[j].fields;
	if ((all & SF_TOD) && !ember_env__has_feat(env, EMBER_FEAT_CLOCK_DATA)) {
		/* a pipe's header comes later: perf prints its "disabled" then */
		if (!sc->pipe) {
			fprintf(stderr, "ember script: Can't provide 'tod' time, missing clock "
					"data. Please record with -k/--clockid option.\n");
			return -1;
		}
		sc->pr.tod_disabled = true;
	}
	if (all & SF_SRCLINE) {
		sc->pr.srclines = script_srclines__new(sc->o.full_source_path);
		if (!sc->pr.srclines) {
			fprintf(stderr, "ember script: out of memory\n");
			return -1;
		}
	}
	if (sc->pr.tod_disabled)
		sc->fields.unsupported &= ~SF_TOD;
	if (sc->fields.unsupported) {
		fprintf(stderr, "ember script: not printed yet (ember has no support for them):");
		for (int i = 0; i < 64; i++)
			if (sc->fields.unsupported & (1ULL << i))
				fprintf(stderr, " %s", script_fields__name(1ULL << i));
		fputc('\n', stderr);
	}
	return 0;
}

static int setup_filters(struct script *sc)
{
	const struct script_opts *o = &sc->o;
	const struct ember_env *env = ember_data_reader__env(sc->reader);

	if (script_filter__init(&sc->filter, o->comms, o->pids, o->tids, o->dsos, o->syms, stderr))
		return -1;
	if (o->cpu_list) {
		bool has_cpu = false;

		for (uint32_t i = 0; i < sc->nr_events; i++)
			has_cpu |= !!(sc->events[i].attr->attr.sample_type & PERF_SAMPLE_CPU);
		if (!has_cpu && !sc->pipe) {
			fprintf(stderr, "ember script: File does not contain CPU events. "
					"Remove -C option to proceed.\n");
			return -1;
		}
		uint32_t nr_cpus = env->nr_cpus_avail ? env->nr_cpus_avail : 4096;

		/*
		 * perf checks the list against the header's cpu count, which a
		 * pipe has not sent yet: every cpu is "too large" there.
		 */
		if (sc->pipe)
			nr_cpus = 0;
		if (script_filter__set_cpus(&sc->filter, o->cpu_list, nr_cpus, stderr))
			return -1;
	}
	if (o->time_str &&
	    script_filter__set_time(&sc->filter, o->time_str, env->first_sample_time,
				    env->last_sample_time, o->reltime)) {
		fprintf(stderr, "ember script: Invalid time string '%s'\n", o->time_str);
		return -1;
	}
	if (o->stop_bt) {
		int err = str_list__parse(&sc->stop_bt, o->stop_bt);

		if (err) {
			fprintf(stderr, "ember script: %s\n",
				err == -EEXIST ? "problems parsing symbol list" : "out of memory");
			return -1;
		}
		/* the list's items array has a spare NULL slot at its end */
		sc->pr.stop_bt = (const char *const *)sc->stop_bt.items;
	}
	return 0;
}

/* The header's banner: its lines up to the first "#" line alone. */
static int print_pipe_banner(struct script *sc)
{
	char *buf = NULL, *end;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem) {
		fprintf(stderr, "ember script: out of memory\n");
		return -1;
	}
	ember_data_reader__fprintf_header(sc->reader, mem, false);
	if (fclose(mem)) {
		free(buf);
		fprintf(stderr, "ember script: out of memory\n");
		return -1;
	}
	end = strstr(buf, "\n#\n");
	fwrite(buf, 1, end ? (size_t)(end - buf) + 3 : len, stdout);
	free(buf);
	return 0;
}

static void script__exit(struct script *sc)
{
	for (uint32_t i = 0; i < sc->nr_events; i++)
		free(sc->events[i].owned_name);
	free(sc->events);
	free(sc->infos);
	script_filter__exit(&sc->filter);
	str_list__exit(&sc->stop_bt);
	script_srclines__delete(sc->pr.srclines);
	script_dumps__free(sc);
	outbuf__exit(&sc->out);
	ember_session__delete(sc->session);
}

static int script_main(struct script *sc)
{
	static char stdout_buf[1 << 20];
	char why[256];
	int ret;

	/* perf's --time check happens before the file is read: same exit for a bad string */
	if (sc->o.time_str && !strchr(sc->o.time_str, '%')) {
		struct script_filter probe;
		int bad;

		memset(&probe, 0, sizeof(probe));
		bad = script_filter__set_time(&probe, sc->o.time_str, 0, 0, false);
		script_filter__exit(&probe);
		if (bad) {
			fprintf(stderr, "ember script: Invalid time string '%s'\n", sc->o.time_str);
			return 2;
		}
	}
	if (sc->o.reltime && sc->o.deltatime) {
		fprintf(stderr, "ember script: reltime and deltatime - the two don't get along well. "
				"Please limit to --reltime or --deltatime.\n");
		return 2;
	}
	if (sc->o.vmlinux)
		fprintf(stderr, "ember script: -k/--vmlinux is not supported yet; kernel symbols "
				"come from kallsyms\n");

	setvbuf(stdout, stdout_buf, _IOFBF, sizeof(stdout_buf));
	outbuf__init(&sc->out, stdout);

	if (open_session(sc))
		return 1;
	if (sc->pipe && sc->o.header_only) {
		/* perf stops before a pipe's feature records: only the banner */
		if (print_pipe_banner(sc))
			return 1;
	} else if (sc->o.header || sc->o.header_only) {
		ember_data_reader__fprintf_header(sc->reader, stdout, sc->o.show_info);
	}
	if (sc->o.header || sc->o.header_only) {
		if (sc->o.header_only)
			return fflush(stdout) ? 1 : 0;
	}
	if (script__sync_events(sc)) {
		fprintf(stderr, "ember script: out of memory\n");
		return 1;
	}
	if (setup_filters(sc) || check_fields(sc))
		return 1;
	if (sc->o.per_event_dump && !sc->o.dump) {
		if (sc->pipe) {
			/* perf names them "(null).EVENT.dump" then */
			fprintf(stderr,
				"ember script: --per-event-dump needs a file, not a pipe\n");
			return 1;
		}
		if (script_dumps__open(sc))
			return 1;
	}

	sc->pr.fields = &sc->fields;
	sc->pr.nanosecs = sc->o.nanosecs;
	sc->pr.reltime = sc->o.reltime;
	sc->pr.deltatime = sc->o.deltatime;
	sc->pr.latency = sc->o.latency;
	sc->pr.max_stack = sc->o.max_stack;

	ret = script__run(sc);
	if (sc->dumps && script_dumps__close(sc, stdout))
		return 1;
	if (fflush(stdout) || sc->out.error) {
		fprintf(stderr, "ember script: write error: %s\n", strerror(errno ? errno : EIO));
		return 1;
	}
	/*
	 * A damaged file that left no sample fails with one line saying why;
	 * a whole recording without samples prints nothing and succeeds, as perf.
	 */
	if (!ret && ember_session__nothing_usable(sc->session, why, sizeof(why))) {
		const char *path = ember_session__path(sc->session);

		fprintf(stderr, "ember script: %s: no samples: %s\n",
			strcmp(path, "-") ? path : "standard input", why);
		return 1;
	}
	ember_session__fprintf_warnings(sc->session, stderr);
	if (sc->err)
		return 1;
	if (ret < 0) {
		fprintf(stderr, "ember script: %s: %s\n", sc->dump_name, strerror(-ret));
		return 1;
	}
	return 0;
}

int cmd_script(int argc, const char **argv)
{
	struct script sc = { 0 };
	struct script_opts *o = &sc.o;
	bool all_cpus = false;
	const struct option options[] = {
		OPT_STRING('i', "input", &o->input, "file", "input file name (- for a pipe)"),
		OPT_CALLBACK('F', "fields", &sc, "str",
			     "comma separated output fields prepend with 'type:'. +field to add and "
			     "-field to remove. Valid types: hw,sw,trace,raw,synth. Fields: comm,tid,"
			     "pid,time,cpu,event,trace,ip,sym,dso,addr,symoff,srcline,period,iregs,"
			     "uregs,flags,weight,misc,phys_addr,data_page_size,code_page_size,ins_lat",
			     parse_fields_cb),
		OPT_BOOLEAN('f', "force", &o->force, "don't complain, do it"),
		OPT_BOOLEAN('D', "dump-raw-trace", &o->dump, "dump raw trace in ASCII"),
		OPT_BOOLEAN(0, "dump-unsorted-raw-trace", &o->dump_unsorted,
			    "dump unsorted raw trace in ASCII"),
		OPT_INCR('v', "verbose", &o->verbose, "be more verbose"),
		OPT_BOOLEAN('L', "Latency", &o->latency, "show latency attributes layout"),
		OPT_BOOLEAN(0, "header", &o->header, "Show data header."),
		OPT_BOOLEAN(0, "header-only", &o->header_only, "Show only data header."),
		OPT_BOOLEAN('I', "show-info", &o->show_info,
			    "display extended information from perf.data file"),
		OPT_BOOLEAN('G', "hide-call-graph", &o->hide_call_graph,
			    "When printing symbols do not display call chain"),
		OPT_UINTEGER(0, "max-stack", &o->max_stack, "n",
			     "Set the maximum stack depth when parsing the callchain (default 127)"),
		OPT_STRING(0, "stop-bt", &o->stop_bt, "symbol[,symbol...]",
			   "Stop display of callgraph at these symbols"),
		OPT_STRING('C', "cpu", &o->cpu_list, "cpu", "list of cpus to profile"),
		OPT_STRING('c', "comms", &o->comms, "comm[,comm...]",
			   "only display events for these comms"),
		OPT_STRING(0, "pid", &o->pids, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &o->tids, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_STRING(0, "dsos", &o->dsos, "dso[,dso...]", "only consider symbols in these DSOs"),
		OPT_STRING('S', "symbols", &o->syms, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING(0, "time", &o->time_str, "str", "Time span of interest (start,stop)"),
		OPT_BOOLEAN(0, "ns", &o->nanosecs, "Use 9 decimal places when displaying time"),
		OPT_BOOLEAN(0, "reltime", &o->reltime, "Show time stamps relative to start"),
		OPT_BOOLEAN(0, "deltatime", &o->deltatime,
			    "Show time stamps relative to previous event"),
		OPT_BOOLEAN(0, "show-task-events", &o->show_task, "Show the fork/comm/exit events"),
		OPT_BOOLEAN(0, "show-mmap-events", &o->show_mmap, "Show the mmap events"),
		OPT_BOOLEAN(0, "show-switch-events", &o->show_switch,
			    "Show context switch events (if recorded)"),
		OPT_BOOLEAN(0, "show-namespace-events", &o->show_namespace,
			    "Show namespace events (if recorded)"),
		OPT_BOOLEAN(0, "show-cgroup-events", &o->show_cgroup,
			    "Show cgroup events (if recorded)"),
		OPT_BOOLEAN(0, "show-lost-events", &o->show_lost, "Show lost events (if recorded)"),
		OPT_BOOLEAN(0, "show-round-events", &o->show_round,
			    "Show round events (if recorded)"),
		OPT_BOOLEAN(0, "show-bpf-events", &o->show_bpf,
			    "Show bpf related events (if recorded)"),
		OPT_BOOLEAN(0, "show-text-poke-events", &o->show_text_poke,
			    "Show text poke related events (if recorded)"),
		OPT_STRING(0, "symfs", &o->symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &o->kallsyms, "file", "kallsyms pathname"),
		OPT_STRING('k', "vmlinux", &o->vmlinux, "file", "vmlinux pathname (not supported)"),
		OPT_BOOLEAN(0, "demangle", &o->demangle, "Enable symbol demangling"),
		OPT_BOOLEAN(0, "per-event-dump", &o->per_event_dump,
			    "Dump trace output to files named by the monitored events"),
		OPT_BOOLEAN(0, "full-source-path", &o->full_source_path,
			    "Show full source file name path for source lines"),
		OPT_BOOLEAN(0, "inline", &o->inline_frames, "Show inline function"),
		OPT_BOOLEAN(0, "show-kernel-path", &o->show_kernel_path,
			    "Show the path of [kernel.kallsyms] (symbols come from kallsyms)"),
		OPT_BOOLEAN('a', "all-cpus", &all_cpus, "system-wide collection (ignored)"),
		OPT_END(),
	};
	int nr, ret;

	script_fields__init(&sc.fields);
	o->demangle = true;
	o->max_stack = 127;
	o->inline_frames = true;	/* perf's symbol_conf.inline_name */

	nr = parse_options(argc, argv, options, script_usage, 0);
	ret = parse_options_exit_code(nr);
	if (ret >= 0)
		return ret;
	if (nr == 1 && old_fields_form(&sc, argv[0]) == 0) {
		nr = 0;
	} else if (nr > 0) {
		fprintf(stderr,
			"ember script: unexpected argument '%s': perf's script languages "
			"(perl, python) are not supported (see 'ember script --help')\n",
			argv[0]);
		return 2;
	}
	if (o->dump_unsorted)
		o->dump = true;

	ret = script_main(&sc);
	script__exit(&sc);
	return ret;
}
