// SPDX-License-Identifier: GPL-2.0-only
/* ember stat's command line, as perf stat 6.1 spells it, and the checks perf makes on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stat/options.h"
#include "util/parse-options.h"

static const char *const stat_usage[] = {
	"ember stat [<options>] [<command>]",
	NULL,
};

static int opt_event(const struct option *opt, const char *arg, bool unset)
{
	struct stat_config *config = opt->value;
	const char **specs;

	if (unset)
		return 0;
	specs = realloc(config->event_specs, (config->nr_event_specs + 1) * sizeof(*specs));
	if (!specs)
		return -1;
	specs[config->nr_event_specs++] = arg;
	config->event_specs = specs;
	return 0;
}

static int opt_big_num(const struct option *opt, const char *arg, bool unset)
{
	struct stat_opts *o = opt->value;

	o->config.big_num = !unset;
	o->big_num_given = true;
	return 0;
}

/* -G applies to the -e events before it: remember where it came. */
static int opt_cgroup(const struct option *opt, const char *arg, bool unset)
{
	struct stat_opts *o = opt->value;
	struct stat_cgroup_opt *v;

	if (unset)
		return 0;
	v = realloc(o->cgroup_opts, (o->nr_cgroup_opts + 1) * sizeof(*v));
	if (!v)
		return -1;
	v[o->nr_cgroup_opts].list = arg;
	v[o->nr_cgroup_opts].nr_specs = o->config.nr_event_specs;
	o->cgroup_opts = v;
	o->nr_cgroup_opts++;
	return 0;
}

/* --filter applies to the tracepoint of the -e right before it. */
static int opt_filter(const struct option *opt, const char *arg, bool unset)
{
	struct stat_opts *o = opt->value;
	struct stat_cgroup_opt *v;

	if (unset)
		return 0;
	if (!o->config.nr_event_specs) {
		fprintf(stderr, "ember stat: --filter must follow a -e tracepoint\n");
		return -1;
	}
	v = realloc(o->filters, (o->nr_filters + 1) * sizeof(*v));
	if (!v)
		return -1;
	v[o->nr_filters].list = arg;
	v[o->nr_filters].nr_specs = o->config.nr_event_specs;
	o->filters = v;
	o->nr_filters++;
	return 0;
}

int stat_options__usage_error(const char *msg)
{
	fprintf(stderr, "ember stat: %s (see 'ember stat --help')\n", msg);
	return 2;
}

/* What this machine cannot do, refused in one line. */
static int stat_fail(const char *msg)
{
	fprintf(stderr, "ember stat: %s\n", msg);
	return 1;
}

