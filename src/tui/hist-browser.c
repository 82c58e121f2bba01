// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf report's histogram browser (perf 6.1's ui/browsers/hists.c, its
 * layout and keys, our own code): the title line, the column headers, a
 * row per entry shown (the stdio table's row, with the fold sign first
 * when there are callchains), each unfolded entry's callchain drawn as
 * perf's TUI draws a graph, the bottom help line, and perf's scroll bar
 * once a navigation key was pressed.
 *
 * The lines are hist-view.c's; this file draws them, moves over them
 * and turns the keys into foldings, zooms and filters.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <ncursesw/curses.h>
#include "tui/dialog.h"
#include "tui/hist-browser.h"
#include "tui/list-nav.h"
#include "tui/hist-view.h"
#include "tui/screen.h"

enum zoom { ZOOM_THREAD, ZOOM_DSO };

struct browser {
	const struct tui_hist_browser_opts *o;
	struct tui_hist_view v;		/* the lines */
	size_t index, top;		/* current row, first row shown */
	bool navkeypressed;		/* perf: the bar and the highlight once navigating */
	bool show_headers;
	enum zoom zooms[2];		/* in the order made, ESC undoes the last */
	int nr_zooms;
	char help[512];			/* a message over the help line, until the next key */
	int print_seq;			/* P: the next perf.hist.N tried */
};

/* ---- drawing ------------------------------------------------------------------- */

/* The rows again, the current one kept in range. 0 or -ENOMEM. */
static int rebuild(struct browser *b)
{
	int ret = tui_hist_view__build(&b->v);

	if (b->index >= b->v.nr_rows)
		b->index = b->v.nr_rows ? b->v.nr_rows - 1 : 0;
	return ret;
}

static int rows_shown(const struct browser *b)
{
	int n = LINES - 2 - (b->show_headers ? 1 : 0);

	return n > 0 ? n : 0;
}

static int first_row_y(const struct browser *b)
{
	return 1 + (b->show_headers ? 1 : 0);
}

static enum tui_color percent_color(double percent)
{
	if (percent >= TUI_MIN_RED)
		return TUI_TOP;
	if (percent >= TUI_MIN_GREEN)
		return TUI_MEDIUM;
	return TUI_NORMAL;
}

static void draw_title(const struct browser *b)
{
	char title[1024] = "";
	size_t n;

	if (b->o->title) {
		uint64_t nr_samples, period;

		tui_hist_view__totals(&b->v, &nr_samples, &period);
		b->o->title(b->o->ctx, nr_samples, period, title, sizeof(title));
	}
	n = strlen(title);
	if (b->v.thread) {
		if (ember_hist__opts(b->v.h)->layout->key_mask & EMBER_HIST_KEY(EMBER_HIST_DIM_PID))
			n += snprintf(title + n, sizeof(title) - n, ", Thread: %s(%d)",
				      b->v.thread_comm, b->v.tid);
		else
			n += snprintf(title + n, sizeof(title) - n, ", Thread: %s",
				      b->v.thread_comm);
	}
	if (b->v.dso && n < sizeof(title))
		n += snprintf(title + n, sizeof(title) - n, ", DSO: %s", b->v.dso_name);
	if (b->o->title_end && n < sizeof(title))
		b->o->title_end(b->o->ctx, title + n, sizeof(title) - n);
	tui_screen__set_color(TUI_ROOT);
	tui_screen__write(0, 0, title, COLS);
}

static void draw_headers(const struct browser *b)
{
	const struct ember_hist_layout *l = ember_hist__opts(b->v.h)->layout;
	char line[4096];
	size_t pos = 0;
	int c;

	int column = 0;

	line[0] = '\0';
	if (b->v.chains)
		pos += snprintf(line, sizeof(line), "  ");
	for (c = 0; c < l->nr_cols && pos < sizeof(line); c++) {
		if (b->v.elide[c] || column++ < b->v.horiz_scroll)
			continue;
		pos += report__column_header(b->v.h, &b->v.po, c, b->v.w[c], line + pos,
					     sizeof(line) - pos);
		if (pos < sizeof(line))
			pos += snprintf(line + pos, sizeof(line) - pos, "  ");
	}
	tui_screen__set_color(TUI_ROOT);
	tui_screen__write(1, 0, line, COLS);
}

