/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf report's histogram browser over one ember_hist: a row per entry as
 * the --stdio table prints it, callchains folded under their entries and
 * drawn as perf's TUI draws them, the keys of perf 6.1's browser.
 *
 *   owner (report, top) ──ember_hist, title──> tui_hist_browser__run()
 *        <── TUI_HIST_QUIT, TUI_HIST_NEXT/PREV (TAB: another event)
 *
 * The histogram stays the owner's. A live owner (top) gives update(),
 * called every update_ms: it may change or re-sort the histogram, and
 * the browser reads it again (folding, zooms and filters are kept).
 */
#ifndef EMBER_TUI_HIST_BROWSER_H
#define EMBER_TUI_HIST_BROWSER_H

#include <stdbool.h>
#include <stddef.h>
#include <ember/hist.h>
#include "report/report.h"

enum tui_hist_action {
	TUI_HIST_QUIT,		/* q, ^C, or ESC confirmed */
	TUI_HIST_NEXT,		/* TAB: the next event */
	TUI_HIST_PREV,		/* shift-TAB: the previous event */
	TUI_HIST_BACK,		/* ESC with nothing to zoom out of, with events: their menu */
	TUI_HIST_ERROR,		/* the screen could not be drawn (no memory) */
};

struct tui_hist_browser_opts {
	const struct ember_hist *hist;		/* what is shown; the owner's */
	const struct report_print_opts *po;	/* the stdio table's options (rows are its rows) */
	/*
	 * The title line ("Samples: ... Event count (approx.): N") into buf,
	 * of the samples and period counted (tui_hist_view__totals()); the
	 * zooms follow it.
	 */
	void (*title)(void *ctx, uint64_t nr_samples, uint64_t period, char *buf, size_t size);
	void *ctx;
	const char *helpline;		/* the bottom line; NULL: a line about '?' */
	bool events;			/* more events: TAB and shift-TAB return to switch */
	/*
	 * A live owner's: called every update_ms (0: never) with the
	 * histogram shown, which it may replace; non-zero leaves the browser.
	 */
	int (*update)(void *ctx, const struct ember_hist **hist);
	int update_ms;
};

/* Runs the browser on the screen (tui_screen__init() first) until it is left. */
enum tui_hist_action tui_hist_browser__run(const struct tui_hist_browser_opts *o);

#endif
