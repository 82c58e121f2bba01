// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf annotate's browser (perf 6.1's ui/browsers/annotate.c and
 * annotation_line__write(), their layout and keys, our own code).
 *
 * The rows are annotate-view.c's; this file draws them (the graph in
 * line-drawing characters, the current jump's line to its target, the
 * column line, perf's scroll bar), moves over them and turns the keys
 * into perf's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ncursesw/curses.h>
#include "tui/annotate-browser.h"
#include "tui/list-nav.h"
#include "tui/annotate-view.h"
#include "tui/dialog.h"
#include "tui/screen.h"

struct browser {
	const struct tui_annotate_browser_opts *o;
	struct tui_annotate_view v; /* the rows */
	size_t index, top;	    /* into the rows shown */
	size_t hot_pos;		    /* in v.hot: TAB's */
	bool navkeypressed, jump_arrows;
	char help[256]; /* a message over the help line, until the next key */
	/* back from a callee, perf's title lines: its symbol line on top, the callee's under */
	char title[512], sym_line[512];
	bool sym_line_gone; /* perf redraws no symbol line after a resize */
	char search[128];
	bool search_back;
};

static const char help_line[] = "Press 'h' for help on key bindings";

/* ---- drawing ------------------------------------------------------------------- */

static int rows_shown(void)
{
	return LINES - 3 > 0 ? LINES - 3 : 0;
}

static enum tui_color percent_color(const struct browser *b, double percent, bool current)
{
	if (current && b->navkeypressed)
		return TUI_SELECTED;
	if (percent >= TUI_MIN_RED)
		return TUI_TOP;
	if (percent >= TUI_MIN_GREEN)
		return TUI_MEDIUM;
	return TUI_NORMAL;
}

static chtype graph_char(char g)
{
	switch (g) {
	case TUI_GRAPH_DOWN:
		return ACS_DARROW;
	case TUI_GRAPH_UP:
		return ACS_UARROW;
	case TUI_GRAPH_RIGHT:
		return ACS_RARROW;
	default:
		return ACS_LARROW;
	}
}

/* Writes s[0..len) at the cursor, graph placeholders as line-drawing characters. */
static int put_text(const char *s, int len, int max)
{
	int used = 0;

	while (len > 0 && used < max) {
		int n = 0;

		while (n < len && s[n] > TUI_GRAPH_LEFT)
			n++;
		if (n) {
			used += tui_screen__put(s, (size_t)n, max - used);
			s += n;
			len -= n;
			continue;
		}
		if (!*s)
			break;
		addch(graph_char(*s));
		used++;
		s++;
		len--;
	}
	return used;
}

static void draw_row(const struct browser *b, size_t i, int y, int width)
{
	const struct tui_annotate_row *r = &b->v.rows[b->v.shown[i]];
	bool current = i == b->index, sel = current && b->navkeypressed;
	enum tui_color color;
	struct tui_annotate_colors c;
	char buf[1024];
	int len, used = 0;

	tui_annotate_view__row_text(&b->v, r, i == b->top, width, buf, sizeof(buf), &c);
	len = (int)strlen(buf);
	color = percent_color(b, c.percent, current);
	move(y, 0);
	tui_screen__set_color(color);
	if (c.addr_len && !b->v.hide_source && !sel) {
		used += put_text(buf, c.addr_start, width);
		tui_screen__set_color(TUI_ADDR);
		used += put_text(buf + c.addr_start, c.addr_len, width - used);
		tui_screen__set_color(color);
		used += put_text(buf + c.addr_start + c.addr_len, len - c.addr_start - c.addr_len,
				 width - used);
	} else {
		used += put_text(buf, len, width);
	}
	for (; used < width; used++)
		addch(' ');
}

static void draw_vline(int y0, int y1, int x)
{
	for (int y = y0; y <= y1; y++)
		mvaddch(y, x, ACS_VLINE);
}

/* The first row of shown index i on the screen, or -1 above, rows below. */
static long screen_row(const struct browser *b, size_t i)
{
	return (long)i - (long)b->top;
}

/*
 * perf's __ui_browser__line_arrow(): from the current jump's row to its
 * target's, at column x: a corner and two dashes at the jump, the line,
 * a corner, a dash and an arrow at the target.
 */
