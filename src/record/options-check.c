// SPDX-License-Identifier: GPL-2.0-only
/* The checks perf record makes on its options before anything is opened, and what they imply. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "record/err.h"
#include "record/options-callbacks.h"
#include "record/options.h"
#include "util/sysctl.h"

static int usage_error(const char *msg)
{
	record_err("%s (see 'ember record --help')", msg);
	return 2;
}

/* /proc/sys/kernel/perf_event_max_sample_rate, or 0 when unreadable. */
static unsigned int max_sample_rate(void)
{
	return sysctl__kernel_uint("perf_event_max_sample_rate", 0);
}

/*
 * perf's record_opts__config_freq(): -F and -c exclude each other, -F max
 * means the kernel's limit, and a frequency above it is lowered with a
 * warning (refused with --strict-freq).
 */
static int config_freq(struct record_opts *o)
{
	unsigned int max = max_sample_rate();

	if (o->sample.freq_given && o->sample.period_given)
		return usage_error("cannot set frequency (-F) and period (-c) at the same time");
	if (o->sample.freq_max) {
		if (!max)
			return usage_error("-F max: cannot read "
					   "/proc/sys/kernel/perf_event_max_sample_rate");
		o->sample.freq = max;
		if (!o->quiet)
			fprintf(stderr, "info: Using a maximum frequency rate of %u Hz\n", max);
	}
	if (!o->sample.freq_given)
		o->sample.freq = RECORD_DEFAULT_FREQ;
	if (o->sample.period_given ? o->sample.period == 0 : o->sample.freq == 0)
		return usage_error("frequency and count are zero, aborting");
	if (!max || o->sample.period_given)
		return 0;
	if (o->sample.freq_given && o->sample.freq > max) {
		if (o->sample.strict_freq) {
			fprintf(stderr,
				"error: Maximum frequency rate (%u Hz) exceeded.\n"
				"       Please use -F freq option with a lower value or consider\n"
				"       tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n",
				max);
			return 2;
		}
		if (!o->quiet)
			fprintf(stderr,
				"warning: Maximum frequency rate (%u Hz) exceeded, throttling from "
				"%u Hz to %u Hz.\n"
				"         The limit can be raised via "
				"/proc/sys/kernel/perf_event_max_sample_rate.\n"
				"         The kernel will lower it when perf's interrupts take too "
				"long.\n"
				"         Use --strict-freq to disable this throttling, refusing "
				"to record.\n",
				max, o->sample.freq, max);
		o->sample.freq = max;
	}
	if (o->sample.freq > max) {
		if (!o->quiet)
			fprintf(stderr,
				"Lowering default frequency rate from %u to %u.\n"
				"Please consider tweaking "
				"/proc/sys/kernel/perf_event_max_sample_rate.\n",
				o->sample.freq, max);
		o->sample.freq = max;
	}
	return 0;
}

