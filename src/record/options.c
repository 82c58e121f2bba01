// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember record's command line, as perf record 6.1 spells it: the table of
 * options. What each one does lives with its job: options-events.c,
 * options-sample.c, options-output.c; the checks in options-check.c.
 */
#include <stdbool.h>
#include "record/options-callbacks.h"
#include "record/options.h"
#include "util/parse-options.h"

static const char *const record_usage[] = {
	"ember record [<options>] [<command>]",
	"ember record [<options>] -- <command> [<options>]",
	NULL,
};

int record_options__parse(struct record *rec, int argc, const char **argv)
{
	struct record_opts *o = &rec->opts;
	const struct option options[] = {
		OPT_CALLBACK('e', "event", o, "event",
			     "event selector. use 'ember list' to list available events",
			     record_opt_event),
		OPT_CALLBACK(0, "filter", o, "filter",
			     "event filter for the preceding -e tracepoint(s)", record_opt_filter),
		OPT_STRING('p', "pid", &o->pid, "pid", "record events on existing process id"),
		OPT_STRING('t', "tid", &o->tid, "tid", "record events on existing thread id"),
		OPT_BOOLEAN('a', "all-cpus", &o->system_wide,
			    "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &o->cpu_list, "cpu", "list of cpus to monitor"),
		OPT_BOOLEAN(0, "per-thread", &o->per_thread, "use per-thread mmaps"),
		OPT_CALLBACK('c', "count", o, "n", "event period to sample", record_opt_period),
		OPT_STRING('o', "output", &o->output, "file", "output file name ('-': stdout)"),
		OPT_BOOLEAN('i', "no-inherit", &o->no_inherit,
			    "child tasks do not inherit counters"),
		OPT_CALLBACK('F', "freq", o, "freq or 'max'",
			     "profile at this frequency", record_opt_freq),
		OPT_BOOLEAN(0, "strict-freq", &o->strict_freq,
			    "fail if the specified frequency can't be used"),
		OPT_CALLBACK('m', "mmap-pages", o, "pages[,pages]",
			     "number of mmap data pages", record_opt_mmap_pages),
		OPT_CALLBACK_NOARG('g', NULL, o, "enables call-graph recording", record_opt_g),
		OPT_CALLBACK(0, "call-graph", o, "record_mode[,record_size]",
			     "setup and enables call-graph (stack chain/backtrace): fp, dwarf, lbr",
			     record_opt_call_graph),
		OPT_INCR('v', "verbose", &o->verbose,
			 "be more verbose (show counter open errors, etc)"),
		OPT_BOOLEAN('q', "quiet", &o->quiet, "don't print any message"),
		OPT_BOOLEAN('s', "stat", &o->inherit_stat, "per thread counts"),
		OPT_BOOLEAN('d', "data", &o->sample_addr, "Record the sample addresses"),
		OPT_BOOLEAN(0, "sample-cpu", &o->sample_cpu, "Record the sample cpu"),
		OPT_BOOLEAN('T', "timestamp", &o->timestamp, "Record the sample timestamps"),
		OPT_BOOLEAN('P', "period", &o->sample_period, "Record the sample period"),
		OPT_BOOLEAN('R', "raw-samples", &o->raw_samples,
			    "collect raw sample records from all opened counters"),
		OPT_BOOLEAN('B', "no-buildid", &o->no_buildid,
			    "do not collect buildids in perf.data"),
		OPT_BOOLEAN('N', "no-buildid-cache", &o->no_buildid_cache,
			    "do not update the buildid cache (ember never does)"),
		OPT_BOOLEAN(0, "buildid-all", &o->buildid_all,
			    "Record build-id of all DSOs regardless of hits"),
		OPT_BOOLEAN(0, "buildid-mmap", &o->buildid_mmap,
			    "Record build-id in map events"),
		OPT_BOOLEAN(0, "switch-events", &o->switch_events, "Record context switch events"),
		OPT_BOOLEAN(0, "all-user", &o->all_user,
			    "Configure all used events to run in user space."),
		OPT_BOOLEAN(0, "all-kernel", &o->all_kernel,
			    "Configure all used events to run in kernel space."),
		OPT_BOOLEAN(0, "no-bpf-event", &o->no_bpf_event, "do not record bpf events"),
		{ OPTION_CALLBACK, 'z', "compression-level", o, "n",
		  "Compressed records using specified level (default: 1 - fastest compression, "
		  "22 - greatest compression)", record_opt_comp_level, OPTF_OPTARG, "1" },
		OPT_UINTEGER(0, "proc-map-timeout", &o->proc_map_timeout, "ms",
			     "per thread proc mmap processing timeout in ms"),
		OPT_CALLBACK_NOARG('b', "branch-any", o, "sample any taken branches",
				   record_opt_branch_any),
		OPT_CALLBACK('j', "branch-filter", o, "branch filter mask",
			     "branch stack filter modes", record_opt_branch_filter),
		{ OPTION_CALLBACK, 0, "user-regs", o, "any register",
		  "sample selected machine registers on interrupt, use '--user-regs=?' to list "
		  "register names", record_opt_user_regs, OPTF_OPTARG, "" },
		{ OPTION_CALLBACK, 'I', "intr-regs", o, "any register",
		  "sample selected machine registers on interrupt, use '-I?' to list register names",
		  record_opt_intr_regs, OPTF_OPTARG, "" },
		OPT_BOOLEAN(0, "phys-data", &o->phys_addr, "Record the sample physical addresses"),
		OPT_BOOLEAN(0, "data-page-size", &o->data_page_size,
			    "Record the sampled data address data page size"),
		OPT_BOOLEAN(0, "code-page-size", &o->code_page_size,
			    "Record the sampled code address (ip) page size"),
		OPT_BOOLEAN('W', "weight", &o->sample_weight, "sample by weight (on special events only)"),
		OPT_BOOLEAN(0, "transaction", &o->transaction,
			    "sample transaction flags (special events only)"),
		OPT_BOOLEAN(0, "sample-identifier", &o->sample_identifier, "Record the sample identifier"),
		OPT_BOOLEAN(0, "running-time", &o->running_time,
			    "Record running/enabled time of read (:S) events"),
		OPT_BOOLEAN('n', "no-samples", &o->no_samples, "don't sample"),
		OPT_BOOLEAN(0, "no-buffering", &o->no_buffering, "collect data without buffering"),
		OPT_BOOLEAN(0, "kernel-callchains", &o->kernel_callchains,
			    "collect kernel callchains"),
		OPT_BOOLEAN(0, "user-callchains", &o->user_callchains, "collect user callchains"),
		OPT_BOOLEAN(0, "group", &o->group, "put the counters into a counter group"),
		OPT_BOOLEAN(0, "namespaces", &o->namespaces, "Record namespaces events"),
		OPT_BOOLEAN(0, "all-cgroups", &o->all_cgroups, "Record cgroup events"),
		OPT_STRING('G', "cgroup", &o->cgroup, "name", "monitor event in cgroup name only"),
		OPT_CALLBACK('k', "clockid", o, "clockid",
			     "clockid to use for events, see clock_gettime()", record_opt_clockid),
		OPT_INTEGER('D', "delay", &o->delay_ms, "ms",
			    "ms to wait before starting measurement after program start (-1: start "
			    "with events disabled)"),
		OPT_CALLBACK(0, "max-size", o, "size",
			     "Limit the maximum size of the output file", record_opt_max_size),
		OPT_CALLBACK(0, "mmap-flush", o, "number",
			     "Minimal number of bytes that is extracted from mmap data pages "
			     "(default: 1)", record_opt_mmap_flush),
		OPT_CALLBACK(0, "affinity", o, "node|cpu",
			     "Set affinity mask of trace reading thread to NUMA node cpu mask or "
			     "cpu of processed mmap buffer", record_opt_affinity),
		{ OPTION_CALLBACK, 0, "threads", o, "spec",
		  "write collected trace data into several data files using parallel threads "
		  "(ember: one reader)", record_opt_threads, OPTF_OPTARG, "" },
		OPT_INTEGER('r', "realtime", &o->realtime_prio, "n",
			    "collect data with this RT SCHED_FIFO priority"),
		OPT_STRING('u', "uid", &o->uid, "user", "user to profile"),
		OPT_BOOLEAN(0, "dry-run", &o->dry_run, "Parse options then exit"),
		OPT_BOOLEAN(0, "tail-synthesize", &o->tail_synthesize,
			    "synthesize non-sample events at the end of output"),
		OPT_BOOLEAN(0, "overwrite", &o->overwrite, "use overwrite mode"),
		OPT_BOOLEAN(0, "timestamp-filename", &o->timestamp_filename,
			    "append timestamp to output filename"),
		{ OPTION_CALLBACK, 0, "switch-output", o, "signal or size[BKMG] or time[smhd]",
		  "Switch output when receiving SIGUSR2 (signal) or cross a size or time threshold",
		  record_opt_switch_output, OPTF_OPTARG, "signal" },
		OPT_UINTEGER(0, "switch-max-files", &o->switch_max_files, "n",
			     "Limit number of switch output generated files"),
		OPT_CALLBACK(0, "switch-output-event", o, "switch output event",
			     "switch output event selector. use 'ember list' to list available "
			     "events", record_opt_switch_output_event),
		OPT_CALLBACK(0, "control", o, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
			     "Listen on ctl-fd descriptor for command to control measurement "
			     "('enable': enable events, 'disable': disable events, 'enable name', "
			     "'disable name', 'snapshot', 'evlist', 'stop', 'ping')", record_opt_control),
		OPT_BOOLEAN(0, "kcore", &o->kcore, "copy /proc/kcore"),
		{ OPTION_BOOLEAN, 'S', "snapshot", &o->snapshot, NULL,
		  "AUX area tracing Snapshot Mode (needs an AUX area PMU)" },
		OPT_BOOLEAN(0, "aux-sample", &o->aux_sample,
			    "Sample AUX area (needs an AUX area PMU)"),
		OPT_BOOLEAN(0, "off-cpu", &o->off_cpu, "Enable off-cpu analysis"),
		OPT_CALLBACK_NOARG(0, "exclude-perf", o, "don't record events from perf itself",
				   record_opt_exclude_perf),
		OPT_CALLBACK(0, "synth", o, "no|all|task|mmap|cgroup",
			     "Fine-tune event synthesis: default=all", record_opt_synth),
		OPT_STRING(0, "vmlinux", &o->vmlinux, "file",
			   "vmlinux pathname (ember: kernel symbols come from kallsyms)"),
		{ OPTION_INTEGER, 0, "aio", &o->aio, "n",
		  "Use <n> control blocks in asynchronous trace writing mode (ember writes "
		  "synchronously)", NULL, OPTF_OPTARG, "1" },
		OPT_INTEGER(0, "num-thread-synthesize", &o->nr_threads_synthesize, "n",
			    "number of threads to run for event synthesis (ember: one)"),
		OPT_BOOLEAN(0, "timestamp-boundary", &o->timestamp_boundary,
			    "Record timestamp boundary (time of first/last samples)"),
		{ OPTION_STRING, 0, "debuginfod", &o->debuginfod, "debuginfod urls",
		  "Enable debuginfod data retrieval from DEBUGINFOD_URLS or specified urls",
		  NULL, OPTF_OPTARG, "system" },
		OPT_STRING(0, "clang-path", &o->clang_path, "clang path",
			   "clang binary to use for compiling BPF scriptlets (unused)"),
		OPT_STRING(0, "clang-opt", &o->clang_opt, "clang options",
			   "options passed to clang when compiling BPF scriptlets (unused)"),
		OPT_END(),
	};
	int n;

	n = parse_options(argc, argv, options, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (n < 0)
		return parse_options_exit_code(n);
	rec->argc = n;
	rec->argv = argv;
	return record_options__check(rec);
}