static void draw_jump(const struct browser *b)
{
	const struct tui_annotate_row *cur =
	    b->v.nr_shown ? &b->v.rows[b->v.shown[b->index]] : NULL;
	int x = tui_annotate_view__pcnt_width(&b->v) + 2 + b->v.addr_w, y0 = 2, rows = rows_shown(),
	    diff;
	long from, to, row, end;

	if (!b->jump_arrows || !cur || cur->kind != 'j' || cur->outside || cur->target_row < 0 ||
	    strstr(b->o->sym_name, "@plt"))
		return;
	if (b->v.hide_source && b->v.rows[cur->target_row].insn < 0)
		return;
	from = (long)b->index;
	to = (long)tui_annotate_view__shown_index(&b->v, (size_t)cur->target_row);
	tui_screen__set_color(TUI_JUMP_ARROWS);
	if (from > to) {
		/* up: └── at the jump, ┌─→ at the target */
		row = screen_row(b, (size_t)from);
		if (row < rows) {
			mvaddch(y0 + row, x, ACS_LLCORNER);
			mvaddch(y0 + row, x + 1, ACS_HLINE);
			mvaddch(y0 + row, x + 2, ACS_HLINE);
			row--;
		} else {
			row = rows - 1;
		}
		end = screen_row(b, (size_t)to);
		if (row >= 0) {
			draw_vline(y0 + (end > 0 ? end : 0), y0 + row, x);
			if (end >= 0) {
				mvaddch(y0 + end, x, ACS_ULCORNER);
				mvaddch(y0 + end, x + 1, ACS_HLINE);
				mvaddch(y0 + end, x + 2, ACS_RARROW);
			}
		}
	} else {
		row = screen_row(b, (size_t)from);
		if (row >= 0) {
			mvaddch(y0 + row, x, ACS_ULCORNER);
			mvaddch(y0 + row, x + 1, ACS_HLINE);
			mvaddch(y0 + row, x + 2, ACS_HLINE);
			row++;
		} else {
			row = 0;
		}
		end = screen_row(b, (size_t)to);
		if (end > rows - 1)
			end = rows - 1;
		if (row <= end && row < rows)
			draw_vline(y0 + row, y0 + end, x);
		if (screen_row(b, (size_t)to) < rows) {
			mvaddch(y0 + end, x, ACS_LLCORNER);
			mvaddch(y0 + end, x + 1, ACS_HLINE);
			mvaddch(y0 + end, x + 2, ACS_RARROW);
		}
	}
	/* perf's ui_browser__mark_fused(): the fused compare joins the line */
	diff = tui_annotate_view__fused(&b->v, b->v.shown[b->index]);
	if (diff > 0) {
		long frow = screen_row(b, (size_t)from) - diff;

		if (frow >= 0 && frow < rows) {
			if (to > from) {
				mvaddch(y0 + frow, x, ACS_ULCORNER);
				mvaddch(y0 + frow, x + 1, ACS_HLINE);
				mvaddch(y0 + frow, x + 2, ACS_HLINE);
				if (frow + 1 < rows)
					mvaddch(y0 + frow + 1, x, ACS_LTEE);
			} else {
				mvaddch(y0 + frow, x, ACS_LTEE);
				mvaddch(y0 + frow, x + 1, ACS_HLINE);
				mvaddch(y0 + frow, x + 2, ACS_HLINE);
			}
		}
	}
}

static void keep_current_shown(struct browser *b)
{
	size_t rows = (size_t)rows_shown();

	if (b->index < b->top)
		b->top = b->index;
	else if (rows && b->index >= b->top + rows)
		b->top = b->index - rows + 1;
	if (b->top >= b->v.nr_shown)
		b->top = 0;
}

/* perf's sym_title(): "SYM  DSO [Percent: local period]" */
static void sym_title(const struct browser *b, const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s  %s [Percent: %s]", name, b->o->sp->dso_long_name,
		 annotate__percent_type_name(b->o->po->percent_type));
}

