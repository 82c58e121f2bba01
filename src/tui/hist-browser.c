// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf report's histogram browser (perf 6.1's ui/browsers/hists.c, its
 * layout and keys, our own code): the title line, the column headers, a
 * row per entry shown (the stdio table's row, with the fold sign first
 * when there are callchains), each unfolded entry's callchain drawn as
 * perf's TUI draws a graph, the bottom help line, and perf's scroll bar
 * once a navigation key was pressed.
 *
 * The rows are rebuilt from the histogram whenever the folding, a zoom
 * or the histogram changes: a row is an entry or one callchain node of
 * it, with the offset, fold sign and value perf gives that line.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ncursesw/curses.h>
#include "core/array.h"
#include "core/hash.h"
#include "core/hashtab.h"
#include "tui/dialog.h"
#include "tui/hist-browser.h"
#include "tui/screen.h"

#define LEVEL_OFFSET_STEP 3	/* perf's indentation of a callchain level */
#define MAX_SPANS EMBER_HIST_MAX_COLS

/* A line of the browser: an entry's own, or one callchain node under it. */
struct row {
	const struct ember_hist_entry *e;
	const struct ember_callchain_node *n;	/* NULL: the entry's row */
	const struct ember_callchain_node *run;	/* value: the run whose value is shown */
	uint64_t value_total;			/* value: percentages are of */
	int offset;
	char sign;				/* '+' folded, '-' unfolded, ' ' no children */
	bool value;
};

/* A percentage column of an entry's line, coloured by its value. */
struct span {
	int start, len;
	double percent;
};

enum zoom { ZOOM_THREAD, ZOOM_DSO };

struct browser {
	const struct tui_hist_browser_opts *o;
	const struct ember_hist *h;
	struct report_print_opts po;
	struct report_chain_print pp;
	bool chains;
	uint64_t total;
	int w[EMBER_HIST_MAX_COLS];
	bool elide[EMBER_HIST_MAX_COLS];
	int last_col;

	struct row *rows;
	size_t nr_rows, alloc_rows;
	size_t index, top;		/* current row, first row shown */
	bool navkeypressed;		/* perf: the bar and the highlight once navigating */
	bool show_headers;
	int horiz_scroll;		/* Left/Right: the first columns not shown */
	struct hashtab unfolded;	/* entries and callchain nodes unfolded, by address */

	const void *thread, *dso;	/* zooms (NULL: none) */
	const char *thread_comm, *dso_name;
	int32_t tid;
	enum zoom zooms[2];		/* in the order made, ESC undoes the last */
	int nr_zooms;
	char sym_filter[256];		/* '/': entries whose symbol has this */
	char help[512];			/* a message over the help line, until the next key */
	int print_seq;			/* P: the next perf.hist.N tried */
};

/* ---- the folding: a set of addresses ------------------------------------ */

static bool is_unfolded(const struct browser *b, const void *p)
{
	uint64_t k = (uintptr_t)p;

	return hashtab__get(&b->unfolded, hash_mix64(k), hashtab__eq_hash, NULL) != 0;
}

static int set_unfolded(struct browser *b, const void *p, bool on)
{
	uint64_t k = (uintptr_t)p, hash = hash_mix64(k);
	struct hashtab_slot *s;

	if (!on) {
		s = hashtab__find(&b->unfolded, hash, hashtab__eq_hash, NULL);
		if (s)
			hashtab__remove(&b->unfolded, s);
		return 0;
	}
	if (hashtab__reserve(&b->unfolded, 1))
		return -ENOMEM;
	s = hashtab__slot(&b->unfolded, hash, hashtab__eq_hash, NULL);
	if (!s->val)
		hashtab__fill(&b->unfolded, s, hash, k);
	return 0;
}

/* ---- which entries are shown ---------------------------------------------- */

static bool zoomed_out(const struct browser *b, const struct ember_hist_entry *e)
{
	if (b->thread && e->thread != b->thread)
		return true;
	if (b->dso && e->dso != b->dso)
		return true;
	return b->sym_filter[0] && (!e->sym || !strstr(e->sym_name, b->sym_filter));
}

static bool hidden(void *ctx, const struct ember_hist_entry *e)
{
	return zoomed_out(ctx, e);
}