/* Check option combinations and derive the modes. Returns 0 or an exit code. */
static int check_options(struct stat_opts *o, int argc)
{
	struct stat_config *c = &o->config;

	if (o->json && c->csv_sep)
		return stat_options__usage_error("-x and -j cannot be used together");
	/* What needs a PMU this machine lacks, refused in one line as perf refuses it. */
	if (o->topdown)
		return stat_fail("--topdown needs the CPU's topdown events (Intel slots and "
				 "topdown-*); this machine has no hardware PMU");
	if (o->transaction)
		return stat_fail("-T/--transaction needs the CPU's transactional memory events "
				 "(Intel TSX cpu/tx-start/ ...); this machine has no hardware PMU");
	if (o->smi_cost)
		return stat_fail("--smi-cost needs the cpu PMU's freeze_on_smi and the msr/smi/ "
				 "counter (Intel); this machine has neither");
	if (o->iostat)
		return stat_fail("--iostat needs Intel's IIO uncore PMUs (uncore_iio_*); this "
				 "machine has none");
	if (o->metrics) {
		/* As perf for a metric it does not know: say so and count the events. */
		if (!c->quiet)
			fprintf(stderr, "ember stat: cannot find metric or group '%s': ember has no "
				"metrics (they are formulas over hardware PMU events)\n", o->metrics);
	}
	if (c->csv_sep && o->big_num_given && c->big_num)
		return stat_options__usage_error("-B option not supported with -x");
	if (c->pid && c->tid)
		return stat_options__usage_error("use either -p or -t, not both");
	if ((c->pid || c->tid) && (c->system_wide || c->cpu_list))
		return stat_options__usage_error("-p/-t count processes, -a/-C count cpus: "
						 "choose one");
	/* As perf: -r 0 repeats the command until ^C, printing the counts of each run. */
	if (c->run_count < 0)
		return stat_options__usage_error("-r needs a run count of 1 or more, or 0 to "
						 "repeat until ^C");
	if (o->cputype)
		return stat_options__usage_error("--cputype is only for hybrid cpus (cpu_core "
						 "and cpu_atom PMUs); this machine has none");
	if (c->table && c->run_count == 1)
		return stat_options__usage_error("--table is only supported with -r");
	if (c->metric_only && c->run_count != 1)
		return stat_options__usage_error("--metric-only is not supported with -r");
	if (c->run_count != 1 && c->interval_ms)
		return stat_options__usage_error("-I and -r cannot be used together");
	if (c->interval_count && !c->interval_ms)
		return stat_options__usage_error("--interval-count needs -I");
	if (c->delay_ms < -1)
		return stat_options__usage_error("-D needs a delay of 0 ms or more, or -1 to "
						 "count nothing (events stay disabled)");
	if (c->log_fd >= 0 && c->output_name)
		return stat_options__usage_error("-o and --log-fd cannot be used together");
	if (c->append && !c->output_name)
		return stat_options__usage_error("--append needs -o FILE");

	/* Without a command or a target, perf stat counts the whole system until ^C. */
	if (!argc && !c->pid && !c->tid && !c->cpu_list)
		c->system_wide = true;

	if (o->nr_cgroup_opts && o->for_each_cgroup)
		return stat_options__usage_error("--cgroup and --for-each-cgroup cannot be used "
						 "together");
	if ((o->nr_cgroup_opts || o->for_each_cgroup) && !c->system_wide && !c->cpu_list)
		return stat_options__usage_error("-G/--cgroup and --for-each-cgroup need -a or "
						 "-C: cgroup counters count on cpus");
	if (o->no_aggr && o->per_thread)
		return stat_options__usage_error("-A and --per-thread cannot be used together");
	/* As perf: the last of these wins only among themselves; -A overrides them. */
	if (o->per_socket)
		c->aggr_mode = STAT_AGGR_SOCKET;
	if (o->per_die)
		c->aggr_mode = STAT_AGGR_DIE;
	if (o->per_core)
		c->aggr_mode = STAT_AGGR_CORE;
	if (o->per_node)
		c->aggr_mode = STAT_AGGR_NODE;
	if (stat_aggr__is_topology(c->aggr_mode)) {
		if (o->per_thread)
			return stat_options__usage_error("--per-thread cannot be combined with "
							 "--per-socket, --per-die, --per-core or "
							 "--per-node");
		if (!c->system_wide && !c->cpu_list)
			return stat_options__usage_error("--per-socket, --per-die, --per-core "
							 "and --per-node need -a or -C: they "
							 "group the counts of cpus");
	}
	if (o->no_aggr) {
		if (!c->system_wide && !c->cpu_list)
			return stat_options__usage_error("-A/--per-cpu needs -a or -C: per-cpu "
							 "counts exist only when counting cpus");
		c->aggr_mode = STAT_AGGR_NONE;
	}
	if (o->per_thread) {
		if (!c->pid && !c->tid && (!c->system_wide || c->cpu_list))
			return stat_options__usage_error("--per-thread needs -p, -t or -a (every "
							 "thread of the system)");
		c->aggr_mode = STAT_AGGR_THREAD;
	}
	if (c->csv_sep)
		c->output_mode = STAT_OUTPUT_CSV;
	else if (o->json)
		c->output_mode = STAT_OUTPUT_JSON;
	return 0;
}

