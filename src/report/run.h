/* SPDX-License-Identifier: GPL-2.0-only */
/* ember report's run: options, the session, one histogram per event of the file. */
#ifndef EMBER_REPORT_RUN_H
#define EMBER_REPORT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <ember/ember.h>
#include <ember/session.h>
#include <ember/hist.h>
#include "report/report.h"

struct report_opts {
	const char *input;
	bool force, dump, stats, header, header_only, quiet, stdio, tui, use_pager;
	bool show_nr_samples, show_total_period, hide_unresolved, exclude_other;
	bool inverted, no_demangle, show_full_info;
	unsigned int max_stack;		/* chain entries used (--max-stack) */
	bool inline_frames;		/* unwound frames per inline function (--inline) */
	int children;			/* -1 default, 0 --no-children, 1 --children */
	int verbose;
	bool filter_relative;
	double min_percent;
	bool min_percent_set;
	const char *sort_order, *field_order, *field_sep, *parent_pattern;
	const char *callgraph;		/* -g argument */
	bool callgraph_set;
	const char *comms, *pids, *tids, *dsos, *syms, *cpus;
	const char *symfs, *kallsyms;
};

/* The pager standard output goes through, started by report_pager__start(). */
struct report_pager {
	pid_t pid;			/* 0: none */
};

struct report {
	struct report_opts o;
	struct ember_session *session;
	struct ember_data_reader *reader;
	struct ember_hist_layout layout;
	struct ember_hist_opts hopts;
	struct ember_hist_filters *filters; /* NULL: none given */
	struct ember_hist_feed *feed;	    /* the histograms, one per event */
	bool have_callchain;
	bool pipe;				/* the input is in pipe format */
	struct report_pager pager;		/* the output's, if any */
	const char *dump_name;
	/* the command line, from "report" on: the browser's s starts it again on another file */
	int argc;
	const char **argv;
};

/* Reads the file through the session into the histograms. 0 or a negative errno. */
int report__process(struct report *rep);
/* Prints the report (header lines, each event's table). */
void report__print(struct report *rep, FILE *fp);

/*
 * -D: dumps each record as the session reads it; --stats: only reads
 * them. 0 or a negative errno.
 */
int report__dump(struct report *rep);
/* perf report -D's closing counts: records by type, then samples by event. */
void report__dump_stats(struct report *rep, FILE *fp);
/* An event's name as perf prints it: the file's, the tracepoint's, or made from the attr. */
void report_event_name(struct ember_session *s, const struct ember_data_attr *a, char *buf,
		       size_t size);

/*
 * The report in the TUI's browser (after report__process()): the exit
 * status, or -1 when the terminal cannot hold the browser (then print).
 */
int report__browse(struct report *rep);

/* Starts $PAGER (or less) on standard output when it is a terminal; pager->pid 0 when not. */
void report_pager__start(struct report_pager *pager);
/* Flushes and waits for the pager, if one was started. */
void report_pager__finish(struct report_pager *pager);

#endif
