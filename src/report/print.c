// SPDX-License-Identifier: GPL-2.0-only
/*
 * The stdio table of perf report: "# " column headers and dots, one row
 * per entry ("  " before each column; percentages, counts and periods
 * right-aligned, names left-aligned and padded, the symbol column
 * unpadded when last), each row followed by its callchain.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

#define UNRESOLVED_WIDTH 16	/* perf: BITS_PER_LONG / 4 */

/* What the printer looks at: the histogram, its options and layout, the print options. */
struct table {
	const struct ember_hist *h;
	const struct ember_hist_opts *ho;
	const struct ember_hist_layout *l;
	const struct report_print_opts *po;
};

unsigned long report_convert_unit(unsigned long value, char *unit)
{
	*unit = ' ';
	if (value > 1000) {
		value /= 1000;
		*unit = 'K';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'M';
	}
	if (value > 1000) {
		value /= 1000;
		*unit = 'G';
	}
	return value;
}

static const char *header_of(const struct table *t, enum ember_hist_dim d)
{
	switch (d) {
	case EMBER_HIST_DIM_OVERHEAD:
		return t->l->self_header ? "Self" : "Overhead";
	case EMBER_HIST_DIM_OVERHEAD_SYS:
		return "sys";
	case EMBER_HIST_DIM_OVERHEAD_US:
		return "usr";
	case EMBER_HIST_DIM_OVERHEAD_GUEST_SYS:
		return "guest sys";
	case EMBER_HIST_DIM_OVERHEAD_GUEST_US:
		return "guest usr";
	case EMBER_HIST_DIM_OVERHEAD_CHILDREN:
		return "Children";
	case EMBER_HIST_DIM_SAMPLE:
		return "Samples";
	case EMBER_HIST_DIM_PERIOD:
		return "Period";
	case EMBER_HIST_DIM_PID:
		return "    Pid:Command";
	case EMBER_HIST_DIM_COMM:
		return "Command";
	case EMBER_HIST_DIM_DSO:
		return "Shared Object";
	case EMBER_HIST_DIM_SYM:
		return "Symbol";
	case EMBER_HIST_DIM_PARENT:
		return "Parent symbol";
	case EMBER_HIST_DIM_CPU:
		return "CPU";
	case EMBER_HIST_DIM_SOCKET:
		return "Socket";
	case EMBER_HIST_DIM_SYMBOL_SIZE:
		return "Symbol size";
	case EMBER_HIST_DIM_DSO_SIZE:
		return "DSO size";
	case EMBER_HIST_DIM_IPC_NULL:
		return "IPC   [IPC Coverage]";
	case EMBER_HIST_DIM_SRCLINE:
		return "Source:Line";
	case EMBER_HIST_DIM_SRCFILE:
		return "Source File";
	case EMBER_HIST_DIM_TRACE:
		return "Trace output";
	case EMBER_HIST_DIM_ADDR:
		return "Address";
	case EMBER_HIST_DIM_TIME:
		return "Time";
	case EMBER_HIST_DIM_WEIGHT:
		return "Weight";
	case EMBER_HIST_DIM_LOCAL_WEIGHT:
		return "Local Weight";
	case EMBER_HIST_DIM_TRANSACTION:
		return "Transaction                ";
	case EMBER_HIST_DIM_CGROUP:
		return "Cgroup";
	case EMBER_HIST_DIM_CGROUP_ID:
		return "cgroup id (dev/inode)";
	case EMBER_HIST_DIM_CODE_PAGE_SIZE:
		return "Code Page Size";
	case EMBER_HIST_DIM_INS_LAT:
		return "INSTR Latency";
	case EMBER_HIST_DIM_LOCAL_INS_LAT:
		return "Local INSTR Latency";
	default:
		return "";
	}
}

