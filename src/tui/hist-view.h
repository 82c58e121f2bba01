/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lines of perf's histogram browser, without the screen: a row per
 * entry shown (the --stdio table's row, the fold sign first when there
 * are callchains), and under each unfolded entry the lines of its
 * callchain graph as perf's TUI draws them (offsets of 3 a level, the
 * value only where a level branches, perf's rules for + and -), or its
 * flat chains (-g flat: a chain's frames under its value, -g folded: a
 * line each, its frames joined by ';').
 * The browser draws them; P writes them; top can show them live. The
 * view keeps what is folded, the zooms and the symbol filter; the
 * histogram and the print options stay the owner's.
 */
#ifndef EMBER_TUI_HIST_VIEW_H
#define EMBER_TUI_HIST_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <ember/hist.h>
#include "core/hashtab.h"
#include "report/report.h"

/* A line: an entry's own, or one callchain node under it. */
struct tui_hist_row {
	const struct ember_hist_entry *e;
	const struct ember_callchain_node *n;	/* NULL: the entry's row */
	const struct ember_callchain_node *run;	/* value: the run whose value is shown */
	const struct ember_callchain_node *last; /* folded: the chain's last node */
	const void *fold_key;			/* what the sign folds; NULL: n, or e */
	uint64_t value_total;			/* value: percentages are of */
	int offset;
	char sign;				/* '+' folded, '-' unfolded, ' ' no children */
	bool value;
	bool folded;				/* -g folded: the whole chain on the line */
};

/* A percentage column of an entry's line (coloured by its value). */
struct tui_hist_span {
	int start, len;
	double percent;
};

#define TUI_HIST_MAX_SPANS EMBER_HIST_MAX_COLS

struct tui_hist_view {
	const struct ember_hist *h;
	struct report_print_opts po;	/* the owner's, with the view's hidden entries */
	struct report_chain_print pp;
	struct ember_callchain_param param;	/* pp's: the histogram's, L's percent limit */
	bool chain_limit;		/* L set it: the callchains' threshold is of the total */
	bool chains;			/* callchains shown under the entries */
	uint64_t total;			/* the entries' percentages are of */
	int w[EMBER_HIST_MAX_COLS];
	bool elide[EMBER_HIST_MAX_COLS]; /* columns not shown */
	int last_col;
	int horiz_scroll;		/* the first columns not shown (perf's Left/Right) */

	struct tui_hist_row *rows;	/* after tui_hist_view__build() */
	size_t nr_rows, alloc_rows;
	struct hashtab unfolded;	/* entries and callchain nodes unfolded, by address */

	const void *thread, *dso;	/* zooms: only this thread's, this dso's entries */
	const char *thread_comm, *dso_name;
	int32_t tid;
	char sym_filter[256];		/* only the entries whose symbol has this */
};

/* A view of h (nothing unfolded, no zoom); po is copied. Free with tui_hist_view__exit(). */
void tui_hist_view__init(struct tui_hist_view *v, const struct ember_hist *h,
			 const struct report_print_opts *po);
void tui_hist_view__exit(struct tui_hist_view *v);
/* Another histogram (a live owner's), the folding and zooms kept. Then build. */
void tui_hist_view__set_hist(struct tui_hist_view *v, const struct ember_hist *h);
/*
 * L: entries and callchain branches under percent hidden, as perf's
 * browser (of the total period, what was unfolded folded). Then build.
 */
void tui_hist_view__set_percent_limit(struct tui_hist_view *v, double percent);
/* F: percentages of what the filters leave (perf's --percentage relative), or not. Then build. */
void tui_hist_view__set_filter_relative(struct tui_hist_view *v, bool relative);
/* The widths and every row, again. 0 or -ENOMEM. */
int tui_hist_view__build(struct tui_hist_view *v);

/* The fold of that row toggled ('+'), when it has one. 0 or -ENOMEM; build again. */
int tui_hist_view__toggle(struct tui_hist_view *v, size_t row);
/* Every entry and callchain line unfolded (E), or all folded (C). 0 or -ENOMEM; build again. */
int tui_hist_view__fold_all(struct tui_hist_view *v, bool unfold);

/* An entry row's line into buf; its length; the percentage columns in spans. */
int tui_hist_view__entry_line(const struct tui_hist_view *v, const struct tui_hist_row *r,
			       char *buf, size_t size, struct tui_hist_span *spans, int *nr_spans);
/* A callchain row's text after its sign: the run's value first where shown, then the name. */
void tui_hist_view__chain_line(const struct tui_hist_view *v, const struct tui_hist_row *r,
			       char *buf, size_t size);
/* Every row as perf's browser writes them to perf.hist.N (P). 0, or -errno of the stream. */
int tui_hist_view__fprintf(const struct tui_hist_view *v, FILE *fp);
/*
 * The samples and the period the title counts and the percentages are
 * of: all, or with --percentage relative those the filters and the
 * zooms leave.
 */
void tui_hist_view__totals(const struct tui_hist_view *v, uint64_t *nr_samples, uint64_t *period);
/* The command of e's thread as it is at the end, as the rows show it. */
const char *tui_hist_view__comm(const struct tui_hist_view *v, const struct ember_hist_entry *e);

#endif
