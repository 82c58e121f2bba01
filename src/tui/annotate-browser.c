// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf annotate's browser (perf 6.1's ui/browsers/annotate.c and
 * annotation_line__write(), their layout and keys, our own code).
 *
 * A row per line objdump -l -S gives (the file:line markers left out),
 * each drawn as perf draws it:
 *
 *   PERCENT│ADDR: G INSN OPERANDS       an instruction
 *   PERCENT│      SOURCE TEXT           any other line
 *
 * PERCENT is "%6.2f " per event (or the samples, or the period: t),
 * "Percent" on the first row when that row has none; ADDR the offset of
 * a jump target (all addresses with o); G perf's graph: ↓ ↑ a jump
 * inside the symbol, → a call or a jump out, ← a ret. The current jump
 * gets its line drawn from the jump to its target.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ncursesw/curses.h>
#include "tui/annotate-browser.h"
#include "tui/dialog.h"
#include "tui/screen.h"

/* perf's graph characters, as placeholders in a row's text */
enum { G_DOWN = 1, G_UP, G_RIGHT, G_LEFT };

struct row {
	const char *text;		/* leading blanks skipped */
	long insn;			/* -1: not an instruction */
	int line_nr;			/* perf's number of a source line (k) */
	int jump_sources;		/* jumps of the symbol that land here */
	long target_row;		/* a jump inside the symbol: the row it lands on */
	bool outside;			/* a jump out of the symbol: follow it as a call */
	char kind;			/* 'j' jump, 'c' call, 'r' ret, 0 other */
};

struct browser {
	const struct tui_annotate_browser_opts *o;
	const struct ember_annotation *a;
	struct row *rows;
	size_t nr_rows;
	size_t *shown;			/* the rows shown (s hides the source lines) */
	size_t nr_shown;
	size_t index, top;		/* into shown */
	size_t *hot;			/* the instruction rows, coldest first (TAB) */
	size_t nr_hot, hot_pos;
	bool navkeypressed;
	/* perf's options */
	bool hide_source, use_offset, jump_arrows, show_linenr, show_nr_jumps;
	int addr_w, target_w, max_addr_w, jumps_w, max_name;
	int fused_family, fused_model;	/* 0: no fusion known */
	bool fused_amd;
	char help[256];			/* a message over the help line, until the next key */
	/* back from a callee, perf's title lines: its symbol line on top, the callee's under */
	char title[512], sym_line[512];
	bool sym_line_gone;		/* perf redraws no symbol line after a resize */
	char search[128];
	bool search_back;
};

static const char help_line[] = "Press 'h' for help on key bindings";

/* perf's hex_width(): the hex digits of x. */
static int hex_width(uint64_t x)
{
	int n = 1;

	while ((x >>= 4))
		n++;
	return n;
}

static uint64_t sym_size(const struct ember_annotation *a)
{
	size_t n = ember_annotation__nr_insns(a);
	const struct ember_annotation_insn *last = n ? ember_annotation__insn(a, n - 1) : NULL;

	return last ? last->offset + last->size : 0;
}

/* An instruction's name (its first word) and operands. */
static void split_insn(const char *text, char *name, size_t size, const char **ops)
{
	size_t n = strcspn(text, " \t");

	snprintf(name, size, "%.*s", (int)n, text);
	*ops = text + n + strspn(text + n, " \t");
}

static int width_of(int n)
{
	char tmp[16];

	return snprintf(tmp, sizeof(tmp), "%d", n);
}

/* ---- the rows ----------------------------------------------------------------- */

static long row_of_offset(const struct browser *b, uint64_t offset)
{
	for (size_t r = 0; r < b->nr_rows; r++)
		if (b->rows[r].insn >= 0 &&
		    ember_annotation__insn(b->a, (size_t)b->rows[r].insn)->offset == offset)
			return (long)r;
	return -1;
}

static void classify(struct browser *b, struct row *r, const char *plt)
{
	const struct ember_annotation_insn *in = ember_annotation__insn(b->a, (size_t)r->insn);
	uint64_t start = ember_annotation__addr(b->a);
	char name[32];
	const char *ops;

	split_insn(r->text, name, sizeof(name), &ops);
	if (!strcmp(name, "ret") || !strcmp(name, "retq"))
		r->kind = 'r';
	else if (!strcmp(name, "call") || !strcmp(name, "callq"))
		r->kind = 'c';
	else if (name[0] == 'j')
		r->kind = 'j';
	if (r->kind != 'j')
		return;
	/* perf's jump__parse(): out of [start, end] (end included) is a call's */
	r->outside = !in->has_target || in->target < start || in->target > start + sym_size(b->a);
	if (!r->outside && !plt)
		r->target_row = row_of_offset(b, in->target - start);
}