static void draw_entry(const struct browser *b, const struct tui_hist_row *r, int y, int width,
		       bool current)
{
	struct tui_hist_span spans[TUI_HIST_MAX_SPANS];
	char line[4096];
	int nr_spans;
	int len = tui_hist_view__entry_line(&b->v, r, line, sizeof(line), spans, &nr_spans);
	int pos = 0, used = 0, s;

	move(y, 0);
	if (current && b->navkeypressed) {
		tui_screen__set_color(TUI_SELECTED);
		tui_screen__write(y, 0, line, width);
		return;
	}
	for (s = 0; s <= nr_spans && used < width; s++) {
		int end = s < nr_spans ? spans[s].start : len;

		tui_screen__set_color(TUI_NORMAL);
		used += tui_screen__put(line + pos, end - pos, width - used);
		if (s == nr_spans)
			break;
		tui_screen__set_color(percent_color(spans[s].percent));
		used += tui_screen__put(line + end, spans[s].len, width - used);
		pos = end + spans[s].len;
	}
	tui_screen__set_color(TUI_NORMAL);
	for (; used < width; used++)
		addch(' ');
}

static void draw_chain(const struct browser *b, const struct tui_hist_row *r, int y, int width,
		       bool current)
{
	char text[4096];
	int used;

	tui_hist_view__chain_line(&b->v, r, text, sizeof(text));
	/* perf marks the current callchain line whether or not a key moved there */
	tui_screen__set_color(current ? TUI_SELECTED : TUI_NORMAL);
	tui_screen__write(y, 0, "", r->offset < width ? r->offset : width);
	used = r->offset;
	if (used + 2 > width)
		return;
	addch(r->sign);
	addch(' ');
	tui_screen__write(y, used + 2, text, width - used - 2);
}

/* perf's scroll bar: a column of checker board with a diamond where the current row is. */
static void draw_scrollbar(const struct browser *b, int y0, int height, int x)
{
	int pct = 0, h;

	if (b->v.nr_rows > 1)
		pct = (int)(b->index * (size_t)(height - 1) / (b->v.nr_rows - 1));
	tui_screen__set_color(TUI_NORMAL);
	for (h = 0; h < height; h++)
		mvaddch(y0 + h, x, h == pct ? ACS_DIAMOND : ACS_CKBOARD);
}

static void keep_current_shown(struct browser *b)
{
	size_t rows = rows_shown(b);

	if (b->index < b->top)
		b->top = b->index;
	else if (rows && b->index >= b->top + rows)
		b->top = b->index - rows + 1;
	if (b->top >= b->v.nr_rows)
		b->top = 0;
}

static void draw(struct browser *b)
{
	int width = COLS - 1 + (b->navkeypressed ? 0 : 1), y0 = first_row_y(b);
	int rows = rows_shown(b), r;

	keep_current_shown(b);
	erase();
	draw_title(b);
	if (b->show_headers)
		draw_headers(b);
	tui_screen__set_color(TUI_HELPLINE);
	tui_screen__write(LINES - 1, 0,
			  b->help[0] ? b->help :
			  b->o->helpline ? b->o->helpline : "Press '?' for help on key bindings",
			  COLS);
	for (r = 0; r < rows; r++) {
		size_t i = b->top + r;
		const struct tui_hist_row *row = i < b->v.nr_rows ? &b->v.rows[i] : NULL;

		if (!row) {
			tui_screen__set_color(TUI_NORMAL);
			tui_screen__write(y0 + r, 0, "", width);
		} else if (row->n) {
			/* perf's callchain lines stop short of the bar's column, bar or not */
			draw_chain(b, row, y0 + r, COLS - 1, i == b->index);
		} else {
			draw_entry(b, row, y0 + r, width, i == b->index);
		}
	}
	/* the bar runs from the first row to the bottom line, as perf's */
	if (b->navkeypressed)
		draw_scrollbar(b, y0, LINES - 2, COLS - 1);
	refresh();
}

/* ---- keys --------------------------------------------------------------------- */