static void draw(struct browser *b)
{
	int width = COLS - 1 + (b->navkeypressed ? 0 : 1), rows = rows_shown();
	char title[1024];

	keep_current_shown(b);
	erase();
	tui_screen__set_color(TUI_ROOT);
	tui_screen__write(0, 0, b->title[0] ? b->title : b->o->title, COLS);
	sym_title(b, b->o->sym_name, title, sizeof(title));
	tui_screen__write(1, 0, b->sym_line_gone ? "" : b->sym_line[0] ? b->sym_line : title, COLS);
	for (int r = 0; r < rows; r++) {
		size_t i = b->top + (size_t)r;

		if (i < b->v.nr_shown) {
			draw_row(b, i, 2 + r, width);
		} else {
			tui_screen__set_color(TUI_NORMAL);
			tui_screen__write(2 + r, 0, "", width);
		}
	}
	draw_jump(b);
	tui_screen__set_color(TUI_NORMAL);
	/* perf blanks the rows under the last line after drawing its column line */
	if (rows > 0)
		draw_vline(2, 2 + rows - 1, tui_annotate_view__pcnt_width(&b->v));
	for (int r = (int)(b->v.nr_shown - b->top); r >= 0 && r < rows; r++)
		tui_screen__write(2 + r, 0, "", width);
	tui_screen__set_color(TUI_HELPLINE);
	tui_screen__write(LINES - 1, 0, b->help[0] ? b->help : help_line, width);
	/* perf's bar: from the first row to the bottom line */
	if (b->navkeypressed) {
		int height = LINES - 2, pct = 0;

		if (b->v.nr_shown > 1)
			pct = (int)(b->index * (size_t)(height - 1) / (b->v.nr_shown - 1));
		tui_screen__set_color(TUI_NORMAL);
		for (int h = 0; h < height; h++)
			mvaddch(2 + h, COLS - 1, h == pct ? ACS_DIAMOND : ACS_CKBOARD);
	}
	refresh();
}

/* ---- keys --------------------------------------------------------------------- */

/* perf's annotate_browser__set_top(): row i current, half a screen above it. */
static void set_top(struct browser *b, size_t i)
{
	size_t back = (size_t)(LINES - 2) / 2;

	b->index = i;
	b->top = i > back ? i - back : 0;
	b->navkeypressed = true;
}

static void go_to_row(struct browser *b, size_t row)
{
	if (b->v.hide_source && b->v.rows[row].insn < 0)
		return;
	set_top(b, tui_annotate_view__shown_index(&b->v, row));
}

static bool is_nav_key(int key)
{
	return key == KEY_DOWN || key == KEY_UP || key == KEY_NPAGE || key == KEY_PPAGE ||
	       key == KEY_HOME || key == KEY_END || key == ' ';
}

/* ui_browser__run()'s moves */
static void navigate(struct browser *b, int key)
{
	tui_list__move(key, b->v.nr_shown, (size_t)rows_shown(), &b->index, &b->top);
}

/* s: the source lines hidden or shown, the current instruction kept where it was. */
static void toggle_source(struct browser *b)
{
	size_t cur = b->v.nr_shown ? b->v.shown[b->index] : 0;
	size_t offset = b->index - b->top;

	/* from a source line, perf goes to the next instruction */
	b->v.hide_source = !b->v.hide_source;
	tui_annotate_view__filter(&b->v);
	b->index = tui_annotate_view__shown_index(&b->v, cur);
	b->top = b->index > offset ? b->index - offset : 0;
}

/* /, n, ?: the next (or previous) row whose text has the string */
static void search(struct browser *b, bool ask, bool back)
{
	if (ask) {
		char buf[sizeof(b->search)];

		snprintf(buf, sizeof(buf), "%s", b->search);
		if (!tui_dialog__input("Search", "String: ", buf, sizeof(buf)) || !*buf)
			return;
		snprintf(b->search, sizeof(b->search), "%s", buf);
		b->search_back = back;
	}
	if (!*b->search) {
		snprintf(b->help, sizeof(b->help), "%s", help_line);
		return;
	}
	back = ask ? back : b->search_back;
	for (size_t k = 1; k < b->v.nr_shown; k++) {
		size_t i = back ? (b->index + b->v.nr_shown - k) : (b->index + k);

		if (back ? k > b->index : i >= b->v.nr_shown)
			break;
		if (strstr(b->v.rows[b->v.shown[i]].text, b->search)) {
			set_top(b, i);
			return;
		}
	}
	snprintf(b->help, sizeof(b->help), "String not found!");
}