static bool shown(const struct browser *b, const struct ember_hist_entry *e)
{
	return ember_hist__shows(b->h, e, b->po.filter_relative, b->po.min_percent) &&
	       !zoomed_out(b, e);
}

/*
 * What percentages are of: the histogram's total, or with --percentage
 * relative the entries the filters and zooms leave (perf's non-filtered
 * total, recomputed by its zooms).
 */
static uint64_t percent_total(const struct browser *b)
{
	uint64_t total = 0;
	size_t i;

	if (!b->po.filter_relative || (!b->nr_zooms && !b->sym_filter[0]))
		return ember_hist__total_period(b->h, b->po.filter_relative);
	for (i = 0; i < ember_hist__nr_entries(b->h); i++) {
		const struct ember_hist_entry *e = ember_hist__entry(b->h, i);

		if (!e->filtered && !zoomed_out(b, e))
			total += e->self.period;
	}
	return total;
}

static const char *entry_comm(const struct browser *b, const struct ember_hist_entry *e)
{
	const char *c = NULL;

	if (b->po.thread_comm && e->thread)
		c = b->po.thread_comm(e->thread);
	return c ? c : e->comm ? e->comm : "";
}

/* ---- the rows --------------------------------------------------------------- */

static int add_row(struct browser *b, const struct row *r)
{
	if (array__reserve((void **)&b->rows, &b->alloc_rows, b->nr_rows, sizeof(*r)))
		return -ENOMEM;
	b->rows[b->nr_rows++] = *r;
	return 0;
}

static bool has_children(const struct browser *b, const struct ember_callchain_node *n)
{
	const struct ember_callchain_node **v;
	size_t nr = report_chain__children(&b->pp, n, &v);

	free(v);
	return nr > 0;
}

/*
 * perf's has_children of a line of a run (callchain__init_have_children()):
 * at the top, the first line has it when the run has siblings, the last
 * when the run has children; below, the first when the run goes on or has
 * children, the last when it has children.
 */
static bool line_has_children(const struct browser *b, const struct ember_callchain_node *n,
			      const struct ember_callchain_node *first,
			      const struct ember_callchain_node *last, bool top, size_t nr_siblings)
{
	if (top)
		return n == last ? has_children(b, last) : n == first && nr_siblings > 1;
	if (n == first)
		return first != last || has_children(b, last);
	return n == last && has_children(b, last);
}

/* perf's hist_browser__show_callchain_graph(), as rows. */
static int add_chain_rows(struct browser *b, const struct ember_hist_entry *e,
			  const struct ember_callchain_node *parent, int level, uint64_t total,
			  uint64_t parent_total, bool top)
{
	const struct ember_callchain_node **v;
	size_t nr = report_chain__children(&b->pp, parent, &v), k;
	uint64_t value_total = b->pp.param->mode == EMBER_CALLCHAIN_GRAPH_REL ? parent_total : total;
	bool need_percent = nr > 1 || (nr == 1 && ember_callchain_node__cumul_hits(v[0]) !=
							 parent_total);
	int ret = 0;

	for (k = 0; k < nr && !ret; k++) {
		const struct ember_callchain_node *first = v[k];
		const struct ember_callchain_node *last = report_chain__run_last(first), *n;
		int extra = 0;
		char sign = ' ';

		for (n = first;; n = ember_callchain_node__first_child(n)) {
			struct row r = {
				.e = e,
				.n = n,
				.run = first,
				.value_total = value_total,
				.value = n == first && need_percent,
			};

			if (n != first && need_percent)
				extra = LEVEL_OFFSET_STEP;
			if (line_has_children(b, n, first, last, top, nr))
				sign = is_unfolded(b, n) ? '-' : '+';
			else
				sign = ' ';
			r.offset = level * LEVEL_OFFSET_STEP + extra;
			r.sign = sign;
			ret = add_row(b, &r);
			if (ret || sign == '+' || n == last)
				break;
		}
		if (!ret && sign == '-')
			ret = add_chain_rows(b, e, last, level + (extra ? 2 : 1), total,
					     last->children_hit, false);
	}
	free(v);
	return ret;
}

static char entry_sign(const struct browser *b, const struct ember_hist_entry *e)
{
	const struct ember_callchain_node *root = ember_hist_entry__callchain(e);

	if (!b->chains || !root || !has_children(b, root))
		return ' ';
	return is_unfolded(b, e) ? '-' : '+';
}