static bool is_nav_key(int key)
{
	return key == KEY_DOWN || key == KEY_UP || key == KEY_NPAGE || key == KEY_PPAGE ||
	       key == KEY_HOME || key == KEY_END || key == ' ' || key == KEY_LEFT ||
	       key == KEY_RIGHT;
}

static int nr_columns_shown(const struct browser *b)
{
	const struct ember_hist_layout *l = ember_hist__opts(b->v.h)->layout;
	int c, n = 0;

	for (c = 0; c < l->nr_cols; c++)
		n += !b->v.elide[c];
	return n;
}

/* perf's ui_browser__run() moves. */
static void navigate(struct browser *b, int key)
{
	size_t rows = rows_shown(b);

	if (!b->v.nr_rows)
		return;
	switch (key) {
	/* perf's columns: Left and Right scroll them, the last one always shown */
	case KEY_RIGHT:
		if (b->v.horiz_scroll + 1 < nr_columns_shown(b))
			b->v.horiz_scroll++;
		break;
	case KEY_LEFT:
		if (b->v.horiz_scroll > 0)
			b->v.horiz_scroll--;
		break;
	default:
		tui_list__move(key, b->v.nr_rows, rows, &b->index, &b->top);
		break;
	}
}

/* The zoom of that kind forgotten from the order they were made in. */
static void drop_zoom(struct browser *b, enum zoom kind)
{
	int i;

	for (i = 0; i < b->nr_zooms; i++)
		if (b->zooms[i] == kind)
			memmove(&b->zooms[i], &b->zooms[i + 1],
				(--b->nr_zooms - i) * sizeof(b->zooms[0]));
}

static void zoom_thread(struct browser *b, const struct ember_hist_entry *e)
{
	if (b->v.thread) {
		b->v.thread = NULL;
		drop_zoom(b, ZOOM_THREAD);
	} else if (e && e->thread) {
		b->v.thread = e->thread;
		b->v.thread_comm = tui_hist_view__comm(&b->v, e);
		b->v.tid = e->tid;
		b->zooms[b->nr_zooms++] = ZOOM_THREAD;
	}
	b->index = b->top = 0;
	b->v.po.entry_widths = true;
}

static void set_dso_elide(struct browser *b, bool on)
{
	const struct ember_hist_layout *l = ember_hist__opts(b->v.h)->layout;
	bool all = true;
	int c;

	for (c = 0; c < l->nr_cols; c++) {
		if (l->cols[c] == EMBER_HIST_DIM_DSO)
			b->v.elide[c] = on || l->elide[c];
		if (!ember_hist_dim__is_value(l->cols[c]))
			all &= b->v.elide[c];
	}
	/* as the table: a filter never hides every key column */
	if (all)
		for (c = 0; c < l->nr_cols; c++)
			if (l->cols[c] == EMBER_HIST_DIM_DSO)
				b->v.elide[c] = false;
}

static void zoom_dso(struct browser *b, const struct ember_hist_entry *e)
{
	if (b->v.dso) {
		b->v.dso = NULL;
		drop_zoom(b, ZOOM_DSO);
		set_dso_elide(b, false);
	} else if (e && e->dso) {
		b->v.dso = e->dso;
		b->v.dso_name = e->dso_name ? e->dso_name : "[unknown]";
		b->zooms[b->nr_zooms++] = ZOOM_DSO;
		set_dso_elide(b, true);
	}
	b->index = b->top = 0;
	b->v.po.entry_widths = true;
}

/* The running kernel's map (perf's __map__is_kernel(): not a module, not a guest's). */
static bool is_kernel(const struct ember_hist_entry *e)
{
	return e->dso_name && !strcmp(e->dso_name, "[kernel.kallsyms]");
}

/* k: into the kernel's entries (perf zooms into its vmlinux map), or out of a dso zoom. */
static void zoom_kernel(struct browser *b)
{
	size_t i;

	if (b->v.dso) {
		zoom_dso(b, NULL);
		return;
	}
	for (i = 0; i < ember_hist__nr_entries(b->v.h); i++) {
		const struct ember_hist_entry *e = ember_hist__entry(b->v.h, i);

		if (is_kernel(e)) {
			zoom_dso(b, e);
			return;
		}
	}
}

