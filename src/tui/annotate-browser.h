/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf annotate's browser (perf 6.1's ui/browsers/annotate.c, its layout
 * and keys, our own code) over one symbol's annotation: the percent
 * column, the offsets of the jump targets, the instructions as perf's
 * TUI simplifies them, the source lines interleaved, the arrows of the
 * current jump, and the keys that move over them.
 *
 *   owner (annotate, report) ──annotation, lines, histogram──>
 *        tui_annotate_browser__run() ──> the key that left it
 *   Enter on a call ──o->follow()──> the owner opens the callee's browser
 *
 * Everything shown stays the owner's; the screen is tui_screen__init()'s.
 */
#ifndef EMBER_TUI_ANNOTATE_BROWSER_H
#define EMBER_TUI_ANNOTATE_BROWSER_H

#include <stdbool.h>
#include <stdint.h>
#include "annotate/annotate.h"

/* How the browser was left: what perf annotate does next. */
enum tui_annotate_action {
	TUI_ANNOTATE_QUIT,  /* q, ESC, ^C: perf annotate leaves (report: back) */
	TUI_ANNOTATE_PREV,  /* Left: the previous symbol */
	TUI_ANNOTATE_NEXT,  /* Enter or Right on a ret: the next symbol */
	TUI_ANNOTATE_ERROR, /* no memory for the lines */
};

struct tui_annotate_browser_opts {
	const struct annotate_symbol_print *sp; /* the symbol, its histogram, its events */
	const struct annotate_lines *lines;	/* annotate_lines__build()'s, with source */
	const char *title;			/* the top line (perf's hists title) */
	const char *sym_name;			/* the second line: "SYM  DSO [Percent: ...]" */
	/* the percent type, and the column shown first (t cycles them); the owner's, kept */
	struct annotate_print_opts *po;
	/* perf's macro fusion on the jump arrows: the recording cpu's ("AuthenticAMD,25,1,1") */
	const char *cpuid;
	/*
	 * Enter on a call (or a jump out of the symbol) to target, the
	 * address objdump shows: the owner shows the callee's browser and
	 * returns 0 once it is left (its name in why), -ENOENT when no
	 * function is there, another -errno when it cannot be annotated
	 * (said in why).
	 */
	int (*follow)(void *ctx, uint64_t target, char *why, size_t whysz);
	/* The name of the function of the binary holding target, as calls name it; NULL: none. */
	const char *(*symbol_at)(void *ctx, uint64_t target);
	void *ctx;
};

/* Runs the browser on the screen until a key leaves it. */
enum tui_annotate_action tui_annotate_browser__run(const struct tui_annotate_browser_opts *o);

#endif