/* P: every row into SYM.annotation, as perf's map_symbol__annotation_dump() writes it. */
static void print_rows(struct browser *b)
{
	char name[512];
	FILE *fp;

	snprintf(name, sizeof(name), "%s.annotation", b->o->sym_name);
	fp = fopen(name, "w");
	if (!fp)
		return;
	tui_annotate_view__fprintf(&b->v, fp);
	fclose(fp);
}

static const char help_text[] = "UP/DOWN/PGUP\n"
				"PGDN/SPACE    Navigate\n"
				"HOME/END      The first and the last line\n"
				"q/ESC/CTRL+C  Exit\n"
				"\n"
				"ENTER         Go to target\n"
				"LEFT          Exit (ember annotate: the previous symbol)\n"
				"H             Go to hottest instruction\n"
				"TAB/shift+TAB Cycle thru hottest instructions\n"
				"j             Toggle showing jump to target arrows\n"
				"J             Toggle showing number of jump sources on targets\n"
				"n             Search next string\n"
				"o             Toggle disassembler output/simplified view\n"
				"O             Bump offset level (jump targets -> +call -> all -> cycle thru)\n"
				"p             Toggle percent type [local/global]\n"
				"b             Toggle percent base [period/hits]\n"
				"s             Toggle source code view\n"
				"t             Circulate percent, total period, samples view\n"
				"/             Search string\n"
				"k             Toggle line numbers\n"
				"P             Print to [symbol_name].annotation file.\n"
				"?             Search string backwards";

/* Enter or Right: go to a jump's target, into a call, or (a ret) leave. 1: leave. */
static int follow(struct browser *b, enum tui_annotate_action *action)
{
	const struct tui_annotate_row *r = b->v.nr_shown ? &b->v.rows[b->v.shown[b->index]] : NULL;
	const struct ember_annotation_insn *in;
	char why[256] = "";
	int err;

	if (!r || r->insn < 0) {
		snprintf(b->help, sizeof(b->help),
			 "Actions are only available for assembly lines.");
		return 0;
	}
	if (r->kind == 'r') {
		*action = TUI_ANNOTATE_NEXT;
		return 1;
	}
	if (r->kind != 'j' && r->kind != 'c') {
		snprintf(b->help, sizeof(b->help),
			 "Actions are only available for function call/return & jump/branch "
			 "instructions.");
		return 0;
	}
	in = ember_annotation__insn(b->v.a, (size_t)r->insn);
	if (r->kind == 'j' && !r->outside) {
		if (r->target_row < 0)
			snprintf(b->help, sizeof(b->help), "Invalid jump offset: %" PRIx64,
				 in->target - ember_annotation__addr(b->v.a));
		else
			go_to_row(b, (size_t)r->target_row);
		return 0;
	}
	err = in->has_target && b->o->follow ? b->o->follow(b->o->ctx, in->target, why, sizeof(why))
					     : -ENOENT;
	if (err == -ENOENT) {
		snprintf(b->help, sizeof(b->help), "The called function was not found.");
	} else if (err) {
		snprintf(b->help, sizeof(b->help), "%s", why);
	} else {
		/* perf shows its symbol line as the title then, and leaves the callee's under it */
		sym_title(b, b->o->sym_name, b->title, sizeof(b->title));
		sym_title(b, why, b->sym_line, sizeof(b->sym_line));
	}
	return 0;
}

/* p: local and global, b: period and hits, as perf's switch_percent_type() */
static void switch_percent_type(struct annotate_print_opts *po, bool base)
{
	static const enum annotate_percent_type other_scope[] = {
		[ANNOTATE_LOCAL_PERIOD] = ANNOTATE_GLOBAL_PERIOD,
		[ANNOTATE_GLOBAL_PERIOD] = ANNOTATE_LOCAL_PERIOD,
		[ANNOTATE_LOCAL_HITS] = ANNOTATE_GLOBAL_HITS,
		[ANNOTATE_GLOBAL_HITS] = ANNOTATE_LOCAL_HITS,
	};
	static const enum annotate_percent_type other_base[] = {
		[ANNOTATE_LOCAL_PERIOD] = ANNOTATE_LOCAL_HITS,
		[ANNOTATE_GLOBAL_PERIOD] = ANNOTATE_GLOBAL_HITS,
		[ANNOTATE_LOCAL_HITS] = ANNOTATE_LOCAL_PERIOD,
		[ANNOTATE_GLOBAL_HITS] = ANNOTATE_GLOBAL_PERIOD,
	};

	po->percent_type = base ? other_base[po->percent_type] : other_scope[po->percent_type];
}