static void zoom_out_last(struct browser *b)
{
	if (b->zooms[b->nr_zooms - 1] == ZOOM_THREAD)
		zoom_thread(b, NULL);
	else
		zoom_dso(b, NULL);
}

static const char help_text[] =
	"h/?/F1        Show this window\n"
	"UP/DOWN/PGUP\n"
	"PGDN/SPACE    Navigate\n"
	"HOME/END      The first and the last line\n"
	"LEFT/RIGHT    Scroll the columns\n"
	"q/ESC/CTRL+C  Exit browser or go back to previous screen\n"
	"\n"
	"For multiple event sessions:\n"
	"\n"
	"TAB/UNTAB     Switch events\n"
	"\n"
	"For symbolic views (--sort has sym):\n"
	"\n"
	"ENTER         Zoom into DSO/Threads & Annotate current symbol\n"
	"ESC           Zoom out\n"
	"+             Expand/Collapse one callchain level\n"
	"a             Annotate current symbol\n"
	"C             Collapse all callchains\n"
	"c             Collapse the current entry's callchains\n"
	"d             Zoom into current DSO\n"
	"e             Expand/Collapse main entry callchains\n"
	"E             Expand all callchains\n"
	"F             Toggle percentage of filtered entries\n"
	"H             Display column headers\n"
	"k             Zoom into the kernel map\n"
	"L             Change percent limit\n"
	"m             Display context menu\n"
	"P             Print histograms to perf.hist.N\n"
	"t             Zoom into current Thread\n"
	"/             Filter symbol by name";

/* The help window: the browser's keys, then the owner's. */
static void show_help(const struct browser *b)
{
	char text[sizeof(help_text) + 1024];

	snprintf(text, sizeof(text), "%s%s%s", help_text, b->o->help ? "\n" : "",
		 b->o->help ? b->o->help : "");
	tui_dialog__text("Help", text, true);
}

/* P: every row, as perf's hist_browser__dump() writes them, into the first free perf.hist.N. */
static void print_rows(struct browser *b)
{
	char name[32];
	FILE *fp;

	for (;; b->print_seq++) {
		snprintf(name, sizeof(name), "perf.hist.%d", b->print_seq);
		if (access(name, F_OK))
			break;
		if (b->print_seq == 8192) {
			snprintf(b->help, sizeof(b->help),
				 "Too many perf.hist.N files, nothing written!");
			return;
		}
	}
	fp = fopen(name, "w");
	if (!fp) {
		snprintf(b->help, sizeof(b->help), "Couldn't write to %s: %s", name,
			 strerror(errno));
		return;
	}
	tui_hist_view__fprintf(&b->v, fp);
	if (fclose(fp))
		snprintf(b->help, sizeof(b->help), "Couldn't write to %s: %s", name,
			 strerror(errno));
	else
		snprintf(b->help, sizeof(b->help), "%s written!", name);
	b->print_seq++;
}

static void filter_symbol(struct browser *b)
{
	char buf[sizeof(b->v.sym_filter)];

	snprintf(buf, sizeof(buf), "%s", b->v.sym_filter);
	if (!tui_dialog__input("Symbol to show",
			       "Please enter the name of symbol you want to see.\n"
			       "To remove the filter later, press / + ENTER.",
			       buf, sizeof(buf)))
		return;
	snprintf(b->v.sym_filter, sizeof(b->v.sym_filter), "%s", buf);
	b->index = b->top = 0;
	b->v.po.entry_widths = true;
}

/* L: perf's percent limit, for the entries and the callchains, every entry folded again. */
static void percent_limit(struct browser *b)
{
	char buf[64] = "", *end;
	double percent;

	if (!tui_dialog__input("Percent Limit",
			       "Please enter the value you want to hide entries under that percent.",
			       buf, sizeof(buf)))
		return;
	percent = strtod(buf, &end);
	if (percent < 0 || percent > 100) {
		char msg[64];

		snprintf(msg, sizeof(msg), "Invalid percent: %.2f", percent);
		tui_dialog__text("Warning!", msg, true);
		return;
	}
	tui_hist_view__set_percent_limit(&b->v, percent);
	b->index = b->top = 0;
}

