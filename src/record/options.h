/* SPDX-License-Identifier: GPL-2.0-only */
/* ember record's command line. */
#ifndef EMBER_RECORD_OPTIONS_H
#define EMBER_RECORD_OPTIONS_H

#include <stdbool.h>
#include <ember/event.h>
#include "record/events.h"
#include "record/loop.h"
#include "record/output.h"
#include "record/synth.h"
#include "record/target.h"

/* What the command line asked for, by the stage each part is for. */
struct record_opts {
	struct record_target_opts target;
	struct record_sample_opts sample;
	struct record_output_opts output;
	struct record_loop_opts loop;
	struct record_synth_opts synth;

	/* --switch-output-event: watched, not recorded; owned (NULL when none) */
	struct ember_evlist *sb_evlist;
	const char *control;		/* --control fifo:CTL[,ACK] or fd:CTL[,ACK] */
	bool quiet;
	int verbose;
	bool dry_run;
	bool threads_given;		/* --threads: one reader here, said once */
	/* Refused, in one line each: they need what this machine or ember lacks. */
	bool kcore, snapshot, aux_sample, off_cpu;
	const char *cgroup;		/* -G: needs cgroup-fd opens */
	/*
	 * Accepted for perf's command lines; ember needs nothing from them: one
	 * writer thread (--aio, --num-thread-synthesize), kernel symbols from
	 * kallsyms at report time (--vmlinux), the sample-time feature always
	 * written (--timestamp-boundary), no BPF compilation (--clang-*).
	 */
	const char *vmlinux, *debuginfod, *clang_path, *clang_opt;
	int aio, nr_threads_synthesize;
	bool timestamp_boundary;

	/* -e as given, parsed into evlist while the options are read */
	struct ember_evlist *evlist;
	struct ember_evsel *last_glob;	/* first evsel the latest -e added */
	bool events_given;
};

/*
 * Parse argv (argv[0] is "record") into *o; -e specs go straight into
 * o->evlist, which must exist. *argc becomes the number of words of the
 * command to run, if any, which start at argv[0]. Checks option
 * combinations and the sample frequency against
 * perf_event_max_sample_rate (warning as perf does). Returns -1 to go on,
 * or the exit code (0 after --help, 2 on a usage error, the message
 * printed).
 */
int record_options__parse(struct record_opts *o, int *argc, const char **argv);

/*
 * Parse a --call-graph argument ("fp[,DEPTH]", "dwarf[,SIZE]", "lbr") into
 * *mode, *stack_size (dwarf) and *max_stack (fp; left alone otherwise).
 * Returns 0 or -EINVAL (message printed).
 */
int record_options__parse_callchain(const char *arg, enum record_callchain *mode,
				    unsigned int *stack_size, unsigned int *max_stack);
/* The same, the message into why (perf's text, no command prefix) for the caller to print. */
int record_callchain__parse(const char *arg, enum record_callchain *mode,
			    unsigned int *stack_size, unsigned int *max_stack, char *why,
			    size_t why_size);

/*
 * Parse a branch filter ("any", "any_call,u", ...: perf's -j names) into
 * PERF_SAMPLE_BRANCH_* bits; without a privilege level (u, k, hv) the
 * kernel takes the event's. Returns 0 or -EINVAL (message printed).
 */
int record_options__parse_branch(const char *arg, uint64_t *mask);

#endif