int stat_options__parse(struct stat_opts *o, int *argc, const char **argv)
{
	struct stat_config *c = &o->config;
	const struct option options[] = {
		OPT_CALLBACK('e', "event", c, "event",
			     "event selector. use 'ember list' to list available events",
			     opt_event),
		OPT_BOOLEAN('i', "no-inherit", &c->no_inherit,
			    "child tasks do not inherit counters"),
		OPT_STRING('p', "pid", &c->pid, "pid", "stat events on existing process id"),
		OPT_STRING('t', "tid", &c->tid, "tid", "stat events on existing thread id"),
		OPT_BOOLEAN('a', "all-cpus", &c->system_wide,
			    "system-wide collection from all CPUs"),
		OPT_BOOLEAN('g', "group", &o->group, "put the counters into a counter group"),
		OPT_BOOLEAN(0, "scale", &c->scale,
			    "Use --no-scale to disable counter scaling for multiplexing"),
		OPT_INCR('v', "verbose", &c->verbose,
			 "be more verbose (show counter open errors, etc)"),
		OPT_INTEGER('r', "repeat", &c->run_count, "n",
			    "repeat command and print average + stddev"),
		OPT_BOOLEAN('S', "sync", &c->sync, "call sync() before starting a run"),
		OPT_STRING(0, "pre", &c->pre_cmd, "command",
			   "command to run prior to the measured command"),
		OPT_STRING(0, "post", &c->post_cmd, "command",
			   "command to run after to the measured command"),
		OPT_STRING('M', "metrics", &o->metrics, "metric/metric group list",
			   "monitor specified metrics or metric groups (ember has none)"),
		OPT_BOOLEAN(0, "topdown", &o->topdown,
			    "measure top-down statistics (needs a hardware PMU)"),
		OPT_BOOLEAN('T', "transaction", &o->transaction,
			    "hardware transaction statistics (needs a hardware PMU)"),
		OPT_BOOLEAN(0, "smi-cost", &o->smi_cost, "measure SMI cost (needs a hardware PMU)"),
		{ OPTION_STRING, 0, "iostat", &o->iostat, "default",
		  "measure I/O performance metrics (needs Intel IIO PMUs)", NULL, OPTF_OPTARG,
		  "default" },
		OPT_BOOLEAN(0, "per-socket", &o->per_socket, "aggregate counts per processor socket"),
		OPT_BOOLEAN(0, "per-die", &o->per_die, "aggregate counts per processor die"),
		OPT_BOOLEAN(0, "per-core", &o->per_core, "aggregate counts per physical processor core"),
		OPT_BOOLEAN(0, "per-node", &o->per_node, "aggregate counts per numa node"),
		OPT_BOOLEAN(0, "metric-only", &c->metric_only,
			    "Only print computed metrics. No raw values"),
		OPT_STRING(0, "control", &o->control_spec, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
			   "Listen on ctl-fd descriptor for command to control measurement ('enable': "
			   "enable events, 'disable': disable events)"),
		OPT_BOOLEAN(0, "summary", &c->summary, "print summary for interval mode"),
		OPT_BOOLEAN(0, "no-csv-summary", &c->no_csv_summary,
			    "don't print 'summary' for CSV summary output"),
		OPT_BOOLEAN(0, "table", &c->table,
			    "display details about each run (only with -r option)"),
		OPT_BOOLEAN(0, "interval-clear", &c->interval_clear,
			    "clear screen in between new interval"),
		OPT_CALLBACK(0, "filter", o, "filter", "event filter (after a -e tracepoint)",
			     opt_filter),
		OPT_STRING(0, "cputype", &o->cputype, "hybrid cpu type",
			   "only count on this cpu type of a hybrid machine (none here)"),
		OPT_BOOLEAN(0, "no-merge", &o->ignored, "Do not merge identical named events"),
		OPT_BOOLEAN(0, "hybrid-merge", &o->ignored,
			    "Merge identical named hybrid events (none here)"),
		OPT_BOOLEAN(0, "metric-no-group", &o->ignored,
			    "don't group metric events (ember has no metrics)"),
		OPT_BOOLEAN(0, "metric-no-merge", &o->ignored,
			    "don't share events between metrics (ember has no metrics)"),
		OPT_BOOLEAN(0, "percore-show-thread", &o->ignored,
			    "with the 'percore' event term (no PMU here has it)"),
		OPT_INTEGER(0, "td-level", &o->td_level, "n",
			    "Set the metrics level for the top-down statistics (needs --topdown)"),
		OPT_BOOLEAN('n', "null", &c->null_run, "null run - dont start any counters"),
		OPT_INCR('d', "detailed", &c->detailed,
			 "detailed run - start a lot of events"),
		OPT_CALLBACK_NOARG('B', "big-num", o,
				   "print large numbers with thousands' separators", opt_big_num),
		OPT_STRING('C', "cpu", &c->cpu_list, "cpu",
			   "list of cpus to monitor in system-wide"),
		OPT_BOOLEAN('A', "no-aggr", &o->no_aggr, "disable CPU count aggregation"),
		OPT_BOOLEAN(0, "per-cpu", &o->no_aggr, "one line per cpu (same as -A)"),
		OPT_BOOLEAN(0, "per-thread", &o->per_thread, "aggregate counts per thread"),
		OPT_STRING('x', "field-separator", &c->csv_sep, "separator",
			   "print counts with custom separator"),
		OPT_BOOLEAN('j', "json-output", &o->json, "print counts in JSON format"),
		OPT_CALLBACK('G', "cgroup", o, "name", "monitor event in cgroup name only",
			     opt_cgroup),
		OPT_STRING(0, "for-each-cgroup", &o->for_each_cgroup, "name",
			   "expand events for each cgroup"),
		OPT_STRING('o', "output", &c->output_name, "file", "output file name"),
		OPT_BOOLEAN(0, "append", &c->append, "append to the output file"),
		OPT_INTEGER(0, "log-fd", &c->log_fd, "n", "log output to fd, instead of stderr"),
		OPT_INTEGER('D', "delay", &c->delay_ms, "n",
			    "ms to wait before starting measurement after program start"),
		OPT_UINTEGER('I', "interval-print", &c->interval_ms, "n",
			     "print counts at regular interval in ms"),
		OPT_UINTEGER(0, "interval-count", &c->interval_count, "n",
			     "print counts for fixed number of times"),
		OPT_UINTEGER(0, "timeout", &c->timeout_ms, "n",
			     "stop workload and print counts after a timeout period in ms"),
		OPT_BOOLEAN(0, "all-user", &o->all_user,
			    "Configure all used events to run in user space."),
		OPT_BOOLEAN(0, "all-kernel", &o->all_kernel,
			    "Configure all used events to run in kernel space."),
		OPT_BOOLEAN('q', "quiet", &c->quiet,
			    "don't print any output, messages or warnings"),
		OPT_END(),
	};
	int n, ret;

	memset(o, 0, sizeof(*o));
	c->run_count = 1;
	c->big_num = true;
	c->scale = true;
	c->log_fd = -1;
	c->unit_width = 4;
	n = parse_options(*argc, argv, options, stat_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	ret = parse_options_exit_code(n);
	if (ret >= 0)
		return ret;
	*argc = n;
	ret = check_options(o, n);
	return ret ? ret : -1;
}

void stat_options__exit(struct stat_opts *o)
{
	free(o->config.event_specs);
	free(o->cgroup_opts);
	free(o->filters);
}
