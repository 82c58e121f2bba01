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
#include <sys/types.h>
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
	/* Entries hidden besides the filtered ones (the TUI's zooms), for widths; NULL: none. */
	bool (*hidden)(void *ctx, const struct ember_hist_entry *e);
	void *hidden_ctx;
	/*
	 * The key columns as wide as their widest entry, even when their
	 * header is wider: perf's widths once its browser filtered the
	 * entries again (hists__reset_col_len()).
	 */
	bool entry_widths;
};

/* Prints the column header and the rows with their callchains, as perf's hists__fprintf. */
void report__fprintf_hist(const struct ember_hist *h, const struct report_print_opts *po, FILE *fp);

/* The width of each column (perf's hists__calc_col_len()) into w[layout's nr_cols]. */
void report__column_widths(const struct ember_hist *h, const struct report_print_opts *po, int *w);
/* Column c's header aligned to width w into buf (the table's, without "# "); its length. */
int report__column_header(const struct ember_hist *h, const struct report_print_opts *po, int c,
			  int w, char *buf, size_t size);
/*
 * Column c of e as the table's row shows it (w wide, unpadded when last)
 * into buf; its length. *percent is a percentage column's value, else -1.
 */
int report__column(const struct ember_hist *h, const struct report_print_opts *po,
		   const struct ember_hist_entry *e, int c, int w, bool last, uint64_t total,
		   char *buf, size_t size, double *percent);

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

/* The last node of the run starting at n: perf's callchain node holds the whole run. */
const struct ember_callchain_node *report_chain__run_last(const struct ember_callchain_node *n);
/*
 * parent's children at or above the threshold, in print order (cumulated
 * hits, ties as perf's tree has them). Returns how many; *out is malloc'ed.
 */
size_t report_chain__children(const struct report_chain_print *pp,
			      const struct ember_callchain_node *parent,
			      const struct ember_callchain_node ***out);
/* A run of nodes, perf's callchain node: first down to last, each the only child of the one before. */
struct report_chain_run {
	const struct ember_callchain_node *first, *last;
};
/*
 * perf's flat (and folded) chains of root: the runs with hits of their
 * own at or above the threshold, in print order (all, whatever -g's
 * print limit). Their number, or -ENOMEM; *out is malloc'ed.
 */
ssize_t report_chain__flat(const struct report_chain_print *pp,
			   const struct ember_callchain_node *root, struct report_chain_run **out);
/* The frames from the root down to last, joined by sep: the folded line's text. */
size_t report_chain__fprintf_path(FILE *fp, const struct ember_callchain_node *last,
				  const char *sep);
/* A node's name as the graph prints it; a run's value (-g percent, period or count). */
size_t report_chain__fprintf_name(FILE *fp, const struct ember_callchain_node *n);
size_t report_chain__fprintf_value(FILE *fp, const struct ember_callchain_param *p,
				   uint64_t period, uint64_t count, uint64_t total);

/* perf's convert_unit(): 4567 -> 4 and 'K'. */
unsigned long report_convert_unit(unsigned long value, char *unit);

#endif