static int build_rows(struct browser *b)
{
	const struct annotate_lines *l = b->o->lines;
	const char *plt = strstr(b->o->sym_name, "@plt");
	int line_nr = 0, max_jumps = 0;

	b->rows = calloc(l->nr ? l->nr : 1, sizeof(*b->rows));
	b->shown = calloc(l->nr ? l->nr : 1, sizeof(*b->shown));
	b->hot = calloc(l->nr ? l->nr : 1, sizeof(*b->hot));
	if (!b->rows || !b->shown || !b->hot)
		return -ENOMEM;
	for (size_t i = 0; i < l->nr; i++) {
		struct row *r = &b->rows[b->nr_rows];

		if (l->lines[i].insn < 0 && annotate__is_marker(l->lines[i].text, &line_nr))
			continue;
		r->text = l->lines[i].text + strspn(l->lines[i].text, " \t");
		r->insn = l->lines[i].insn;
		r->line_nr = line_nr++;
		r->target_row = -1;
		b->nr_rows++;
	}
	for (size_t i = 0; i < b->nr_rows; i++) {
		struct row *r = &b->rows[i];
		char name[32];
		const char *ops;

		if (r->insn < 0)
			continue;
		classify(b, r, plt);
		split_insn(r->text, name, sizeof(name), &ops);
		if ((int)strlen(name) > b->max_name)
			b->max_name = (int)strlen(name);
		if (r->target_row >= 0) {
			struct row *t = &b->rows[r->target_row];

			if (++t->jump_sources > max_jumps)
				max_jumps = t->jump_sources;
		}
	}
	b->target_w = hex_width(sym_size(b->a));
	b->max_addr_w = hex_width(ember_annotation__addr(b->a) + sym_size(b->a));
	b->jumps_w = width_of(max_jumps);
	return 0;
}

/* The rows shown: all, or the instructions only (s). */
static void filter_rows(struct browser *b)
{
	b->nr_shown = 0;
	for (size_t i = 0; i < b->nr_rows; i++)
		if (!b->hide_source || b->rows[i].insn >= 0)
			b->shown[b->nr_shown++] = i;
}

/* perf's annotation__update_column_widths() */
static void update_widths(struct browser *b)
{
	b->addr_w = b->use_offset ? b->target_w : b->max_addr_w;
	if (b->show_nr_jumps)
		b->addr_w += b->jumps_w + 1;
}

static int nr_columns(const struct browser *b)
{
	return (int)b->o->sp->nr_events;
}

static int pcnt_width(const struct browser *b)
{
	return (b->o->po->show_total_period ? 12 : 7) * nr_columns(b);
}

static double row_percent(const struct browser *b, const struct row *r, uint32_t e)
{
	return annotate__insn_percent(b->o->sp, b->o->po, (size_t)r->insn, e);
}

static double max_percent(const struct browser *b, const struct row *r)
{
	double max = 0.0;

	for (uint32_t e = 0; r->insn >= 0 && e < b->o->sp->nr_events; e++) {
		double p = row_percent(b, r, e);

		max = p > max ? p : max;
	}
	return max;
}