int record_options__check(struct record_opts *o, int argc)
{
	int err;

	if (o->target.pid && o->target.tid)
		return usage_error("use either -p or -t, not both");
	if (o->target.uid && (o->target.pid || o->target.tid))
		return usage_error("use either -u or -p/-t, not both");
	if (o->target.uid && (o->target.system_wide || o->target.cpu_list)) {
		if (!o->quiet)
			fprintf(stderr, "Warning:\nUID switch overriding %s\n",
				o->target.system_wide ? "SYSTEM" : "CPU");
		o->target.system_wide = false;
		o->target.cpu_list = NULL;
	}
	if ((o->target.pid || o->target.tid) && (o->target.system_wide || o->target.cpu_list)) {
		/* perf: "PID/TID switch overriding SYSTEM" */
		if (!o->quiet)
			fprintf(stderr, "Warning:\nPID/TID switch overriding %s\n",
				o->target.system_wide ? "SYSTEM" : "CPU");
		o->target.system_wide = false;
		o->target.cpu_list = NULL;
	}
	/* As perf: without a command or a target, the whole system until ^C. */
	if (!argc && !o->target.pid && !o->target.tid && !o->target.uid && !o->target.cpu_list)
		o->target.system_wide = true;
	if (o->sample.all_user && o->sample.all_kernel)
		return usage_error("--all-user and --all-kernel cannot be used together");
	/* As perf: events on cpus get per-cpu buffers; --per-thread only matters for tasks. */
	if (o->target.per_thread && (o->target.system_wide || o->target.cpu_list))
		o->target.per_thread = false;
	/*
	 * As perf: -t records exactly the threads given, without their future
	 * children; per-thread buffers cannot take inherited events.
	 */
	if (o->target.tid || o->target.per_thread)
		o->target.no_inherit = true;
	if (o->loop.mmap_rounded && !o->quiet) {
		unsigned long long bytes = (unsigned long long)o->loop.mmap_pages *
					   (unsigned long long)sysconf(_SC_PAGESIZE);

		if (!(bytes & ((1ULL << 20) - 1)))
			fprintf(stderr, "rounding mmap pages size to %lluM (%u pages)\n",
				bytes >> 20, o->loop.mmap_pages);
		else
			fprintf(stderr, "rounding mmap pages size to %lluK (%u pages)\n",
				bytes >> 10, o->loop.mmap_pages);
	}
	if (o->kcore) {
		record_err("--kcore (a copy of /proc/kcore's kernel text in a perf.data directory) is "
			   "not supported: ember reads kernel symbols from /proc/kallsyms");
		return 1;
	}
	if (o->cgroup) {
		record_err("-G/--cgroup (events counted only inside a cgroup) is not supported; "
			   "--all-cgroups records the cgroup of every sample");
		return 1;
	}
	if (o->snapshot || o->aux_sample) {
		/* perf: "No AUX area tracing to snapshot" / "No AUX area event to sample" */
		record_err("%s needs an AUX area PMU (Intel PT, Arm CoreSight/SPE); this machine "
			   "has none", o->snapshot ? "-S/--snapshot" : "--aux-sample");
		return 1;
	}
	if (o->off_cpu) {
		record_err("--off-cpu (BPF off-cpu profiling) is not supported; "
			   "-e sched:sched_switch -g records the switches");
		return 1;
	}
	if (o->loop.delay_ms < -1)
		return usage_error("-D/--delay takes milliseconds, or -1 to start disabled");
	if (o->loop.delay_ms > 0 && !argc)
		return usage_error("-D/--delay applies to a command ember starts (-D -1, events "
				   "enabled through --control, applies to any target)");
	if (o->output.switch_output && o->output.output && !strcmp(o->output.output, "-"))
		return usage_error("--switch-output cannot write to a pipe");
	if (o->output.switch_output)
		o->output.timestamp_filename = true;
	/* As perf: the overwrite buffers are only read at the end: describe the tasks then. */
	if (o->loop.overwrite)
		o->synth.tail_synthesize = true;
	if (o->threads_given && !o->quiet)
		fprintf(stderr, "Warning:\nember record reads every ring buffer from one thread "
			"and writes one perf.data file; --threads changes nothing\n");
#if !defined(__x86_64__)
	if (o->sample.callchain == RECORD_CALLCHAIN_DWARF) {
		record_err("--call-graph dwarf: ember knows the user registers of x86_64 only so "
			   "far; use --call-graph fp");
		return 1;
	}
#endif
	if (o->sample.callchain == RECORD_CALLCHAIN_DWARF && o->sample.user_regs && !o->quiet)
		fprintf(stderr, "WARNING: The use of --call-graph=dwarf may require all the user "
			"registers, specifying a subset with --user-regs may render DWARF "
			"unwinding unreliable, so the minimal registers set (IP, SP) is "
			"explicitly forced.\n");
	err = config_freq(o);
	return err ? err : -1;
}