static const char *thread_comm(const struct table *t, const struct ember_hist_entry *e)
{
	const char *c = NULL;

	if (t->po->thread_comm && e->thread)
		c = t->po->thread_comm(e->thread);
	return c ? c : e->comm ? e->comm : "";
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* perf's hists__calc_col_len() over the entries that are not filtered. */
static void calc_widths(const struct table *t, int *w)
{
	bool unresolved = false;
	size_t i;
	int c;

	for (c = 0; c < t->l->nr_cols; c++) {
		enum ember_hist_dim d = t->l->cols[c];
		int len = t->po->entry_widths && !ember_hist_dim__is_value(d) ?
				  0 :
				  (int)strlen(header_of(t, d));

		if (d == EMBER_HIST_DIM_SAMPLE || d == EMBER_HIST_DIM_PERIOD ||
		    d == EMBER_HIST_DIM_TIME || d == EMBER_HIST_DIM_WEIGHT ||
		    d == EMBER_HIST_DIM_LOCAL_WEIGHT)
			len = max_int(len, 12);
		else if (d == EMBER_HIST_DIM_ADDR)
			len = max_int(len, 18);	/* perf: BITS_PER_LONG / 4 + 2 */
		else if (d == EMBER_HIST_DIM_INS_LAT)
			len = max_int(len, 13);
		else if (ember_hist_dim__is_value(d))
			len = max_int(len, 8);
		w[c] = len;
	}
	/* perf top measures only the rows its screen holds */
	for (i = 0; i < ember_hist__nr_entries(t->h) && (!t->po->max_rows || i < t->po->max_rows);
	     i++) {
		const struct ember_hist_entry *e = ember_hist__entry(t->h, i);

		if (e->filtered || (t->po->hidden && t->po->hidden(t->po->hidden_ctx, e)))
			continue;
		if (!e->sym)
			unresolved = true;
		for (c = 0; c < t->l->nr_cols; c++) {
			switch (t->l->cols[c]) {
			case EMBER_HIST_DIM_COMM:
				/* perf measures the entry's thread's comm as it is at the end */
				w[c] = max_int(w[c], strlen(thread_comm(t, e)));
				break;
			case EMBER_HIST_DIM_PID:
				w[c] = max_int(w[c], strlen(thread_comm(t, e)) + 8);
				break;
			case EMBER_HIST_DIM_DSO:
				if (e->dso_name)
					w[c] = max_int(w[c], strlen(e->dso_name));
				break;
			case EMBER_HIST_DIM_SYM:
				/* an inlined function's width is its name's, without " (inlined)" */
				w[c] = max_int(w[c], e->sym ? (int)strlen(e->sym_name) + 4 -
								      (e->inlined ? 10 : 0) :
							      UNRESOLVED_WIDTH + 4 + 2);
				break;
			case EMBER_HIST_DIM_PARENT:
				if (e->parent)
					w[c] = max_int(w[c], strlen(e->parent));
				break;
			/* perf counts only the strings it had to compute while sorting */
			case EMBER_HIST_DIM_SRCLINE:
				if (e->srcline && (e->src_seen & EMBER_HIST_SEEN_SRCLINE))
					w[c] = max_int(w[c], strlen(e->srcline));
				break;
			case EMBER_HIST_DIM_SRCFILE:
				if (e->srcfile && (e->src_seen & EMBER_HIST_SEEN_SRCFILE))
					w[c] = max_int(w[c], strlen(e->srcfile));
				break;
			case EMBER_HIST_DIM_TRACE:
				if (e->trace && (e->src_seen & EMBER_HIST_SEEN_TRACE))
					w[c] = max_int(w[c], strlen(e->trace));
				break;
			default:
				break;
			}
		}
	}
	/* perf widens the dso column for an unresolved symbol's address */
	if (unresolved && !t->po->dso_filter)
		for (c = 0; c < t->l->nr_cols; c++)
			if (t->l->cols[c] == EMBER_HIST_DIM_DSO)
				w[c] = max_int(w[c], UNRESOLVED_WIDTH);
}

static void print_headers(const struct table *t, const int *w, const char *sep, FILE *fp)
{
	bool first = true;
	int c;

	fputs("# ", fp);
	for (c = 0; c < t->l->nr_cols; c++) {
		enum ember_hist_dim d = t->l->cols[c];

		if (t->l->elide[c])
			continue;
		if (!first)
			fputs(sep ? sep : "  ", fp);
		first = false;
		if (ember_hist_dim__is_value(d))
			fprintf(fp, "%*s", w[c], header_of(t, d));
		else
			fprintf(fp, "%-*.*s", w[c], w[c], header_of(t, d));
	}
	/* perf: with -t the names are the whole header, no dots, no "#" line */
	if (sep) {
		fputc('\n', fp);
		return;
	}
	fputs("\n# ", fp);
	first = true;
	for (c = 0; c < t->l->nr_cols; c++) {
		int i;

		if (t->l->elide[c])
			continue;
		if (!first)
			fputs("  ", fp);
		first = false;
		for (i = 0; i < w[c]; i++)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * v / total : 0.0;
}

enum column_kind { COLUMN_TEXT, COLUMN_PERCENT, COLUMN_COUNT };

/* The numeric columns' value: a percentage of total, or a count; else text. */
static enum column_kind column_number(const struct ember_hist_entry *e, enum ember_hist_dim d,
				      uint64_t total, double *percent, uint64_t *count)
{
	const struct ember_hist_stat *st = &e->self;

	switch (d) {
	case EMBER_HIST_DIM_OVERHEAD:
		*percent = pct(st->period, total);
		return COLUMN_PERCENT;
	case EMBER_HIST_DIM_OVERHEAD_SYS:
		*percent = pct(st->period_sys, total);
		return COLUMN_PERCENT;
	case EMBER_HIST_DIM_OVERHEAD_US:
		*percent = pct(st->period_us, total);
		return COLUMN_PERCENT;
	case EMBER_HIST_DIM_OVERHEAD_GUEST_SYS:
		*percent = pct(st->period_guest_sys, total);
		return COLUMN_PERCENT;
	case EMBER_HIST_DIM_OVERHEAD_GUEST_US:
		*percent = pct(st->period_guest_us, total);
		return COLUMN_PERCENT;
	case EMBER_HIST_DIM_OVERHEAD_CHILDREN:
		*percent = pct(e->acc.period, total);
		return COLUMN_PERCENT;
	case EMBER_HIST_DIM_SAMPLE:
		*count = st->nr_events;
		return COLUMN_COUNT;
	case EMBER_HIST_DIM_PERIOD:
		*count = st->period;
		return COLUMN_COUNT;
	default:
		return COLUMN_TEXT;
	}
}

/* One column of a row into buf; returns its length. */
static int column(const struct table *t, const struct ember_hist_entry *e, enum ember_hist_dim d,
		  int w, bool last, uint64_t total, char *buf, size_t size)
{
	double percent;
	uint64_t count;
	int n;

	switch (column_number(e, d, total, &percent, &count)) {
	case COLUMN_PERCENT:
		/* perf's " %*.2f%%" of width - 2: a space even before 1000.00% and up */
		return snprintf(buf, size, " %*.2f%%", w - 2, percent);
	case COLUMN_COUNT:
		return snprintf(buf, size, "%*" PRIu64, w, count);
	case COLUMN_TEXT:
		break;
	}
	switch (d) {
	case EMBER_HIST_DIM_PID:
		return snprintf(buf, size, "%7d:%-*.*s", e->tid, max_int(w, 7) - 8,
				max_int(w, 7) - 8, thread_comm(t, e));
	case EMBER_HIST_DIM_COMM:
		return snprintf(buf, size, "%-*.*s", w, w, e->comm ? e->comm : "");
	case EMBER_HIST_DIM_DSO:
		return snprintf(buf, size, "%-*.*s", w, w, e->dso_name ? e->dso_name : "[unknown]");
	case EMBER_HIST_DIM_SYM:
		if (e->sym && e->sym_type == STT_OBJECT)
			/*
			 * perf's he->ip - map__unmap_ip(sym->start): right for a
			 * callchain entry (a raw ip), past the map's delta for a
			 * sample's own (a dso address), as perf prints it
			 */
			n = snprintf(buf, size, "[%c] %s+0x%" PRIx64, e->level, e->sym_name,
				     e->ip - e->sym_start - (e->addr_key - e->ip));
		else if (e->sym)
			/* perf cuts the name to the width, then adds " (inlined)" whole */
			n = snprintf(buf, size, "[%c] %.*s", e->level, w + (e->inlined ? 10 : 0),
				     e->sym_name);
		else
			n = snprintf(buf, size, "[%c] %-#.*" PRIx64, e->level, UNRESOLVED_WIDTH,
				     e->ip);
		if (!last && n < w && (size_t)n < size)
			n += snprintf(buf + n, size - n, "%*s", w - n, "");
		return n;
	case EMBER_HIST_DIM_PARENT:
		return snprintf(buf, size, "%-*.*s", w, w, e->parent ? e->parent : "[other]");
	case EMBER_HIST_DIM_ADDR:
		return snprintf(buf, size, "%-#*" PRIx64, w, e->addr_key);
	case EMBER_HIST_DIM_TIME: {
		char t[32];

		snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, e->time / 1000000000,
			 e->time % 1000000000 / 1000);
		n = snprintf(buf, size, "%.*s", w, t);
		if (!last && n < w && (size_t)n < size)
			n += snprintf(buf + n, size - n, "%*s", w - n, "");
		return n;
	}
	/* no such data in the file: perf's value for none */
	case EMBER_HIST_DIM_WEIGHT:
	case EMBER_HIST_DIM_LOCAL_WEIGHT:
	case EMBER_HIST_DIM_INS_LAT:
	case EMBER_HIST_DIM_LOCAL_INS_LAT:
		return snprintf(buf, size, "%-*d", w, 0);
	case EMBER_HIST_DIM_TRANSACTION:
		return snprintf(buf, size, "%-*s", w, "");
	case EMBER_HIST_DIM_CODE_PAGE_SIZE:
		return snprintf(buf, size, "%-*s", w, "N/A");
	case EMBER_HIST_DIM_CGROUP:
	case EMBER_HIST_DIM_CGROUP_ID:
		n = snprintf(buf, size, "%s", d == EMBER_HIST_DIM_CGROUP ? "N/A" : "0/0x0");
		if (!last && n < w && (size_t)n < size)
			n += snprintf(buf + n, size - n, "%*s", w - n, "");
		return n;
	case EMBER_HIST_DIM_SRCLINE:
	case EMBER_HIST_DIM_SRCFILE:
	case EMBER_HIST_DIM_TRACE:
		/* perf prints them unpadded, and pads any column but the last */
		n = snprintf(buf, size, "%.*s", w,
			     d == EMBER_HIST_DIM_SRCLINE ? e->srcline ?: "" :
			     d == EMBER_HIST_DIM_SRCFILE ? e->srcfile ?: "" :
			     e->trace ? e->trace : "N/A");
		if (!last && n < w && (size_t)n < size)
			n += snprintf(buf + n, size - n, "%*s", w - n, "");
		return n;
	case EMBER_HIST_DIM_CPU:
		return snprintf(buf, size, "%*.*d", w, w, e->cpu);
	case EMBER_HIST_DIM_SOCKET:
		return snprintf(buf, size, "%*.*d", w, w - 3, -1);
	case EMBER_HIST_DIM_SYMBOL_SIZE:
		if (e->sym)
			return snprintf(buf, size, "%*d", w, (int)(e->sym_end - e->sym_start));
		return snprintf(buf, size, "%*s", w, "unknown");
	case EMBER_HIST_DIM_IPC_NULL:
		return snprintf(buf, size, "%-*s", w, "-      -");
	case EMBER_HIST_DIM_DSO_SIZE:
		if (e->dso)
			return snprintf(buf, size, "%*d", w, (int)e->map_size);
		return snprintf(buf, size, "%*s", w, "unknown");
	default:
		return snprintf(buf, size, "%*s", w, "");
	}
}

/*
 * A column under -t, as perf prints it there: numbers unpadded after one
 * space; names as without -t but with every occurrence of the
 * separator's first character turned into '.', so that a separator never
 * appears inside a field (a space separator dots the padding too). Then,
 * except in the last column, spaces up to the column's width.
 */
static void sep_column(const struct table *t, const struct ember_hist_entry *e,
		       enum ember_hist_dim d, int w, bool last, uint64_t total, char sepc,
		       char *buf, size_t size)
{
	double percent;
	uint64_t count;
	int n;

	switch (column_number(e, d, total, &percent, &count)) {
	case COLUMN_PERCENT:
		n = snprintf(buf, size, " %.2f%%", percent);
		break;
	case COLUMN_COUNT:
		n = snprintf(buf, size, " %" PRIu64, count);
		break;
	default: {
		char *p;

		/* the symbol pads itself only when not last: pad below instead */
		n = column(t, e, d, w, true, total, buf, size);
		for (p = buf; sepc && (p = strchr(p, sepc)); p++)
			*p = '.';
		break;
	}
	}
	if (n < 0)
		n = 0;
	if ((size_t)n >= size)
		n = size - 1;
	if (!last && n < w)
		snprintf(buf + n, size - n, "%*s", w - n, "");
}

/*
 * A row under -t. perf builds it in a line buffer sized for the aligned
 * layout (the columns' widths, two spaces between them, 3 more), so a
 * separator longer than two characters can cut the end of a row: room is
 * that size.
 */
static void sep_row(const struct table *t, const struct ember_hist_entry *e, const int *w,
		    int last_col, uint64_t total, const char *sep, size_t room, FILE *fp)
{
	char buf[4096];
	bool first = true;
	int c;

	for (c = 0; c < t->l->nr_cols && room; c++) {
		size_t n;

		if (t->l->elide[c])
			continue;
		if (!first) {
			n = strlen(sep);
			n = n < room ? n : room;
			fwrite(sep, 1, n, fp);
			room -= n;
		}
		first = false;
		sep_column(t, e, t->l->cols[c], w[c], c == last_col, total, sep[0], buf,
			   sizeof(buf));
		n = strlen(buf);
		n = n < room ? n : room;
		fwrite(buf, 1, n, fp);
		room -= n;
	}
}

/* A row as perf top prints it: the columns of the aligned row, cut at room characters. */
static void cut_row(const struct table *t, const struct ember_hist_entry *e, const int *w,
		    int last_col, uint64_t total, size_t room, FILE *fp)
{
	char buf[4096];
	int c;

	for (c = 0; c < t->l->nr_cols && room; c++) {
		size_t n;

		if (t->l->elide[c])
			continue;
		n = room < 2 ? room : 2;
		fwrite("  ", 1, n, fp);
		room -= n;
		column(t, e, t->l->cols[c], w[c], c == last_col, total, buf, sizeof(buf));
		n = strlen(buf);
		n = n < room ? n : room;
		fwrite(buf, 1, n, fp);
		room -= n;
	}
	fputc('\n', fp);
}

void report__column_widths(const struct ember_hist *h, const struct report_print_opts *po, int *w)
{
	const struct ember_hist_opts *ho = ember_hist__opts(h);
	const struct table t = {.h = h, .ho = ho, .l = ho->layout, .po = po};

	calc_widths(&t, w);
}

int report__column_header(const struct ember_hist *h, const struct report_print_opts *po, int c,
			  int w, char *buf, size_t size)
{
	const struct ember_hist_opts *ho = ember_hist__opts(h);
	const struct table t = {.h = h, .ho = ho, .l = ho->layout, .po = po};
	enum ember_hist_dim d = ho->layout->cols[c];

	if (ember_hist_dim__is_value(d))
		return snprintf(buf, size, "%*s", w, header_of(&t, d));
	return snprintf(buf, size, "%-*.*s", w, w, header_of(&t, d));
}

int report__column(const struct ember_hist *h, const struct report_print_opts *po,
		   const struct ember_hist_entry *e, int c, int w, bool last, uint64_t total,
		   char *buf, size_t size, double *percent)
{
	const struct ember_hist_opts *ho = ember_hist__opts(h);
	const struct table t = {.h = h, .ho = ho, .l = ho->layout, .po = po};
	enum ember_hist_dim d = ho->layout->cols[c];
	uint64_t count;

	if (column_number(e, d, total, percent, &count) != COLUMN_PERCENT)
		*percent = -1;
	return column(&t, e, d, w, last, total, buf, size);
}

void report__fprintf_hist(const struct ember_hist *h, const struct report_print_opts *po, FILE *fp)
{
	const struct ember_hist_opts *ho = ember_hist__opts(h);
	const struct table tab = {.h = h, .ho = ho, .l = ho->layout, .po = po}, *t = &tab;
	uint64_t total = ember_hist__total_period(h, po->filter_relative);
	const struct ember_callchain_param *cp = &ho->chain;
	bool chains = ho->use_callchain && cp->mode != EMBER_CALLCHAIN_NONE;
	int w[EMBER_HIST_MAX_COLS];
	char buf[4096];
	size_t i, rows = 0;
	int c, last_col = 0;

	/* perf takes an empty -t for none */
	const char *sep = po->field_sep && *po->field_sep ? po->field_sep : NULL;
	size_t room = 3 - 2;	/* perf's row buffer, see sep_row() */

	calc_widths(t, w);
	for (c = 0; c < t->l->nr_cols; c++) {
		if (t->l->elide[c])
			continue;
		room += 2 + w[c];
		last_col = c;
	}
	if (po->show_header)
		print_headers(t, w, sep, fp);

	for (i = 0; i < ember_hist__nr_entries(h) && (!po->max_rows || rows < po->max_rows); i++) {
		const struct ember_hist_entry *e = ember_hist__entry(h, i);
		const struct ember_callchain_node *chain = ember_hist_entry__callchain(e);

		if (!ember_hist__shows(h, e, po->filter_relative, po->min_percent))
			continue;
		rows++;
		if (sep) {
			sep_row(t, e, w, last_col, total, sep, room, fp);
			fputc('\n', fp);
		} else if (po->max_cols > 0) {
			cut_row(t, e, w, last_col, total, (size_t)po->max_cols - 1, fp);
		} else {
			for (c = 0; c < t->l->nr_cols; c++) {
				if (t->l->elide[c])
					continue;
				column(t, e, t->l->cols[c], w[c], c == last_col, total, buf,
				       sizeof(buf));
				fputs("  ", fp);
				fputs(buf, fp);
			}
			fputc('\n', fp);
		}
		if (chains && chain) {
			struct report_chain_print pp = {
				.param = cp,
				/* graph percentages are of everything, filtered or not */
				.total = ember_hist__total_period(h, false),
				.parent = ember_hist__entry_period(h, e),
				.min_hit = ember_hist__callchain_min_hit(h, po->filter_relative),
				.skip_first = t->l->first_sort_is_sym,
				.field_sep = sep,
			};

			report__fprintf_callchain(fp, chain, &pp);
		}
	}
}