/* One key: 0 to go on, 1 to leave with *action. */
static int handle_key(struct browser *b, int key, enum tui_annotate_action *action)
{
	b->help[0] = '\0';
	if (is_nav_key(key)) {
		if (b->navkeypressed)
			navigate(b, key);
		b->navkeypressed = true;
		return 0;
	}
	switch (key) {
	case 'q':
	case TUI_KEY_ESC:
	case TUI_KEY_CTRL_C:
		*action = TUI_ANNOTATE_QUIT;
		return 1;
	case KEY_LEFT:
		*action = TUI_ANNOTATE_PREV;
		return 1;
	case TUI_KEY_TAB:
	case KEY_BTAB:
		if (!b->v.nr_hot)
			break;
		if (key == TUI_KEY_TAB)
			b->hot_pos = b->hot_pos ? b->hot_pos - 1 : b->v.nr_hot - 1;
		else
			b->hot_pos = b->hot_pos + 1 < b->v.nr_hot ? b->hot_pos + 1 : 0;
		go_to_row(b, b->v.hot[b->hot_pos]);
		break;
	case 'H':
		if (b->v.nr_hot) {
			b->hot_pos = b->v.nr_hot - 1;
			go_to_row(b, b->v.hot[b->hot_pos]);
		}
		break;
	case 'h':
	case KEY_F(1):
		tui_dialog__text("Help", help_text, true);
		break;
	case 'k':
		b->v.show_linenr = !b->v.show_linenr;
		break;
	case 's':
		toggle_source(b);
		break;
	case 'o':
		b->v.use_offset = !b->v.use_offset;
		tui_annotate_view__update_widths(&b->v);
		break;
	case 'j':
		b->jump_arrows = !b->jump_arrows;
		break;
	case 'p':
	case 'b':
		switch_percent_type(b->o->po, key == 'b');
		break;
	case 'O':
		if (++b->v.offset_level > 3)
			b->v.offset_level = 1;
		break;
	case 'J':
		b->v.show_nr_jumps = !b->v.show_nr_jumps;
		tui_annotate_view__update_widths(&b->v);
		break;
	case 't':
		if (b->o->po->show_total_period) {
			b->o->po->show_total_period = false;
			b->o->po->show_nr_samples = true;
		} else if (b->o->po->show_nr_samples) {
			b->o->po->show_nr_samples = false;
		} else {
			b->o->po->show_total_period = true;
		}
		break;
	case '/':
	case '?':
		search(b, true, key == '?');
		break;
	case 'n':
		search(b, false, false);
		break;
	case 'P':
		print_rows(b);
		break;
	case KEY_ENTER:
	case TUI_KEY_ENTER_CR:
	case TUI_KEY_ENTER_LF:
	case KEY_RIGHT:
		return follow(b, action);
	}
	return 0;
}

enum tui_annotate_action tui_annotate_browser__run(const struct tui_annotate_browser_opts *o)
{
	struct browser b = {
	    .o = o,
	    .jump_arrows = true,
	};
	enum tui_annotate_action action = TUI_ANNOTATE_ERROR;

	if (tui_annotate_view__init(&b.v, o->sp, o->lines, o->po, o->sym_name, o->cpuid))
		goto out;
	b.v.symbol_at = o->symbol_at;
	b.v.ctx = o->ctx;
	/* perf starts on the hottest instruction, half a screen under the top */
	if (b.v.nr_hot) {
		b.hot_pos = b.v.nr_hot - 1;
		go_to_row(&b, b.v.hot[b.hot_pos]);
	}
	b.navkeypressed = false;
	for (;;) {
		int key;

		draw(&b);
		key = tui_dialog__key(-1);
		if (key == KEY_RESIZE)
			b.sym_line_gone = true;
		if (key == KEY_RESIZE || key < 0)
			continue;
		if (handle_key(&b, key, &action))
			break;
	}
out:
	tui_annotate_view__exit(&b.v);
	return action;
}
