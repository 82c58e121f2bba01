// SPDX-License-Identifier: GPL-2.0-only
/*
 * The browser's lines (see hist-view.h): perf 6.1's
 * hist_browser__show_callchain_graph() and callchain__init_have_children()
 * as rows, rebuilt whenever the folding, a zoom or the histogram changes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "core/hash.h"
#include "tui/hist-view.h"

#define LEVEL_OFFSET_STEP 3	/* perf's indentation of a callchain level */

static bool is_unfolded(const struct tui_hist_view *v, const void *p)
{
	uint64_t k = (uintptr_t)p;

	return hashtab__get(&v->unfolded, hash_mix64(k), hashtab__eq_hash, NULL) != 0;
}

static int set_unfolded(struct tui_hist_view *v, const void *p, bool on)
{
	uint64_t k = (uintptr_t)p, hash = hash_mix64(k);
	struct hashtab_slot *s;

	if (!on) {
		s = hashtab__find(&v->unfolded, hash, hashtab__eq_hash, NULL);
		if (s)
			hashtab__remove(&v->unfolded, s);
		return 0;
	}
	if (hashtab__reserve(&v->unfolded, 1))
		return -ENOMEM;
	s = hashtab__slot(&v->unfolded, hash, hashtab__eq_hash, NULL);
	if (!s->val)
		hashtab__fill(&v->unfolded, s, hash, k);
	return 0;
}

static bool zoomed_out(const struct tui_hist_view *v, const struct ember_hist_entry *e)
{
	if (v->thread && e->thread != v->thread)
		return true;
	if (v->dso && e->dso != v->dso)
		return true;
	return v->sym_filter[0] && (!e->sym || !strstr(e->sym_name, v->sym_filter));
}

static bool hidden(void *ctx, const struct ember_hist_entry *e)
{
	return zoomed_out(ctx, e);
}

static bool shown(const struct tui_hist_view *v, const struct ember_hist_entry *e)
{
	return ember_hist__shows(v->h, e, v->po.filter_relative, v->po.min_percent) &&
	       !zoomed_out(v, e);
}

void tui_hist_view__totals(const struct tui_hist_view *v, uint64_t *nr_samples, uint64_t *period)
{
	const struct ember_hist_stats *hs = ember_hist__stats(v->h);
	size_t i;

	*nr_samples = v->po.filter_relative ? hs->nr_non_filtered_samples : hs->nr_samples;
	*period = ember_hist__total_period(v->h, v->po.filter_relative);
	if (!v->po.filter_relative || (!v->thread && !v->dso && !v->sym_filter[0]))
		return;
	/* perf's zooms count again what they leave (hists__filter_by_*()) */
	*nr_samples = *period = 0;
	for (i = 0; i < ember_hist__nr_entries(v->h); i++) {
		const struct ember_hist_entry *e = ember_hist__entry(v->h, i);

		if (!e->filtered && !zoomed_out(v, e)) {
			*nr_samples += e->self.nr_events;
			*period += e->self.period;
		}
	}
}

/* What percentages are of: the totals of the title. */
static uint64_t percent_total(const struct tui_hist_view *v)
{
	uint64_t nr_samples, period;

	tui_hist_view__totals(v, &nr_samples, &period);
	return period;
}

const char *tui_hist_view__comm(const struct tui_hist_view *v, const struct ember_hist_entry *e)
{
	const char *c = NULL;

	if (v->po.thread_comm && e->thread)
		c = v->po.thread_comm(e->thread);
	return c ? c : e->comm ? e->comm : "";
}

static int add_row(struct tui_hist_view *v, const struct tui_hist_row *r)
{
	if (array__reserve((void **)&v->rows, &v->alloc_rows, v->nr_rows, sizeof(*r)))
		return -ENOMEM;
	v->rows[v->nr_rows++] = *r;
	return 0;
}