/* perf's tree of the hot lines: by the events' percents, the later line above its equal */
static int cmp_hot(const void *pa, const void *pb, void *ctx)
{
	const struct browser *b = ctx;
	const struct row *x = &b->rows[*(const size_t *)pa], *y = &b->rows[*(const size_t *)pb];

	for (uint32_t e = 0; e < b->o->sp->nr_events; e++) {
		double p = row_percent(b, x, e), q = row_percent(b, y, e);

		if (p != q)
			return p < q ? -1 : 1;
	}
	return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

static void sort_hot(struct browser *b)
{
	b->nr_hot = 0;
	for (size_t i = 0; i < b->nr_rows; i++)
		if (b->rows[i].insn >= 0)
			b->hot[b->nr_hot++] = i;
	qsort_r(b->hot, b->nr_hot, sizeof(*b->hot), cmp_hot, b);
	b->hot_pos = b->nr_hot ? b->nr_hot - 1 : 0;
}

/* ---- a row's text --------------------------------------------------------------- */

/* perf's x86 instructions whose two operands it parses (mov_ops), naming rip-relative ones */
static bool is_mov_like(const char *name)
{
	static const char *const names[] = {
		"add", "addl", "addq", "addsd", "addw", "and", "andb", "andl", "andpd", "andps",
		"andq", "andw", "bts", "cmovbe", "cmovae", "cmove", "cmp", "cmpb", "cmpl", "cmpq",
		"cmpw", "cmpxch", "cmpxchg", "imul", "lea", "mov", "movapd", "movaps", "movb",
		"movdqa", "movdqu", "movl", "movq", "movsd", "movslq", "movss", "movzbl", "movzwl",
		"movsbl", "movsbw", "movsbq", "movswl", "movswq", "movzbw", "movzbq", "movzwq",
		"mulsd", "mulss", "or", "orb", "orl", "orps", "orq", "pand", "paddq", "pcmpeqb",
		"por", "rclb", "rcll", "sbb", "sbbl", "sub", "subl", "subq", "subsd", "subss", "subw",
		"test", "testb", "testl", "testq", "testw", "ucomisd", "ucomiss", "vaddsd", "vandpd",
		"vmovdqa", "vmovq", "vmovsd", "vmulsd", "vorpd", "vsubsd", "vucomisd", "xadd",
		"xchg", "xor", "xorb", "xorpd", "xorps",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* perf's comment__symbol(): a rip-relative operand named after objdump's "# addr <name>" */
static void operand(char *out, size_t size, const char *op, size_t len, const char *comment)
{
	const char *lt = NULL, *gt = NULL;
	char *end;

	if (comment && memmem(op, len, "(%rip)", 6)) {
		strtoull(comment, &end, 16);
		lt = end != comment ? strchr(end, '<') : NULL;
		gt = lt ? strchr(lt, '>') : NULL;
	}
	if (gt)
		snprintf(out, size, "%.*s", (int)(gt - lt - 1), lt + 1);
	else
		snprintf(out, size, "%.*s", (int)len, op);
}

/*
 * perf's mov__parse() and mov__scnprintf(): "NAME SOURCE,TARGET", the
 * comment dropped; false where perf's parse gives up (its text is then
 * objdump's): no comma, or a source's parenthesis not closed right
 * before one.
 */
static bool mov_text(const char *ops, int w, const char *name, char *buf, size_t size)
{
	const char *comma = strchr(ops, ','), *target, *comment, *end;
	char src[128], dst[128];

	if (!comma)
		return false;
	/* the source's own commas, up to its closing parenthesis */
	if (memchr(ops, '(', comma - ops)) {
		const char *paren = strchr(ops, ')');

		if (!paren || paren[1] != ',')
			return false;
		comma = paren + 1;
	}
	target = comma + 1 + strspn(comma + 1, " \t");
	comment = strchr(comma + 1, '#');
	end = comment ? comment : target + strlen(target);
	while (end > target && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	operand(src, sizeof(src), ops, comma - ops, comment ? comment + 1 : NULL);
	operand(dst, sizeof(dst), target, end - target, comment ? comment + 1 : NULL);
	snprintf(buf, size, "%-*s %s,%s", w, name, src, dst);
	return true;
}

/* perf's dec__scnprintf() for inc and dec: the one operand, named when rip-relative */
static void one_operand_text(const char *ops, int w, const char *name, char *buf, size_t size)
{
	const char *comment = strchr(ops, '#'), *end = comment ? comment : ops + strlen(ops);
	char op[128];

	while (end > ops && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	operand(op, sizeof(op), ops, end - ops, comment ? comment + 1 : NULL);
	snprintf(buf, size, "%-*s %s", w, name, op);
}

/* The instruction as perf's TUI shows it (disasm_line__scnprintf()). */
static void insn_text(const struct browser *b, const struct row *r, char *buf, size_t size)
{
	const struct ember_annotation_insn *in = ember_annotation__insn(b->a, (size_t)r->insn);
	int w = b->max_name;
	char name[32];
	const char *ops;

	split_insn(r->text, name, sizeof(name), &ops);
	if (!b->use_offset) {
		snprintf(buf, size, "%-*s %s", w, name, ops);
		return;
	}
	if (r->kind == 'j' && !r->outside) {
		/* the operands before the target kept (a 3-operand jump), the target's offset */
		const char *c = strrchr(ops, ',');
		int keep = c ? (int)(c + 1 - ops) : 0;

		snprintf(buf, size, "%-*s %.*s%" PRIx64, w, name, keep, ops,
			 in->target - ember_annotation__addr(b->a));
		return;
	}
	if (r->kind == 'c' || r->kind == 'j') {
		/*
		 * perf's call__scnprintf(), jump__scnprintf() out of the symbol:
		 * a jump back before its start keeps objdump's text
		 */
		bool before = r->kind == 'j' && in->target < ember_annotation__addr(b->a);
		const char *sym = in->has_target && !before && b->o->symbol_at ?
					  b->o->symbol_at(b->o->ctx, in->target) : NULL;
		const char *lt = strchr(ops, '<'), *gt = lt ? strchr(lt, '>') : NULL;

		if (sym)
			snprintf(buf, size, "%-*s %s", w, name, sym);
		else if (r->kind == 'c' && in->has_target && gt)
			snprintf(buf, size, "%-*s %.*s", w, name, (int)(gt - lt - 1), lt + 1);
		else if (r->kind == 'c' && in->has_target)
			snprintf(buf, size, "%-*s *%" PRIx64, w, name, in->target);
		else
			snprintf(buf, size, "%-*s %s", w, name, ops);
		return;
	}
	if (is_mov_like(name) && mov_text(ops, w, name, buf, size))
		return;
	if (!strcmp(name, "inc") || !strcmp(name, "incl") || !strcmp(name, "dec") ||
	    !strcmp(name, "decl")) {
		one_operand_text(ops, w, name, buf, size);
		return;
	}
	snprintf(buf, size, "%-*s %s", w, name, ops);
}

/* What colours a row's text: the percent's, then the address's span. */
struct row_colors {
	double percent;			/* the last event's: the rest of the row takes it */
	int addr_start, addr_len;
};

static int cat(char *buf, size_t size, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int cat(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, size - *pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	*pos = *pos + (size_t)n < size ? *pos + (size_t)n : size - 1;
	return n;
}

/*
 * A row's text, as perf's annotation_line__write() prints it in width
 * cells (0: as it writes it to a file, padded by its negative widths).
 */
static void row_text(const struct browser *b, const struct row *r, bool first, int width,
		     char *buf, size_t size, struct row_colors *c)
{
	const struct annotate_print_opts *po = b->o->po;
	int pw = pcnt_width(b), printed;
	double max = max_percent(b, r);
	size_t pos = 0;

	buf[0] = '\0';
	c->percent = 0.0;
	c->addr_start = c->addr_len = 0;
	if (r->insn >= 0 && max != 0.0) {
		for (uint32_t e = 0; e < b->o->sp->nr_events; e++) {
			uint64_t nr = 0, period = 0;

			ember_annotation__sum(b->a, (size_t)r->insn, b->o->sp->hist,
					      b->o->sp->events[e], &nr, &period);
			c->percent = row_percent(b, r, e);
			if (po->show_total_period)
				cat(buf, size, &pos, "%11" PRIu64 " ", period);
			else if (po->show_nr_samples)
				cat(buf, size, &pos, "%6" PRIu64 " ", nr);
			else
				cat(buf, size, &pos, "%6.2f ", c->percent);
		}
	} else {
		cat(buf, size, &pos, "%-*s", pw,
		    !first ? " " :
		    po->show_total_period ? "Period" :
		    po->show_nr_samples ? "Samples" : "Percent");
	}
	cat(buf, size, &pos, " ");
	if (!*r->text) {
		cat(buf, size, &pos, "%-*s", width - pw, " ");
		return;
	}
	if (r->insn < 0) {
		if (r->line_nr && b->show_linenr)
			printed = cat(buf, size, &pos, "%-*d ", b->addr_w + 1, r->line_nr);
		else
			printed = cat(buf, size, &pos, "%-*s  ", b->addr_w, " ");
		cat(buf, size, &pos, "%-*s", width - printed - pw + 1, r->text);
		return;
	}
	{
		const struct ember_annotation_insn *in =
			ember_annotation__insn(b->a, (size_t)r->insn);
		char text[512];

		c->addr_start = (int)pos;
		if (!b->use_offset) {
			printed = cat(buf, size, &pos, "%" PRIx64 ": ", in->addr);
		} else if (r->jump_sources) {
			if (b->show_nr_jumps)
				cat(buf, size, &pos, "%*d ", b->jumps_w, r->jump_sources);
			printed = cat(buf, size, &pos, "%*" PRIx64 ": ", b->target_w, in->offset);
		} else {
			printed = cat(buf, size, &pos, "%-*s  ", b->addr_w, " ");
		}
		c->addr_len = (int)pos - c->addr_start;
		switch (r->kind) {
		case 'j':
			cat(buf, size, &pos, "%c ",
			    r->outside ? G_RIGHT :
			    in->target - ember_annotation__addr(b->a) > in->offset ? G_DOWN : G_UP);
			break;
		case 'c':
			cat(buf, size, &pos, "%c ", G_RIGHT);
			break;
		case 'r':
			cat(buf, size, &pos, "%c ", G_LEFT);
			break;
		default:
			cat(buf, size, &pos, "  ");
		}
		insn_text(b, r, text, sizeof(text));
		cat(buf, size, &pos, "%-*s", width - pw - 3 - printed, text);
	}
}

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
	case G_DOWN:
		return ACS_DARROW;
	case G_UP:
		return ACS_UARROW;
	case G_RIGHT:
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

		while (n < len && s[n] > G_LEFT)
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
	const struct row *r = &b->rows[b->shown[i]];
	bool current = i == b->index, sel = current && b->navkeypressed;
	enum tui_color color;
	struct row_colors c;
	char buf[1024];
	int len, used = 0;

	row_text(b, r, i == b->top, width, buf, sizeof(buf), &c);
	len = (int)strlen(buf);
	color = percent_color(b, c.percent, current);
	move(y, 0);
	tui_screen__set_color(color);
	if (c.addr_len && !b->hide_source && !sel) {
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

static size_t shown_index(const struct browser *b, size_t row)
{
	for (size_t i = 0; i < b->nr_shown; i++)
		if (b->shown[i] >= row)
			return i;
	return b->nr_shown ? b->nr_shown - 1 : 0;
}

/* perf's is_fused(): the instruction before the jump is fused with it; the rows between. */
static int fused(const struct browser *b, size_t jump_row)
{
	const struct row *j = &b->rows[jump_row];
	char first[32], second[32];
	const char *ops;
	int diff = 1;
	long p = (long)jump_row - 1;

	if (!b->fused_family)
		return 0;
	while (p >= 0 && b->rows[p].insn < 0) {
		p--;
		if (!b->hide_source)
			diff++;
	}
	if (p < 0)
		return 0;
	split_insn(b->rows[p].text, first, sizeof(first), &ops);
	split_insn(j->text, second, sizeof(second), &ops);
	if (strstr(second, "jmp"))
		return 0;
	if (b->fused_amd) {
		if (b->fused_family >= 0x15 && (!strncmp(first, "test", 4) ||
						(!strncmp(first, "cmp", 3) && !strstr(first, "xchg"))))
			return diff;
		if (b->fused_family >= 0x19 &&
		    (!strncmp(first, "add", 3) || !strncmp(first, "sub", 3) ||
		     !strncmp(first, "and", 3) || !strncmp(first, "inc", 3) ||
		     !strncmp(first, "dec", 3) || !strncmp(first, "or", 2) ||
		     !strncmp(first, "xor", 3)))
			return diff;
		return 0;
	}
	if (b->fused_family != 6 || b->fused_model < 0x1e)
		return 0;
	if ((strstr(first, "cmp") && !strstr(first, "xchg")) || strstr(first, "test"))
		return diff;
	if (b->fused_model != 0x1e && (strstr(first, "add") || strstr(first, "sub") ||
				       strstr(first, "and") || strstr(first, "inc") ||
				       strstr(first, "dec")))
		return diff;
	return 0;
}

/*
 * perf's __ui_browser__line_arrow(): from the current jump's row to its
 * target's, at column x: a corner and two dashes at the jump, the line,
 * a corner, a dash and an arrow at the target.
 */
static void draw_jump(const struct browser *b)
{
	const struct row *cur = b->nr_shown ? &b->rows[b->shown[b->index]] : NULL;
	int x = pcnt_width(b) + 2 + b->addr_w, y0 = 2, rows = rows_shown(), diff;
	long from, to, row, end;

	if (!b->jump_arrows || !cur || cur->kind != 'j' || cur->outside || cur->target_row < 0 ||
	    strstr(b->o->sym_name, "@plt"))
		return;
	if (b->hide_source && b->rows[cur->target_row].insn < 0)
		return;
	from = (long)b->index;
	to = (long)shown_index(b, (size_t)cur->target_row);
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
	diff = fused(b, b->shown[b->index]);
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
	if (b->top >= b->nr_shown)
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
	tui_screen__write(1, 0, b->sym_line_gone ? "" : b->sym_line[0] ? b->sym_line : title,
			  COLS);
	for (int r = 0; r < rows; r++) {
		size_t i = b->top + (size_t)r;

		if (i < b->nr_shown) {
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
		draw_vline(2, 2 + rows - 1, pcnt_width(b));
	for (int r = (int)(b->nr_shown - b->top); r >= 0 && r < rows; r++)
		tui_screen__write(2 + r, 0, "", width);
	tui_screen__set_color(TUI_HELPLINE);
	tui_screen__write(LINES - 1, 0, b->help[0] ? b->help : help_line, width);
	/* perf's bar: from the first row to the bottom line */
	if (b->navkeypressed) {
		int height = LINES - 2, pct = 0;

		if (b->nr_shown > 1)
			pct = (int)(b->index * (size_t)(height - 1) / (b->nr_shown - 1));
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
	if (b->hide_source && b->rows[row].insn < 0)
		return;
	set_top(b, shown_index(b, row));
}

static bool is_nav_key(int key)
{
	return key == KEY_DOWN || key == KEY_UP || key == KEY_NPAGE || key == KEY_PPAGE ||
	       key == KEY_HOME || key == KEY_END || key == ' ';
}

/* ui_browser__run()'s moves */
static void navigate(struct browser *b, int key)
{
	size_t rows = (size_t)rows_shown(), n = b->nr_shown, offset;

	if (!n)
		return;
	switch (key) {
	case KEY_DOWN:
		if (b->index + 1 < n)
			b->index++;
		break;
	case KEY_UP:
		if (b->index)
			b->index--;
		break;
	case KEY_NPAGE:
	case ' ':
		if (b->top + rows > n - 1)
			break;
		offset = b->index + rows > n - 1 ? n - 1 - b->index : rows;
		b->index += offset;
		b->top += offset;
		break;
	case KEY_PPAGE:
		offset = b->top < rows ? b->top : rows;
		b->index -= offset;
		b->top -= offset;
		break;
	case KEY_HOME:
		b->index = b->top = 0;
		break;
	case KEY_END:
		offset = rows ? rows - 1 : 0;
		if (offset >= n)
			offset = n - 1;
		b->index = n - 1;
		b->top = b->index - offset;
		break;
	}
}

/* s: the source lines hidden or shown, the current instruction kept. */
static void toggle_source(struct browser *b)
{
	size_t cur = b->nr_shown ? b->shown[b->index] : 0;
	size_t offset = b->index - b->top;

	if (b->nr_shown && !b->hide_source && b->rows[cur].insn < 0) {
		/* perf: only from an instruction */
		snprintf(b->help, sizeof(b->help), "%s", help_line);
		return;
	}
	b->hide_source = !b->hide_source;
	filter_rows(b);
	b->index = shown_index(b, cur);
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
	for (size_t k = 1; k < b->nr_shown; k++) {
		size_t i = back ? (b->index + b->nr_shown - k) : (b->index + k);

		if (back ? k > b->index : i >= b->nr_shown)
			break;
		if (strstr(b->rows[b->shown[i]].text, b->search)) {
			set_top(b, i);
			return;
		}
	}
	snprintf(b->help, sizeof(b->help), "String not found!");
}

/* P: every row into SYM.annotation, as perf's map_symbol__annotation_dump() writes it. */
static void print_rows(struct browser *b)
{
	static const char *const graphs[] = { [G_DOWN] = "↓", [G_UP] = "↑", [G_RIGHT] = "→",
					      [G_LEFT] = "←" };
	char name[512], buf[1024];
	FILE *fp;

	snprintf(name, sizeof(name), "%s.annotation", b->o->sym_name);
	fp = fopen(name, "w");
	if (!fp)
		return;
	fprintf(fp, "%s() %s\nEvent: %s\n\n", b->o->sym_name, b->o->sp->dso_long_name,
		b->o->sp->event_name);
	for (size_t i = 0; i < b->nr_shown; i++) {
		struct row_colors c;

		row_text(b, &b->rows[b->shown[i]], i == 0, 0, buf, sizeof(buf), &c);
		for (const char *p = buf; *p; p++) {
			if (*p >= G_DOWN && *p <= G_LEFT)
				fputs(graphs[(int)*p], fp);
			else
				fputc(*p, fp);
		}
		fputc('\n', fp);
	}
	fclose(fp);
}

static const char help_text[] =
	"UP/DOWN/PGUP\n"
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
	"s             Toggle source code view\n"
	"t             Circulate percent, total period, samples view\n"
	"/             Search string\n"
	"k             Toggle line numbers\n"
	"P             Print to [symbol_name].annotation file.\n"
	"?             Search string backwards";

/* Enter or Right: go to a jump's target, into a call, or (a ret) leave. 1: leave. */
static int follow(struct browser *b, enum tui_annotate_action *action)
{
	const struct row *r = b->nr_shown ? &b->rows[b->shown[b->index]] : NULL;
	const struct ember_annotation_insn *in;
	char why[256] = "";
	int err;

	if (!r || r->insn < 0) {
		snprintf(b->help, sizeof(b->help), "Actions are only available for assembly lines.");
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
	in = ember_annotation__insn(b->a, (size_t)r->insn);
	if (r->kind == 'j' && !r->outside) {
		if (r->target_row < 0)
			snprintf(b->help, sizeof(b->help), "Invalid jump offset: %" PRIx64,
				 in->target - ember_annotation__addr(b->a));
		else
			go_to_row(b, (size_t)r->target_row);
		return 0;
	}
	err = in->has_target && b->o->follow ? b->o->follow(b->o->ctx, in->target, why,
							     sizeof(why)) :
					       -ENOENT;
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
		if (!b->nr_hot)
			break;
		if (key == TUI_KEY_TAB)
			b->hot_pos = b->hot_pos ? b->hot_pos - 1 : b->nr_hot - 1;
		else
			b->hot_pos = b->hot_pos + 1 < b->nr_hot ? b->hot_pos + 1 : 0;
		go_to_row(b, b->hot[b->hot_pos]);
		break;
	case 'H':
		if (b->nr_hot) {
			b->hot_pos = b->nr_hot - 1;
			go_to_row(b, b->hot[b->hot_pos]);
		}
		break;
	case 'h':
	case KEY_F(1):
		tui_dialog__text("Help", help_text, true);
		break;
	case 'k':
		b->show_linenr = !b->show_linenr;
		break;
	case 's':
		toggle_source(b);
		break;
	case 'o':
		b->use_offset = !b->use_offset;
		update_widths(b);
		break;
	case 'j':
		b->jump_arrows = !b->jump_arrows;
		break;
	case 'J':
		b->show_nr_jumps = !b->show_nr_jumps;
		update_widths(b);
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

/* perf's x86 ins_is_fused() knows the recording cpu: "Vendor,family,model,..." */
static void setup_fusion(struct browser *b)
{
	const char *id = b->o->cpuid;
	unsigned int family, model;

	if (!id || sscanf(id, "%*[^,],%u,%u", &family, &model) != 2)
		return;
	b->fused_amd = strstr(id, "AuthenticAMD") != NULL;
	if (!b->fused_amd && !strstr(id, "Intel"))
		return;
	b->fused_family = (int)family;
	b->fused_model = (int)model;
}

enum tui_annotate_action tui_annotate_browser__run(const struct tui_annotate_browser_opts *o)
{
	struct browser b = {
		.o = o,
		.a = o->sp->a,
		.use_offset = true,
		.jump_arrows = true,
	};
	enum tui_annotate_action action = TUI_ANNOTATE_ERROR;

	if (build_rows(&b))
		goto out;
	setup_fusion(&b);
	update_widths(&b);
	filter_rows(&b);
	sort_hot(&b);
	/* perf starts on the hottest instruction, half a screen under the top */
	if (b.nr_hot)
		go_to_row(&b, b.hot[b.hot_pos]);
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
	free(b.rows);
	free(b.shown);
	free(b.hot);
	return action;
}
