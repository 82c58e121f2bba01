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
 * called every update_ms whatever the keys do: when it says the
 * histogram changed (re-sorted, decayed), the browser reads it again
 * (folding, zooms and filters are kept). Its keys (key()) and its help
 * lines come on top of the browser's.
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
	/* What follows the zooms on the title line (top's " lost: 0/0 ..."); NULL: nothing. */
	void (*title_end)(void *ctx, char *buf, size_t size);
	const char *helpline;		/* the bottom line (read at each draw); NULL: about '?' */
	bool events;			/* more events: TAB and shift-TAB return to switch */
	/*
	 * A live owner's: called every update_ms (0: never) with the
	 * histogram shown, which it may replace. Returns 1 when the histogram
	 * changed (it is read again), 0 when not, negative to leave.
	 */
	int (*update)(void *ctx, const struct ember_hist **hist);
	int update_ms;
	/*
	 * The owner's keys (report's i, top's z, f): 1 when key was one (the
	 * screen is drawn again), 0 when not, negative to leave the browser.
	 */
	int (*key)(void *ctx, int key);
	const char *help;		/* the owner's lines of the help window, after the common ones */
	/*
	 * perf's "Annotate SYM" (Enter's menu, the a key): e's symbol in the
	 * annotate browser, back here once it is left; NULL: not offered.
	 */
	void (*annotate)(void *ctx, const struct ember_hist_entry *e);
};

/* Runs the browser on the screen (tui_screen__init() first) until it is left. */
enum tui_hist_action tui_hist_browser__run(const struct tui_hist_browser_opts *o);

#endif