/* perf's add_annotate_opt(): a symbol its samples hit (perf keeps their addresses then) */
static bool can_annotate(const struct browser *b, const struct ember_hist_entry *e)
{
	return b->o->annotate && e && e->sym && e->dso && e->self.nr_events;
}

/* Enter: perf's context menu of the current line. */
static int context_menu(struct browser *b)
{
	const struct tui_hist_row *r = b->v.nr_rows ? &b->v.rows[b->index] : NULL;
	const struct ember_hist_entry *e = r ? r->e : NULL;
	enum { DO_ANNOTATE, DO_THREAD, DO_DSO, DO_EXPAND, DO_EXIT } what[5];
	char texts[4][512];
	const char *items[5];
	int nr = 0, choice;

	if (can_annotate(b, e)) {
		snprintf(texts[nr], sizeof(texts[nr]), "Annotate %s", e->sym_name);
		items[nr] = texts[nr];
		what[nr++] = DO_ANNOTATE;
	}

	/* perf names the current entry's thread and dso, into or out of its zoom */
	if (e && e->thread) {
		const char *how = b->v.thread ? "out of" : "into";

		if (ember_hist__opts(b->v.h)->layout->key_mask & EMBER_HIST_KEY(EMBER_HIST_DIM_PID))
			snprintf(texts[nr], sizeof(texts[nr]), "Zoom %s %s(%d) thread", how,
				 tui_hist_view__comm(&b->v, e), e->tid);
		else
			snprintf(texts[nr], sizeof(texts[nr]), "Zoom %s %s thread", how,
				 tui_hist_view__comm(&b->v, e));
		items[nr] = texts[nr];
		what[nr++] = DO_THREAD;
	}
	if (e && e->dso) {
		snprintf(texts[nr], sizeof(texts[nr]),
			 "Zoom %s %s DSO (use the 'k' hotkey to zoom directly into the kernel)",
			 b->v.dso ? "out of" : "into", is_kernel(e) ? "the Kernel" : e->dso_name);
		items[nr] = texts[nr];
		what[nr++] = DO_DSO;
	}
	if (r && r->sign != ' ') {
		const char *name = r->n ? r->n->name : e->sym_name;

		snprintf(texts[nr], sizeof(texts[nr]),
			 "Expand [%s] callchain (one level, same as '+' hotkey, "
			 "use 'e'/'c' for the whole main level entry)",
			 name ? name : "unknown");
		items[nr] = texts[nr];
		what[nr++] = DO_EXPAND;
	}
	items[nr] = "Exit";
	what[nr++] = DO_EXIT;
	choice = tui_dialog__menu("", items, nr, "ESC: exit, ENTER|->: Select option");
	if (choice < 0)
		return 0;
	switch (what[choice]) {
	case DO_ANNOTATE:
		b->o->annotate(b->o->ctx, e);
		return 0;
	case DO_THREAD:
		zoom_thread(b, e);
		return 0;
	case DO_DSO:
		zoom_dso(b, e);
		return 0;
	case DO_EXPAND:
		return tui_hist_view__toggle(&b->v, b->index);
	case DO_EXIT:
		return 1;
	}
	return 0;
}

/*
 * One key. Returns 0 to go on (the rows rebuilt when changed), 1 to
 * leave with *action, or -ENOMEM.
 */
