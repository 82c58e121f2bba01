/* SPDX-License-Identifier: GPL-2.0-only */
/* ember report's run: options, the session, one histogram per event of the file. */
#ifndef EMBER_REPORT_RUN_H
#define EMBER_REPORT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/ember.h>
#include <ember/session.h>
#include "report/report.h"

struct report_opts {
	const char *input;
	bool force, dump, stats, header, header_only, quiet, stdio, tui, use_pager;
	bool show_nr_samples, show_total_period, hide_unresolved, exclude_other;
	bool inverted, no_demangle, show_full_info;
	unsigned int max_stack;		/* chain entries used (--max-stack) */
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

struct str_set;

/* The filters perf applies while resolving a sample. */
struct report_filters {
	struct str_set *comms, *dsos, *syms;
	int32_t *pids, *tids;
	size_t nr_pids, nr_tids;
	uint64_t *cpus;		/* bitmap, NULL: all */
	uint32_t max_cpu;
};

struct report {
	struct report_opts o;
	struct ember_session *session;
	struct ember_data_reader *reader;
	struct rep_layout layout;
	struct rep_hist_opts hopts;
	struct rep_hist **hists;	/* by attr index */
	uint32_t nr_hists;
	struct report_filters filters;
	uint32_t *ids;			/* scratch: a sample's frame indices, self + chain */
	uint32_t ids_alloc;
	bool have_callchain;
	struct rep_stacks *stacks;	/* samples folded by stack, while the file is read */
	struct rep_frameids *frameids;	/* addresses resolved to frames of stacks */
	struct rep_srclines *srclines;	/* srcline/srcfile strings, NULL unless sorted by */
	struct rep_traces *traces;	/* tracepoint texts, NULL unless sorted by trace */
	struct rep_comms *comms;	/* placeholder comms perf renames */
	const char *dump_name;
	int err;
};

/*
 * Parses the filter lists of o into f. 0, -ENOMEM, or -EINVAL with what is
 * wrong in bad ("pid 'x'", "cpu list '0-'").
 */
int report_filters__init(struct report_filters *f, const struct report_opts *o, char *bad,
			 size_t badsz);
void report_filters__exit(struct report_filters *f);
/* REP_FILTER_* bits for a sample resolved to al. */
uint8_t report_filters__mask(const struct report_filters *f, const struct ember_addr_location *al);
/* True when the sample's cpu is outside --cpu (perf drops such samples). */
bool report_filters__skip_cpu(const struct report_filters *f, const struct ember_sample *s,
			      uint64_t sample_type);

/* Reads the file through the session into the histograms. 0 or a negative errno. */
int report__process(struct report *rep);
/* Prints the report (header lines, each event's table). */
void report__print(struct report *rep, FILE *fp);

/* -D: dumps each record as the session reads it; --stats: only reads them. 0 or a negative errno. */
int report__dump(struct report *rep);
/* perf report -D's closing counts: records by type, then samples by event. */
void report__dump_stats(struct report *rep, FILE *fp);
/* An event's name as perf prints it: the file's, the tracepoint's, or made from the attr. */
void report_event_name(struct ember_session *s, const struct ember_data_attr *a, char *buf,
		       size_t size);

/* Starts $PAGER (or less) on standard output when it is a terminal. */
void report_pager__start(void);
/* Flushes and waits for the pager, if one was started. */
void report_pager__finish(void);

#endif