/* The widths, the columns shown, then every row. 0 or -ENOMEM. */
static int build_rows(struct browser *b)
{
	size_t i;
	int c, ret = 0;

	b->total = percent_total(b);
	report__column_widths(b->h, &b->po, b->w);
	b->last_col = 0;
	for (c = 0; c < ember_hist__opts(b->h)->layout->nr_cols; c++)
		if (!b->elide[c])
			b->last_col = c;
	b->nr_rows = 0;
	for (i = 0; i < ember_hist__nr_entries(b->h) && !ret; i++) {
		const struct ember_hist_entry *e = ember_hist__entry(b->h, i);
		struct row r = { .e = e };

		if (!shown(b, e))
			continue;
		r.sign = entry_sign(b, e);
		ret = add_row(b, &r);
		if (!ret && r.sign == '-')
			ret = add_chain_rows(b, e, ember_hist_entry__callchain(e), 1, b->total,
					     ember_hist__entry_period(b->h, e), true);
	}
	if (b->index >= b->nr_rows)
		b->index = b->nr_rows ? b->nr_rows - 1 : 0;
	return ret;
}

/* ---- a row's text ------------------------------------------------------------ */

/* An entry's line: the fold sign, then the columns two spaces apart; its spans. */
static int entry_text(const struct browser *b, const struct row *r, char *buf, size_t size,
		      struct span *spans, int *nr_spans)
{
	const struct ember_hist_layout *l = ember_hist__opts(b->h)->layout;
	size_t pos = 0;
	bool first = true;
	int c;

	int column = 0;

	*nr_spans = 0;
	buf[0] = '\0';
	if (b->chains)
		pos += snprintf(buf, size, "%c ", r->sign);
	for (c = 0; c < l->nr_cols && pos < size; c++) {
		double percent;
		int n;

		if (b->elide[c] || column++ < b->horiz_scroll)
			continue;
		if (!first)
			pos += snprintf(buf + pos, size - pos, "  ");
		first = false;
		if (pos >= size)
			break;
		n = report__column(b->h, &b->po, r->e, c, b->w[c], c == b->last_col, b->total,
				   buf + pos, size - pos, &percent);
		if (n < 0)
			n = 0;
		if (percent >= 0 && *nr_spans < MAX_SPANS)
			spans[(*nr_spans)++] = (struct span){ pos, n, percent };
		pos += n;
	}
	return pos < size ? (int)pos : (int)size - 1;
}

/* A callchain line's text after its sign: the run's value first, then the name. */
static void chain_text(const struct browser *b, const struct row *r, char *buf, size_t size)
{
	FILE *fp = fmemopen(buf, size, "w");

	if (!fp) {
		snprintf(buf, size, "?");
		return;
	}
	if (r->value) {
		report_chain__fprintf_value(fp, b->pp.param,
					    ember_callchain_node__cumul_hits(r->run),
					    r->run->count + r->run->children_count,
					    r->value_total);
		fputc(' ', fp);
	}
	report_chain__fprintf_name(fp, r->n);
	/* fmemopen keeps room for the terminating NUL */
	fclose(fp);
}

/* ---- drawing ------------------------------------------------------------------- */

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

	if (b->o->title)
		b->o->title(b->o->ctx, title, sizeof(title));
	n = strlen(title);
	if (b->thread) {
		if (ember_hist__opts(b->h)->layout->key_mask & EMBER_HIST_KEY(EMBER_HIST_DIM_PID))
			n += snprintf(title + n, sizeof(title) - n, ", Thread: %s(%d)",
				      b->thread_comm, b->tid);
		else
			n += snprintf(title + n, sizeof(title) - n, ", Thread: %s", b->thread_comm);
	}
	if (b->dso && n < sizeof(title))
		snprintf(title + n, sizeof(title) - n, ", DSO: %s", b->dso_name);
	tui_screen__set_color(TUI_ROOT);
	tui_screen__write(0, 0, title, COLS);
}

