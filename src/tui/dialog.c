// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's popups (ui/tui/util.c's question and input windows, the popup
 * menu of ui/browser.c) drawn with ncurses' line characters, which are
 * the terminal's own (UTF-8 box drawing, or the VT100 line set). They
 * draw over the screen and leave it to the caller to draw it again.
 */
#include <stdlib.h>
#include <string.h>
#include <ncursesw/curses.h>
#include "tui/dialog.h"
#include "tui/screen.h"

int tui_dialog__key(int timeout_ms)
{
	int key;

	timeout(timeout_ms);
	key = getch();
	return key == ERR ? -1 : key;
}

bool tui_dialog__is_enter(int key)
{
	return key == TUI_KEY_ENTER_CR || key == TUI_KEY_ENTER_LF || key == KEY_ENTER;
}

/* The longest line of text and the number of lines. */
static int text_size(const char *text, int *nr_lines)
{
	int longest = 0, n = 1;
	const char *p = text, *nl;

	for (;; p = nl + 1) {
		int len;

		nl = strchr(p, '\n');
		len = nl ? nl - p : (int)strlen(p);
		if (len > longest)
			longest = len;
		if (!nl)
			break;
		n++;
	}
	*nr_lines = n;
	return longest;
}

/* A box of h by w cells at (y, x), the title in its top border. */
static void draw_box(int y, int x, int h, int w, const char *title)
{
	int i;

	tui_screen__set_color(TUI_NORMAL);
	mvaddch(y, x, ACS_ULCORNER);
	for (i = 1; i < w - 1; i++)
		addch(ACS_HLINE);
	addch(ACS_URCORNER);
	for (i = 1; i < h - 1; i++) {
		mvaddch(y + i, x, ACS_VLINE);
		tui_screen__write(y + i, x + 1, "", w - 2);
		mvaddch(y + i, x + w - 1, ACS_VLINE);
	}
	mvaddch(y + h - 1, x, ACS_LLCORNER);
	for (i = 1; i < w - 1; i++)
		addch(ACS_HLINE);
	addch(ACS_LRCORNER);
	if (title && *title) {
		move(y, x + 2);
		addnstr(title, w - 4);
	}
}