static bool has_children(const struct tui_hist_view *v, const struct ember_callchain_node *n)
{
	const struct ember_callchain_node **kids;
	size_t nr = report_chain__children(&v->pp, n, &kids);

	free(kids);
	return nr > 0;
}

/*
 * perf's has_children of a line of a run (callchain__init_have_children()):
 * at the top, the first line has it when the run has siblings, the last
 * when the run has children; below, the first when the run goes on or has
 * children, the last when it has children.
 */
static bool line_has_children(const struct tui_hist_view *v, const struct ember_callchain_node *n,
			      const struct ember_callchain_node *first,
			      const struct ember_callchain_node *last, bool top, size_t nr_siblings)
{
	if (top)
		return n == last ? has_children(v, last) : n == first && nr_siblings > 1;
	if (n == first)
		return first != last || has_children(v, last);
	return n == last && has_children(v, last);
}

/* perf's hist_browser__show_callchain_graph(), as rows. */
static int add_chain_rows(struct tui_hist_view *v, const struct ember_hist_entry *e,
			  const struct ember_callchain_node *parent, int level, uint64_t total,
			  uint64_t parent_total, bool top)
{
	const struct ember_callchain_node **kids;
	size_t nr = report_chain__children(&v->pp, parent, &kids), k;
	uint64_t value_total =
		v->pp.param->mode == EMBER_CALLCHAIN_GRAPH_REL ? parent_total : total;
	bool need_percent = nr > 1 || (nr == 1 && ember_callchain_node__cumul_hits(kids[0]) !=
							 parent_total);
	int ret = 0;

	for (k = 0; k < nr && !ret; k++) {
		const struct ember_callchain_node *first = kids[k];
		const struct ember_callchain_node *last = report_chain__run_last(first), *n;
		int extra = 0;
		char sign = ' ';

		for (n = first;; n = ember_callchain_node__first_child(n)) {
			struct tui_hist_row r = {
				.e = e,
				.n = n,
				.run = first,
				.value_total = value_total,
				.value = n == first && need_percent,
			};

			if (n != first && need_percent)
				extra = LEVEL_OFFSET_STEP;
			if (line_has_children(v, n, first, last, top, nr))
				sign = is_unfolded(v, n) ? '-' : '+';
			else
				sign = ' ';
			r.offset = level * LEVEL_OFFSET_STEP + extra;
			r.sign = sign;
			ret = add_row(v, &r);
			if (ret || sign == '+' || n == last)
				break;
		}
		if (!ret && sign == '-')
			ret = add_chain_rows(v, e, last, level + (extra ? 2 : 1), total,
					     last->children_hit, false);
	}
	free(kids);
	return ret;
}

static bool flat_mode(const struct tui_hist_view *v)
{
	return v->pp.param->mode == EMBER_CALLCHAIN_FLAT ||
	       v->pp.param->mode == EMBER_CALLCHAIN_FOLDED;
}

/* Whether the flat chain starts above its run: perf's copy of its parents' frames. */
static bool flat_has_parents(const struct report_chain_run *c)
{
	return ember_callchain_node__parent(ember_callchain_node__parent(c->first)) != NULL;
}

/*
 * The flat chain's first line's fold key: its run's first node when the
 * chain is all its run (perf's val list, which E unfolds), else a key of
 * the chain's own (perf's copy of the parents' frames, which E leaves).
 */
static const void *flat_key(const struct report_chain_run *c)
{
	return flat_has_parents(c) ? (const void *)((const char *)c->last + 1) : c->first;
}

/*
 * perf's has_children of a flat chain's first line (callchain__init_have_children(),
 * callchain_node__make_parent_list()): with other chains beside it, unless
 * the chain is one frame; no other line has any.
 */
static bool flat_has_children(const struct report_chain_run *c, size_t nr)
{
	return nr > 1 && (flat_has_parents(c) || c->first != c->last);
}