static void draw_headers(const struct browser *b)
{
	const struct ember_hist_layout *l = ember_hist__opts(b->h)->layout;
	char line[4096];
	size_t pos = 0;
	int c;

	int column = 0;

	line[0] = '\0';
	if (b->chains)
		pos += snprintf(line, sizeof(line), "  ");
	for (c = 0; c < l->nr_cols && pos < sizeof(line); c++) {
		if (b->elide[c] || column++ < b->horiz_scroll)
			continue;
		pos += report__column_header(b->h, &b->po, c, b->w[c], line + pos,
					     sizeof(line) - pos);
		if (pos < sizeof(line))
			pos += snprintf(line + pos, sizeof(line) - pos, "  ");
	}
	tui_screen__set_color(TUI_ROOT);
	tui_screen__write(1, 0, line, COLS);
}

static void draw_entry(const struct browser *b, const struct row *r, int y, int width,
		       bool current)
{
	struct span spans[MAX_SPANS];
	char line[4096];
	int nr_spans, len = entry_text(b, r, line, sizeof(line), spans, &nr_spans);
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

static void draw_chain(const struct browser *b, const struct row *r, int y, int width,
		       bool current)
{
	char text[4096];
	int used;

	chain_text(b, r, text, sizeof(text));
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

	if (b->nr_rows > 1)
		pct = (int)(b->index * (size_t)(height - 1) / (b->nr_rows - 1));
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
	if (b->top >= b->nr_rows)
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
		const struct row *row = i < b->nr_rows ? &b->rows[i] : NULL;

		if (!row) {
			tui_screen__set_color(TUI_NORMAL);
			tui_screen__write(y0 + r, 0, "", width);
		} else if (row->n) {
			draw_chain(b, row, y0 + r, width, i == b->index);
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
	const struct ember_hist_layout *l = ember_hist__opts(b->h)->layout;
	int c, n = 0;

	for (c = 0; c < l->nr_cols; c++)
		n += !b->elide[c];
	return n;
}

/* perf's ui_browser__run() moves. */
static void navigate(struct browser *b, int key)
{
	size_t rows = rows_shown(b), offset;

	if (!b->nr_rows)
		return;
	switch (key) {
	/* perf's columns: Left and Right scroll them, the last one always shown */
	case KEY_RIGHT:
		if (b->horiz_scroll + 1 < nr_columns_shown(b))
			b->horiz_scroll++;
		break;
	case KEY_LEFT:
		if (b->horiz_scroll > 0)
			b->horiz_scroll--;
		break;
	case KEY_DOWN:
		if (b->index + 1 < b->nr_rows)
			b->index++;
		break;
	case KEY_UP:
		if (b->index > 0)
			b->index--;
		break;
	case KEY_NPAGE:
	case ' ':
		if (b->top + rows > b->nr_rows - 1)
			break;
		offset = rows;
		if (b->index + offset > b->nr_rows - 1)
			offset = b->nr_rows - 1 - b->index;
		b->index += offset;
		b->top += offset;
		break;
	case KEY_PPAGE:
		if (b->top == 0)
			break;
		offset = b->top < rows ? b->top : rows;
		b->index -= offset;
		b->top -= offset;
		break;
	case KEY_HOME:
		b->index = b->top = 0;
		break;
	case KEY_END:
		offset = rows ? rows - 1 : 0;
		if (offset >= b->nr_rows)
			offset = b->nr_rows - 1;
		b->index = b->nr_rows - 1;
		b->top = b->index - offset;
		break;
	}
}

/* Every line of e's tree that has children, unfolded or folded. */
static int fold_tree(struct browser *b, const struct ember_callchain_node *parent, bool unfold)
{
	const struct ember_callchain_node **v;
	size_t nr = report_chain__children(&b->pp, parent, &v), k;
	int ret = 0;

	for (k = 0; k < nr && !ret; k++) {
		const struct ember_callchain_node *n, *last = report_chain__run_last(v[k]);

		for (n = v[k]; !ret; n = ember_callchain_node__first_child(n)) {
			ret = set_unfolded(b, n, unfold);
			if (n == last)
				break;
		}
		if (!ret)
			ret = fold_tree(b, last, unfold);
	}
	free(v);
	return ret;
}

static int fold_entry(struct browser *b, const struct ember_hist_entry *e, bool unfold)
{
	const struct ember_callchain_node *root = ember_hist_entry__callchain(e);

	if (!b->chains || !root || entry_sign(b, e) == ' ')
		return 0;
	if (set_unfolded(b, e, unfold))
		return -ENOMEM;
	return fold_tree(b, root, unfold);
}

static int fold_all(struct browser *b, bool unfold)
{
	size_t i;
	int ret = 0;

	if (!unfold) {
		hashtab__clear(&b->unfolded);
		return 0;
	}
	for (i = 0; i < ember_hist__nr_entries(b->h) && !ret; i++) {
		const struct ember_hist_entry *e = ember_hist__entry(b->h, i);

		if (shown(b, e))
			ret = fold_entry(b, e, true);
	}
	return ret;
}

/* '+': the current line's fold, when it has one. */
static int toggle_fold(struct browser *b)
{
	const struct row *r = b->nr_rows ? &b->rows[b->index] : NULL;

	if (!r || r->sign == ' ')
		return 0;
	return set_unfolded(b, r->n ? (const void *)r->n : (const void *)r->e, r->sign == '+');
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
	if (b->thread) {
		b->thread = NULL;
		drop_zoom(b, ZOOM_THREAD);
	} else if (e && e->thread) {
		b->thread = e->thread;
		b->thread_comm = entry_comm(b, e);
		b->tid = e->tid;
		b->zooms[b->nr_zooms++] = ZOOM_THREAD;
	}
	b->index = b->top = 0;
	b->po.entry_widths = true;
}

static void set_dso_elide(struct browser *b, bool on)
{
	const struct ember_hist_layout *l = ember_hist__opts(b->h)->layout;
	bool all = true;
	int c;

	for (c = 0; c < l->nr_cols; c++) {
		if (l->cols[c] == EMBER_HIST_DIM_DSO)
			b->elide[c] = on || l->elide[c];
		if (!ember_hist_dim__is_value(l->cols[c]))
			all &= b->elide[c];
	}
	/* as the table: a filter never hides every key column */
	if (all)
		for (c = 0; c < l->nr_cols; c++)
			if (l->cols[c] == EMBER_HIST_DIM_DSO)
				b->elide[c] = false;
}

static void zoom_dso(struct browser *b, const struct ember_hist_entry *e)
{
	if (b->dso) {
		b->dso = NULL;
		drop_zoom(b, ZOOM_DSO);
		set_dso_elide(b, false);
	} else if (e && e->dso) {
		b->dso = e->dso;
		b->dso_name = e->dso_name ? e->dso_name : "[unknown]";
		b->zooms[b->nr_zooms++] = ZOOM_DSO;
		set_dso_elide(b, true);
	}
	b->index = b->top = 0;
	b->po.entry_widths = true;
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
	"ENTER         Zoom into DSO/Threads\n"
	"ESC           Zoom out\n"
	"+             Expand/Collapse one callchain level\n"
	"C             Collapse all callchains\n"
	"c             Collapse the current entry's callchains\n"
	"d             Zoom into current DSO\n"
	"e             Expand/Collapse main entry callchains\n"
	"E             Expand all callchains\n"
	"H             Display column headers\n"
	"P             Print histograms to perf.hist.N\n"
	"t             Zoom into current Thread\n"
	"/             Filter symbol by name";

/* P: every row, as perf's hist_browser__dump() writes them, into the first free perf.hist.N. */
static void print_rows(struct browser *b)
{
	char name[32], line[4096];
	size_t i;
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
	for (i = 0; i < b->nr_rows; i++) {
		const struct row *r = &b->rows[i];

		if (r->n) {
			chain_text(b, r, line, sizeof(line));
			fprintf(fp, "%*s%c %s\n", r->offset, " ", r->sign, line);
		} else {
			struct span spans[MAX_SPANS];
			int nr_spans;

			entry_text(b, r, line, sizeof(line), spans, &nr_spans);
			fprintf(fp, "%s\n", line);
		}
	}
	if (fclose(fp))
		snprintf(b->help, sizeof(b->help), "Couldn't write to %s: %s", name,
			 strerror(errno));
	else
		snprintf(b->help, sizeof(b->help), "%s written!", name);
	b->print_seq++;
}

static void filter_symbol(struct browser *b)
{
	char buf[sizeof(b->sym_filter)];

	snprintf(buf, sizeof(buf), "%s", b->sym_filter);
	if (!tui_dialog__input("Symbol to show",
			       "Please enter the name of symbol you want to see.\n"
			       "To remove the filter later, press / + ENTER.",
			       buf, sizeof(buf)))
		return;
	snprintf(b->sym_filter, sizeof(b->sym_filter), "%s", buf);
	b->index = b->top = 0;
	b->po.entry_widths = true;
}

/* Enter: perf's context menu of the current line. */
static int context_menu(struct browser *b)
{
	const struct row *r = b->nr_rows ? &b->rows[b->index] : NULL;
	const struct ember_hist_entry *e = r ? r->e : NULL;
	enum { DO_THREAD, DO_DSO, DO_EXPAND, DO_EXIT } what[4];
	char texts[3][512];
	const char *items[4];
	int nr = 0, choice;

	if (e && (e->thread || b->thread)) {
		if (b->thread)
			snprintf(texts[nr], sizeof(texts[nr]), "Zoom out of %s thread",
				 b->thread_comm);
		else
			snprintf(texts[nr], sizeof(texts[nr]), "Zoom into %s thread",
				 entry_comm(b, e));
		items[nr] = texts[nr];
		what[nr++] = DO_THREAD;
	}
	if (e && (e->dso || b->dso)) {
		snprintf(texts[nr], sizeof(texts[nr]), "Zoom %s %s DSO", b->dso ? "out of" : "into",
			 b->dso ? b->dso_name : e->dso_name ? e->dso_name : "[unknown]");
		items[nr] = texts[nr];
		what[nr++] = DO_DSO;
	}
	if (r && r->sign != ' ') {
		const char *name = r->n ? r->n->name : e->sym_name;

		snprintf(texts[nr], sizeof(texts[nr]),
			 "Expand [%s] callchain (one level, same as '+' hotkey, use 'e'/'c' for the whole main level entry)",
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
	case DO_THREAD:
		zoom_thread(b, e);
		return 0;
	case DO_DSO:
		zoom_dso(b, e);
		return 0;
	case DO_EXPAND:
		return toggle_fold(b);
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
	const struct ember_hist_entry *e = b->nr_rows ? b->rows[b->index].e : NULL;
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
		ret = toggle_fold(b);
		break;
	case 'c':
		if (b->nr_rows && b->rows[b->index].sign == '-')
			ret = toggle_fold(b);
		break;
	case 'E':
	case 'C':
		ret = fold_all(b, key == 'E');
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
	case '/':
		filter_symbol(b);
		break;
	case 'P':
		print_rows(b);
		return 0;
	case 'h':
	case '?':
	case KEY_F(1):
		tui_dialog__text("Help", help_text, true);
		return 0;
	case KEY_ENTER:
	case TUI_KEY_ENTER_CR:
	case TUI_KEY_ENTER_LF:
		ret = context_menu(b);
		if (ret == 1) {
			*action = TUI_HIST_QUIT;
			return 1;
		}
		break;
	default:
		return 0;
	}
	return ret ? ret : build_rows(b);
}

enum tui_hist_action tui_hist_browser__run(const struct tui_hist_browser_opts *o)
{
	const struct ember_hist_opts *ho = ember_hist__opts(o->hist);
	struct browser b = {
		.o = o,
		.h = o->hist,
		.po = *o->po,
		.show_headers = true,
	};
	enum tui_hist_action action = TUI_HIST_ERROR;

	b.po.hidden = hidden;
	b.po.hidden_ctx = &b;
	b.chains = ho->use_callchain && ho->chain.mode != EMBER_CALLCHAIN_NONE;
	b.pp = (struct report_chain_print){
		.param = &ho->chain,
		.min_hit = ember_hist__callchain_min_hit(o->hist, o->po->filter_relative),
	};
	memcpy(b.elide, ho->layout->elide, sizeof(b.elide));
	if (build_rows(&b))
		goto out;
	for (;;) {
		int key, ret;

		draw(&b);
		key = tui_dialog__key(o->update_ms > 0 ? o->update_ms : -1);
		if (key == KEY_RESIZE)
			continue;
		if (key < 0) {
			if (!o->update)
				continue;
			if (o->update(o->ctx, &b.h)) {
				action = TUI_HIST_QUIT;
				break;
			}
			b.pp.min_hit = ember_hist__callchain_min_hit(b.h, o->po->filter_relative);
			if (build_rows(&b))
				break;
			continue;
		}
		ret = handle_key(&b, key, &action);
		if (ret)
			break;
	}
out:
	hashtab__exit(&b.unfolded);
	free(b.rows);
	return action;
}
