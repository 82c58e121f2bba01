/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ember top: perf top --stdio's live view. The events sample the system
 * (or -p/-t/-u/-C) into ring buffers; the side-band records feed a
 * machine (the running processes' maps synthesized into it first), the
 * samples are resolved and added to the histogram as they come; at each
 * refresh the screen is printed (perf top's header line and the first
 * entries), then the periods seen so far decay by 7/8 (or go, -z): perf
 * top decays the old entries before it adds a refresh's new samples,
 * which comes to the same.
 *
 *   ring buffers ──live.c──> machine (side-band)
 *                └─sample.c──> ember_hist (resolved, callchains) ──display.c──> stdout
 *
 * On a terminal (browse.c) the histogram is report's browser's instead:
 * the records are queued between refreshes and taken at each one, after
 * the decay, so the rows the browser walks never change under it.
 */
#ifndef EMBER_TOP_H
#define EMBER_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <termios.h>
#include <ember/event.h>
#include <ember/hist.h>
#include <ember/machine.h>

#define TOP_DEFAULT_FREQ 4000

struct top_opts {
	bool events_given;
	unsigned long long period;	/* -c */
	bool period_given;
	unsigned int freq;		/* -F */
	bool freq_given;
	int delay_secs;			/* -d */
	int entries;			/* -E, 0: the terminal's rows - 5 */
	double min_percent;		/* --percent-limit */
	const char *sort_order, *field_order;
	bool hide_kernel, hide_user;	/* -K, -U */
	bool zero;			/* -z */
	bool show_nr_samples, show_total_period, children;
	bool stdio, tui;
	const char *pid, *tid, *uid, *cpu_list;
	bool system_wide;		/* -a (the default anyway) */
	bool no_inherit;		/* -i */
	bool callgraph_set;		/* -g or --call-graph */
	const char *callgraph;
	unsigned int mmap_pages;	/* -m */
	int verbose;
};

struct top {
	struct top_opts o;
	struct ember_evlist *evlist;
	struct ember_machine *machine;
	struct ember_hist **hists;	/* one per event, by evsel index */
	int nr_hists;
	struct ember_hist_layout layout;
	struct ember_hist_opts hopts;
	/* what the header counts between two refreshes, and since the start */
	uint64_t samples, kernel_samples, exact_samples;
	uint64_t lost, lost_total;
	uint64_t nr_lost_records, nr_lost_warned; /* PERF_RECORD_LOST seen, and when last said */
	pid_t *target_pids;		/* -p/-t/-u: the processes, to notice they are gone */
	char *uid_pids;			/* -u: the user's processes at the start, as a -p list */
	int nr_target_pids;
	int rows, cols;			/* the terminal's */
	/* the browser's: records taken from the ring buffers, not yet processed */
	char *queue;
	size_t queue_len, queue_alloc;
	/* scratch: a sample's frames */
	struct ember_hist_frame *frames;
	const struct ember_hist_frame **chain;
	size_t frames_alloc;
};

/* keys.c: q on a terminal; the terminal's settings while top runs, restored by stop. */
struct top_keys {
	bool on;
	struct termios saved;
};

void top_keys__start(struct top_keys *k);
void top_keys__stop(struct top_keys *k);
/* Reads the keys typed so far: whether one was q or Q. */
bool top_keys__quit(struct top_keys *k);

/* events.c: the -e events (or perf top's default), configured, opened and mapped. */
int top_events__open(struct top *t);
/* live.c: the existing processes' maps and comms into the machine, as perf top synthesizes them. */
int top_live__synthesize(struct top *t);
/* live.c: every ring buffer drained: side-band into the machine, samples into the histograms. */
int top_live__drain(struct top *t);
/*
 * live.c: every ring buffer drained into a queue, its records processed
 * later by top_live__take_queued() (the browser's histogram stays as it
 * is shown until a refresh). 0 or -ENOMEM.
 */
int top_live__queue(struct top *t);
int top_live__take_queued(struct top *t);
/* live.c: whether every target process (-p/-t/-u) is gone. */
bool top_live__targets_gone(const struct top *t);
/* sample.c: a sample record counted, resolved and added to its event's histogram. 0 or -ENOMEM. */
int top_samples__add(struct top *t, const struct perf_event_header *hdr);
/* display.c: a refresh: drain, resort, print, then decay (or zero) for the next one. */
int top_display__refresh(struct top *t);
/* display.c: every histogram sorted for showing; then decayed (or zeroed, -z) once shown. */
int top_display__resort(struct top *t);
int top_display__decay(struct top *t);
/*
 * browse.c: the live browser (perf top's TUI) until q: the histogram
 * refreshed every -d seconds. 0, 1 on an error (said on stderr), or -1
 * when the terminal cannot hold it (why filled).
 */
int top_browse__run(struct top *t, char *why, size_t whysz);

#endif