/* perf's hist_browser__show_callchain_flat() and _folded(), as rows. */
static int add_flat_rows(struct tui_hist_view *v, const struct ember_hist_entry *e,
			 uint64_t total, uint64_t parent_total)
{
	struct report_chain_run *c;
	ssize_t nr = report_chain__flat(&v->pp, ember_hist_entry__callchain(e), &c), k;
	bool folded = v->pp.param->mode == EMBER_CALLCHAIN_FOLDED, need_percent;
	int ret = 0;

	if (nr < 0)
		return (int)nr;
	need_percent = nr > 1 || (nr == 1 && ember_callchain_node__cumul_hits(c[0].first) !=
							 parent_total);
	for (k = 0; k < nr && !ret; k++) {
		const struct ember_callchain_node *frames[256], *n;
		size_t depth = 0, i;
		struct tui_hist_row r = {
			.e = e,
			.run = c[k].first,
			.last = c[k].last,
			.fold_key = flat_key(&c[k]),
			.value_total = total,
			.offset = LEVEL_OFFSET_STEP,
			.value = need_percent,
			.folded = folded,
			.sign = ' ',
		};

		/* the frames from the root's child down */
		for (n = c[k].last; ember_callchain_node__parent(n) && depth < 256;
		     n = ember_callchain_node__parent(n))
			frames[depth++] = n;
		if (flat_has_children(&c[k], (size_t)nr))
			r.sign = is_unfolded(v, r.fold_key) ? '-' : '+';
		for (i = depth; i-- > 0 && !ret;) {
			r.n = frames[i];
			ret = add_row(v, &r);
			if (folded || r.sign == '+')
				break;
			/* the other lines: no value, no sign, further right when values are shown */
			r.value = false;
			r.sign = ' ';
			r.fold_key = NULL;
			if (need_percent)
				r.offset = 2 * LEVEL_OFFSET_STEP;
		}
	}
	free(c);
	return ret;
}

static bool has_flat_chains(const struct tui_hist_view *v, const struct ember_callchain_node *root)
{
	struct report_chain_run *c;
	ssize_t nr = report_chain__flat(&v->pp, root, &c);

	free(c);
	return nr > 0;
}

static char entry_sign(const struct tui_hist_view *v, const struct ember_hist_entry *e)
{
	const struct ember_callchain_node *root = ember_hist_entry__callchain(e);

	if (!v->chains || !root)
		return ' ';
	if (flat_mode(v) ? !has_flat_chains(v, root) : !has_children(v, root))
		return ' ';
	return is_unfolded(v, e) ? '-' : '+';
}

/* The widths, the columns shown, then every row. 0 or -ENOMEM. */
int tui_hist_view__build(struct tui_hist_view *v)
{
	size_t i;
	int c, ret = 0;

	v->total = percent_total(v);
	report__column_widths(v->h, &v->po, v->w);
	v->last_col = 0;
	for (c = 0; c < ember_hist__opts(v->h)->layout->nr_cols; c++)
		if (!v->elide[c])
			v->last_col = c;
	v->nr_rows = 0;
	for (i = 0; i < ember_hist__nr_entries(v->h) && !ret; i++) {
		const struct ember_hist_entry *e = ember_hist__entry(v->h, i);
		struct tui_hist_row r = { .e = e };

		if (!shown(v, e))
			continue;
		r.sign = entry_sign(v, e);
		ret = add_row(v, &r);
		if (!ret && r.sign == '-' && flat_mode(v))
			ret = add_flat_rows(v, e, v->total, ember_hist__entry_period(v->h, e));
		else if (!ret && r.sign == '-')
			ret = add_chain_rows(v, e, ember_hist_entry__callchain(e), 1, v->total,
					     ember_hist__entry_period(v->h, e), true);
	}
	return ret;
}

