/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ember report's printing, perf report --stdio's text from libember's
 * histograms (include/ember/hist.h):
 *
 *   ember_hist (sorted) ──> the table: column headers, a row per entry
 *                           shown, each row's callchain as a graph,
 *                           fractal, flat or folded tree
 */
#ifndef EMBER_REPORT_H
#define EMBER_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <ember/hist.h>

struct report_print_opts {
	bool show_header;      /* column headers (not with -q) */
	bool filter_relative;  /* --percentage relative */
	double min_percent;    /* --percent-limit */
	const char *field_sep; /* -t, NULL: aligned columns */
	bool dso_filter;       /* --dsos given: the dso column stays narrow */
	/* The thread's comm at the end (perf's pid column); NULL: the entry's comm. */
	const char *(*thread_comm)(const void *thread);
	/*
	 * perf top's screen: at most max_rows entries (0: all), the widths
	 * measured on those, each row cut to max_cols - 1 characters (0: not).
	 */
	size_t max_rows;
	int max_cols;
};

/* Prints the column header and the rows with their callchains, as perf's hists__fprintf. */
void report__fprintf_hist(const struct ember_hist *h, const struct report_print_opts *po, FILE *fp);

struct report_chain_print {
	const struct ember_callchain_param *param;
	uint64_t total;	       /* the hists' total period (graph percentages) */
	uint64_t parent;       /* the entry's period (self, or children with --children) */
	uint64_t min_hit;      /* threshold in period (fractal graphs take theirs per parent) */
	bool skip_first;       /* --sort starts with sym: the root repeats the row */
	const char *field_sep; /* -t: joins folded frames instead of ';' */
};

/* Prints an entry's tree as perf report --stdio does; returns bytes printed. */
size_t report__fprintf_callchain(FILE *fp, const struct ember_callchain_node *root,
				 const struct report_chain_print *pp);

/* perf's convert_unit(): 4567 -> 4 and 'K'. */
unsigned long report_convert_unit(unsigned long value, char *unit);

#endif