/* The lines of text from row y, column x, each cut to w. */
static void draw_lines(int y, int x, int w, const char *text)
{
	const char *p = text, *nl;

	for (;; p = nl + 1, y++) {
		char line[1024];
		int len;

		nl = strchr(p, '\n');
		len = nl ? nl - p : (int)strlen(p);
		if (len >= (int)sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		tui_screen__write(y, x, line, w);
		if (!nl)
			break;
	}
}

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int question(const char *title, const char *text, const char *exit_msg)
{
	char *all = NULL;
	int nr, w, h, y, x, key;

	if (asprintf(&all, "%s\n\n%s", text, exit_msg) < 0)
		return TUI_KEY_ESC;
	w = text_size(all, &nr);
	if (title && (int)strlen(title) + 2 > w)
		w = strlen(title) + 2;
	w = clamp(w + 2, 4, COLS);
	h = clamp(nr + 2, 3, LINES);
	/* centred as perf centres them: halves rounded down, each on its own */
	y = LINES / 2 - h / 2;
	x = COLS / 2 - w / 2;
	draw_box(y, x, h, w, title);
	draw_lines(y + 1, x + 1, w - 2, all);
	free(all);
	refresh();
	do
		key = tui_dialog__key(-1);
	while (key == KEY_RESIZE);
	return key;
}

int tui_dialog__text(const char *title, const char *text, bool wait)
{
	return question(title, text, wait ? "Press any key..." : "");
}

bool tui_dialog__yesno(const char *q)
{
	for (;;) {
		int key = question(NULL, q, "Enter: Yes, ESC: No");

		if (tui_dialog__is_enter(key))
			return true;
		if (key == TUI_KEY_ESC || key == 'q' || key == TUI_KEY_CTRL_C)
			return false;
	}
}

bool tui_dialog__input(const char *title, const char *text, char *buf, size_t size)
{
	size_t len = strlen(buf);
	int nr, w, h, y, x;

	w = text_size(text, &nr);
	if (w < 60)
		w = 60;
	w = clamp(w + 2, 10, COLS);
	h = clamp(nr + 8, 9, LINES);
	/* centred as perf centres them: halves rounded down, each on its own */
	y = LINES / 2 - h / 2;
	x = COLS / 2 - w / 2;
	for (;;) {
		int key, shown = w - 6;

		draw_box(y, x, h, w, title);
		draw_lines(y + 1, x + 1, w - 2, text);
		draw_box(y + nr + 2, x + 2, 3, w - 4, NULL);
		draw_lines(y + h - 2, x + 1, w - 2, "ENTER: OK, ESC: Cancel");
		/* the end of a long answer stays in view */
		tui_screen__write(y + nr + 3, x + 3, buf + ((int)len > shown ? len - shown : 0),
				  shown);
		refresh();
		key = tui_dialog__key(-1);
		if (tui_dialog__is_enter(key))
			return true;
		if (key == TUI_KEY_ESC || key == TUI_KEY_CTRL_C)
			return false;
		if ((key == KEY_BACKSPACE || key == 127 || key == 8) && len)
			buf[--len] = '\0';
		else if (key >= ' ' && key < 127 && len + 1 < size) {
			buf[len++] = key;
			buf[len] = '\0';
		}
	}
}

/* perf's ui_browser__run() moves over nr lines, rows of them shown. */
static void menu_move(int key, int nr, int rows, int *index, int *top)
{
	int offset;

	switch (key) {
	case KEY_DOWN:
		if (*index + 1 < nr && ++*index == *top + rows)
			++*top;
		break;
	case KEY_UP:
		if (*index > 0 && --*index < *top)
			--*top;
		break;
	case KEY_NPAGE:
	case ' ':
		/* a page down moves the top as far, past the last full page too */
		if (*top + rows > nr - 1)
			break;
		offset = *index + rows > nr - 1 ? nr - 1 - *index : rows;
		*index += offset;
		*top += offset;
		break;
	case KEY_PPAGE:
		if (*top == 0)
			break;
		offset = *top < rows ? *top : rows;
		*index -= offset;
		*top -= offset;
		break;
	case KEY_HOME:
		*index = *top = 0;
		break;
	case KEY_END:
		offset = rows - 1 < nr - 1 ? rows - 1 : nr - 1;
		*index = nr - 1;
		*top = *index - offset;
		break;
	}
}

int tui_dialog__menu(const char *title, const char *const *items, int nr, const char *helpline)
{
	int index = 0, top = 0;

	for (;;) {
		int rows = LINES - 2, width = COLS - 1, r, key;

		if (rows < 1)
			rows = 1;
		/* a smaller screen keeps the current item in view */
		if (index >= top + rows)
			top = index - rows + 1;
		erase();
		tui_screen__set_color(TUI_ROOT);
		tui_screen__write(0, 0, title, COLS);
		tui_screen__set_color(TUI_HELPLINE);
		tui_screen__write(LINES - 1, 0, helpline, COLS);
		for (r = 0; r < rows; r++) {
			int i = top + r;

			tui_screen__set_color(i == index ? TUI_SELECTED : TUI_NORMAL);
			tui_screen__write(1 + r, 0, i < nr ? items[i] : "", width);
			/* perf's scroll bar: the diamond at the place of the current item */
			tui_screen__set_color(TUI_NORMAL);
			mvaddch(1 + r, width,
				r == (nr > 1 ? index * (rows - 1) / (nr - 1) : 0) ? ACS_DIAMOND :
										    ACS_CKBOARD);
		}
		refresh();
		key = tui_dialog__key(-1);
		if (tui_dialog__is_enter(key) || key == KEY_RIGHT)
			return index;
		else if (key == TUI_KEY_ESC || key == KEY_LEFT)
			return -1;
		else if (key == 'q' || key == TUI_KEY_CTRL_C)
			return -2;
		else if (nr > 0)
			menu_move(key, nr, rows, &index, &top);
	}
}