/* An entry's line: the fold sign, then the columns two spaces apart; its spans. */
int tui_hist_view__entry_line(const struct tui_hist_view *v, const struct tui_hist_row *r,
			       char *buf, size_t size,
		      struct tui_hist_span *spans, int *nr_spans)
{
	const struct ember_hist_layout *l = ember_hist__opts(v->h)->layout;
	size_t pos = 0;
	bool first = true;
	int c;

	int column = 0;

	*nr_spans = 0;
	buf[0] = '\0';
	if (v->chains)
		pos += snprintf(buf, size, "%c ", r->sign);
	for (c = 0; c < l->nr_cols && pos < size; c++) {
		double percent;
		int n;

		if (v->elide[c] || column++ < v->horiz_scroll)
			continue;
		if (!first)
			pos += snprintf(buf + pos, size - pos, "  ");
		first = false;
		if (pos >= size)
			break;
		n = report__column(v->h, &v->po, r->e, c, v->w[c], c == v->last_col, v->total,
				   buf + pos, size - pos, &percent);
		if (n < 0)
			n = 0;
		if (percent >= 0 && *nr_spans < TUI_HIST_MAX_SPANS)
			spans[(*nr_spans)++] = (struct tui_hist_span){ pos, n, percent };
		pos += n;
	}
	return pos < size ? (int)pos : (int)size - 1;
}

/* A callchain line's text after its sign: the run's value first, then the name. */
void tui_hist_view__chain_line(const struct tui_hist_view *v, const struct tui_hist_row *r,
			       char *buf, size_t size)
{
	FILE *fp = fmemopen(buf, size, "w");

	if (!fp) {
		snprintf(buf, size, "?");
		return;
	}
	/* folded: the chain's own hits, then its frames; else the run's cumulated hits */
	if (r->value && r->folded)
		report_chain__fprintf_value(fp, v->pp.param, r->last->hit, r->last->count,
					    r->value_total);
	else if (r->value)
		report_chain__fprintf_value(fp, v->pp.param,
					    ember_callchain_node__cumul_hits(r->run),
					    r->run->count + r->run->children_count,
					    r->value_total);
	if (r->value)
		fputc(' ', fp);
	if (r->folded)
		report_chain__fprintf_path(fp, r->last, v->po.field_sep ? v->po.field_sep : ";");
	else
		report_chain__fprintf_name(fp, r->n);
	/* fmemopen keeps room for the terminating NUL */
	fclose(fp);
}

/* Every line of e's tree that has children, unfolded or folded. */
static int fold_tree(struct tui_hist_view *v, const struct ember_callchain_node *parent,
		     bool unfold)
{
	const struct ember_callchain_node **kids;
	size_t nr = report_chain__children(&v->pp, parent, &kids), k;
	int ret = 0;

	for (k = 0; k < nr && !ret; k++) {
		const struct ember_callchain_node *n, *last = report_chain__run_last(kids[k]);

		for (n = kids[k]; !ret; n = ember_callchain_node__first_child(n)) {
			ret = set_unfolded(v, n, unfold);
			if (n == last)
				break;
		}
		if (!ret)
			ret = fold_tree(v, last, unfold);
	}
	free(kids);
	return ret;
}

/* E in flat modes: perf unfolds the first lines that are their chain's own frames. */
static int fold_flat(struct tui_hist_view *v, const struct ember_callchain_node *root, bool unfold)
{
	struct report_chain_run *c;
	ssize_t nr = report_chain__flat(&v->pp, root, &c), k;
	int ret = nr < 0 ? (int)nr : 0;

	for (k = 0; k < nr && !ret; k++)
		if (flat_key(&c[k]) == c[k].first && flat_has_children(&c[k], (size_t)nr))
			ret = set_unfolded(v, c[k].first, unfold);
	free(c);
	return ret;
}

