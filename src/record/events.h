/* SPDX-License-Identifier: GPL-2.0-only */
/* The events ember record opens: the default one, the tracking dummy, their attrs, fallbacks. */
#ifndef EMBER_RECORD_EVENTS_H
#define EMBER_RECORD_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/event.h>

#define RECORD_DEFAULT_FREQ	4000
/* Default user stack dump of --call-graph dwarf, and its maximum. */
#define RECORD_DWARF_STACK	8192
#define RECORD_DWARF_STACK_MAX	65528

enum record_callchain {
	RECORD_CALLCHAIN_NONE,
	RECORD_CALLCHAIN_FP,
	RECORD_CALLCHAIN_DWARF,
	RECORD_CALLCHAIN_LBR,
};

/* What each sample holds and how often one comes: the attr bits of the command line. */
struct record_sample_opts {
	unsigned int freq;		/* -F, when freq_given */
	bool freq_given, freq_max, strict_freq;
	unsigned long long period;	/* -c, when period_given */
	bool period_given;
	enum record_callchain callchain;
	unsigned int stack_size;	/* --call-graph dwarf,SIZE */
	unsigned int max_stack;		/* --call-graph fp,DEPTH; 0: the kernel's */
	bool raw_samples, sample_addr, sample_cpu, sample_period, inherit_stat;
	bool timestamp;			/* -T: time even where perf leaves it out */
	bool switch_events, all_user, all_kernel, no_bpf_event, buildid_mmap;
	uint64_t branch_stack;		/* -b/-j: PERF_SAMPLE_BRANCH_* filter, 0 off */
	uint64_t user_regs, intr_regs;	/* --user-regs/-I register masks, 0 off */
	bool phys_addr, data_page_size, code_page_size, sample_weight, transaction;
	bool sample_identifier, running_time, no_samples, no_buffering;
	bool kernel_callchains, user_callchains, group;
	bool namespaces, all_cgroups;
	bool use_clockid;
	int clockid;			/* -k, when use_clockid */
};

struct record;

/*
 * Complete rec->evlist (the -e events, or perf's default "cycles" when
 * none was given; a dummy tracking event for -a/-C) and configure every
 * attr as perf 6.1's evlist__config() does for record: sample type, period
 * or frequency, callchains, the tracking bits on one event, disabled and
 * enable_on_exec, ID or IDENTIFIER when several events share the buffers.
 * Sets rec->tracking. Returns 0 or an exit code (message printed).
 */
int record_events__setup(struct record *rec);

/*
 * After an open failure (err a -errno) of evsel, apply perf's fallback if
 * one fits: cycles → cpu-clock when there is no hardware PMU, exclude the
 * kernel when perf_event_paranoid forbids it. Renames the evsel as perf
 * would. Returns true when the attr changed and the open should be retried.
 */
bool record_events__fallback(struct record *rec, struct ember_evsel *evsel, int err);

#endif
