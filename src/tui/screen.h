/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The terminal as ember's browsers use it: ncurses started on the
 * controlling terminal (/dev/tty, so a report read from a pipe still takes
 * its keys there), perf's colours, and the terminal given back as it was
 * on every way out: tui_screen__exit(), exit(), a fatal signal.
 */
#ifndef EMBER_TUI_SCREEN_H
#define EMBER_TUI_SCREEN_H

#include <stdbool.h>
#include <stddef.h>

/* perf's colour sets (ui/browser.h's HE_COLORSET_*), as ncurses colour pairs. */
enum tui_color {
	TUI_NORMAL,	/* the terminal's default */
	TUI_ROOT,	/* the title and the column headers: white on blue */
	TUI_SELECTED,	/* the current line: black on yellow */
	TUI_TOP,	/* a percentage of 5 % and more: red */
	TUI_MEDIUM,	/* of 0.5 % and more: green */
	TUI_HELPLINE,	/* the bottom line: light grey on black */
	TUI_ADDR,	/* the annotate browser's addresses: magenta */
	TUI_JUMP_ARROWS, /* its current jump's line: blue */
};

/* perf's thresholds for TUI_TOP and TUI_MEDIUM. */
#define TUI_MIN_RED 5.0
#define TUI_MIN_GREEN 0.5

/*
 * Starts the screen: 0, or -1 (with why filled, whysz bytes) when the
 * terminal cannot hold a browser (not a terminal, TERM=dumb or unknown,
 * no cursor addressing). Colour unless NO_COLOR is set or the terminal
 * has none.
 */
int tui_screen__init(char *why, size_t whysz);
/* Gives the terminal back (leaves the alternate screen); safe to call twice. */
void tui_screen__exit(void);
/* Whether colours are used. */
bool tui_screen__has_color(void);
/* Sets the colour of what is drawn next. */
void tui_screen__set_color(enum tui_color c);
/* Writes at most len bytes of s, at most max cells, where the cursor is; the cells written. */
int tui_screen__put(const char *s, size_t len, int max);
/* Writes s at (y, x) cut or padded with spaces to exactly width cells. */
void tui_screen__write(int y, int x, const char *s, int width);

#endif