static int fold_entry(struct tui_hist_view *v, const struct ember_hist_entry *e, bool unfold)
{
	const struct ember_callchain_node *root = ember_hist_entry__callchain(e);

	if (!v->chains || !root || entry_sign(v, e) == ' ')
		return 0;
	if (set_unfolded(v, e, unfold))
		return -ENOMEM;
	return flat_mode(v) ? fold_flat(v, root, unfold) : fold_tree(v, root, unfold);
}

int tui_hist_view__fold_all(struct tui_hist_view *v, bool unfold)
{
	size_t i;
	int ret = 0;

	if (!unfold) {
		hashtab__clear(&v->unfolded);
		return 0;
	}
	for (i = 0; i < ember_hist__nr_entries(v->h) && !ret; i++) {
		const struct ember_hist_entry *e = ember_hist__entry(v->h, i);

		if (shown(v, e))
			ret = fold_entry(v, e, true);
	}
	return ret;
}

int tui_hist_view__toggle(struct tui_hist_view *v, size_t row)
{
	const struct tui_hist_row *r = row < v->nr_rows ? &v->rows[row] : NULL;

	if (!r || r->sign == ' ')
		return 0;
	if (r->fold_key)
		return set_unfolded(v, r->fold_key, r->sign == '+');
	return set_unfolded(v, r->n ? (const void *)r->n : (const void *)r->e, r->sign == '+');
}

void tui_hist_view__set_hist(struct tui_hist_view *v, const struct ember_hist *h)
{
	v->h = h;
	if (!v->chain_limit)
		v->pp.min_hit = ember_hist__callchain_min_hit(h, v->po.filter_relative);
	else if (v->param.mode == EMBER_CALLCHAIN_GRAPH_REL)
		v->pp.min_hit = 0;	/* fractal graphs take theirs per parent */
	else
		v->pp.min_hit = (uint64_t)(ember_hist__total_period(h, v->po.filter_relative) *
					   (v->param.min_percent / 100));
}

void tui_hist_view__set_percent_limit(struct tui_hist_view *v, double percent)
{
	v->po.min_percent = percent;
	v->param.min_percent = percent;
	v->chain_limit = true;
	hashtab__clear(&v->unfolded);
	tui_hist_view__set_hist(v, v->h);
}

void tui_hist_view__set_filter_relative(struct tui_hist_view *v, bool relative)
{
	/* the callchains keep the threshold they were sorted with, as perf's */
	v->po.filter_relative = relative;
}

void tui_hist_view__init(struct tui_hist_view *v, const struct ember_hist *h,
			 const struct report_print_opts *po)
{
	const struct ember_hist_opts *ho = ember_hist__opts(h);

	memset(v, 0, sizeof(*v));
	v->po = *po;
	v->po.hidden = hidden;
	v->po.hidden_ctx = v;
	v->chains = ho->use_callchain && ho->chain.mode != EMBER_CALLCHAIN_NONE;
	v->param = ho->chain;
	v->pp.param = &v->param;
	memcpy(v->elide, ho->layout->elide, sizeof(v->elide));
	tui_hist_view__set_hist(v, h);
}

void tui_hist_view__exit(struct tui_hist_view *v)
{
	hashtab__exit(&v->unfolded);
	free(v->rows);
	v->rows = NULL;
	v->nr_rows = v->alloc_rows = 0;
}

int tui_hist_view__fprintf(const struct tui_hist_view *v, FILE *fp)
{
	char line[4096];
	size_t i;

	for (i = 0; i < v->nr_rows; i++) {
		const struct tui_hist_row *r = &v->rows[i];

		if (r->n) {
			tui_hist_view__chain_line(v, r, line, sizeof(line));
			fprintf(fp, "%*s%c %s\n", r->offset, " ", r->sign, line);
		} else {
			struct tui_hist_span spans[TUI_HIST_MAX_SPANS];
			int nr_spans;

			tui_hist_view__entry_line(v, r, line, sizeof(line), spans, &nr_spans);
			fprintf(fp, "%s\n", line);
		}
	}
	return ferror(fp) ? -EIO : 0;
}