static int handle_key(struct browser *b, int key, enum tui_hist_action *action)
{
	const struct ember_hist_entry *e = b->v.nr_rows ? b->v.rows[b->index].e : NULL;
	int ret = 0;

	b->help[0] = '\0';
	if (!b->navkeypressed && is_nav_key(key)) {
		b->navkeypressed = true;
		return 0;
	}
	if (is_nav_key(key)) {
		navigate(b, key);
		return 0;
	}
	switch (key) {
	case 'q':
	case TUI_KEY_CTRL_C:
		*action = TUI_HIST_QUIT;
		return 1;
	case TUI_KEY_ESC:
		if (b->nr_zooms) {
			zoom_out_last(b);
			break;
		}
		/* with several events, back to their menu, which asks */
		if (b->o->events) {
			*action = TUI_HIST_BACK;
			return 1;
		}
		if (!tui_dialog__yesno("Do you really want to exit?"))
			return 0;
		*action = TUI_HIST_QUIT;
		return 1;
	case TUI_KEY_TAB:
	case KEY_BTAB:
		if (!b->o->events)
			return 0;
		*action = key == KEY_BTAB ? TUI_HIST_PREV : TUI_HIST_NEXT;
		return 1;
	/*
	 * perf 6.1's e and c act on the current line, as + does (its help's
	 * "main entry" notwithstanding): e toggles it, c folds it.
	 */
	case '+':
	case 'e':
		ret = tui_hist_view__toggle(&b->v, b->index);
		break;
	case 'c':
		if (b->v.nr_rows && b->v.rows[b->index].sign == '-')
			ret = tui_hist_view__toggle(&b->v, b->index);
		break;
	case 'E':
	case 'C':
		ret = tui_hist_view__fold_all(&b->v, key == 'E');
		b->index = b->top = 0;
		break;
	case 'H':
		b->show_headers = !b->show_headers;
		return 0;
	case 't':
		zoom_thread(b, e);
		break;
	case 'd':
		zoom_dso(b, e);
		break;
	case 'k':
		zoom_kernel(b);
		break;
	case '/':
		filter_symbol(b);
		break;
	case 'F':
		tui_hist_view__set_filter_relative(&b->v, !b->v.po.filter_relative);
		break;
	case 'L':
		percent_limit(b);
		break;
	case 'P':
		print_rows(b);
		return 0;
	case 'a':
		if (can_annotate(b, e))
			b->o->annotate(b->o->ctx, e);
		return 0;
	case 'h':
	case '?':
	case KEY_F(1):
		show_help(b);
		return 0;
	case KEY_ENTER:
	case TUI_KEY_ENTER_CR:
	case TUI_KEY_ENTER_LF:
	case 'm':
		ret = context_menu(b);
		if (ret == 1) {
			*action = TUI_HIST_QUIT;
			return 1;
		}
		break;
	default:
		if (b->o->key && b->o->key(b->o->ctx, key) < 0) {
			*action = TUI_HIST_QUIT;
			return 1;
		}
		return 0;
	}
	return ret ? ret : rebuild(b);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/*
 * The live owner's update when it is due (keys do not hold it back),
 * *changed when the histogram did: 0 to go on, 1 to leave (QUIT), -ENOMEM.
 */
static int live_update(struct browser *b, long *due, bool *changed)
{
	const struct ember_hist *h = b->v.h;
	long now = now_ms();
	int ret;

	if (!b->o->update || now < *due)
		return 0;
	*due += b->o->update_ms;
	if (*due <= now)
		*due = now + b->o->update_ms;
	ret = b->o->update(b->o->ctx, &h);
	if (ret < 0)
		return 1;
	if (ret > 0) {
		*changed = true;
		tui_hist_view__set_hist(&b->v, h);
		return rebuild(b);
	}
	return 0;
}

enum tui_hist_action tui_hist_browser__run(const struct tui_hist_browser_opts *o)
{
	struct browser b = {
		.o = o,
		.show_headers = true,
	};
	enum tui_hist_action action = TUI_HIST_ERROR;
	long due = now_ms() + o->update_ms;
	bool dirty = true;

	tui_hist_view__init(&b.v, o->hist, o->po);
	if (rebuild(&b))
		goto out;
	for (;;) {
		int key, ret, wait = -1;

		/* a live screen is drawn again only when it changed */
		if (dirty)
			draw(&b);
		dirty = false;
		if (o->update && o->update_ms > 0) {
			long left = due - now_ms();

			wait = left > 0 ? (int)left : 0;
		}
		key = tui_dialog__key(wait);
		ret = live_update(&b, &due, &dirty);
		if (ret == 1)
			action = TUI_HIST_QUIT;
		if (ret)
			break;
		if (key < 0)
			continue;
		dirty = true;
		if (key == KEY_RESIZE)
			continue;
		ret = handle_key(&b, key, &action);
		if (ret)
			break;
	}
out:
	tui_hist_view__exit(&b.v);
	return action;
}
