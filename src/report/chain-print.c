// SPDX-License-Identifier: GPL-2.0-only
/*
 * Printing a callchain tree the way perf report --stdio does: graph and
 * fractal (the "|--12.34%--name" tree), flat (each chain that has hits of
 * its own, listed root to end) and folded ("12.34% a;b;c"). Siblings are
 * ordered by their cumulated hits, ties in the order of perf's lookup
 * tree, and children under the threshold are dropped.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

/* The last node of the run (perf's node holding several entries) that starts at n. */
static const struct ember_callchain_node *run_last(const struct ember_callchain_node *n)
{
	while (n->hit == 0 && n->nr_children == 1)
		n = ember_callchain_node__first_child(n);
	return n;
}

/* The children of parent in the order of perf's tree; *out is malloc'ed (NULL: none or ENOMEM). */
static size_t lookup_order(const struct ember_callchain_node *parent,
			   const struct ember_callchain_node ***out)
{
	const struct ember_callchain_node **v, *c;
	size_t n = 0;

	*out = NULL;
	if (!parent->nr_children)
		return 0;
	v = malloc(parent->nr_children * sizeof(*v));
	if (!v)
		return 0;
	for (c = ember_callchain_node__first_child(parent); c; c = ember_callchain_node__next(c))
		v[n++] = c;
	*out = v;
	return n;
}

struct ranked {
	const struct ember_callchain_node *n;
	size_t pos;
};

/* By cumulated hits, descending; equal ones keep the lookup order. */
static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	uint64_t ca = ember_callchain_node__cumul_hits(a->n),
		 cb = ember_callchain_node__cumul_hits(b->n);

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/*
 * The children of parent (a run's last node, or the root) at or above
 * the threshold, sorted for printing. Returns how many; *out is malloc'ed.
 * Fractal graphs take the threshold relative to the parent's children.
 */
static size_t sorted_children(const struct report_chain_print *pp,
			      const struct ember_callchain_node *parent,
			      const struct ember_callchain_node ***out)
{
	const struct ember_callchain_node **v;
	uint64_t min_hit = pp->min_hit;
	size_t nr = lookup_order(parent, &v), n = 0, i;
	struct ranked *r;

	*out = NULL;
	/* (a node of a decayed tree may count children it no longer has) */
	if (!nr) {
		free(v);
		return 0;
	}
	if (pp->param->mode == EMBER_CALLCHAIN_GRAPH_REL)
		min_hit = (uint64_t)ceil(parent->children_hit * (pp->param->min_percent / 100.0));
	r = malloc(nr * sizeof(*r));
	if (!r) {
		free(v);
		return 0;
	}
	for (i = 0; i < nr; i++)
		if (ember_callchain_node__cumul_hits(v[i]) >= min_hit)
			r[n++] = (struct ranked){ v[i], i };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i++)
		v[i] = r[i].n;
	free(r);
	*out = v;
	return n;
}

/* perf's callchain_list__sym_name(): with -g ...,address a named entry's srcline follows */
static size_t fprintf_name(FILE *fp, const struct ember_callchain_node *n)
{
	size_t len;

	/* "NAME file:line (inlined)": the name without its marker first */
	if (n->name && n->srcline && n->inlined && (len = strlen(n->name)) > 10 &&
	    !strcmp(n->name + len - 10, " (inlined)"))
		return fprintf(fp, "%.*s %s (inlined)", (int)(len - 10), n->name, n->srcline);
	if (n->name && n->srcline)
		return fprintf(fp, "%s %s", n->name, n->srcline);
	if (n->name)
		return fprintf(fp, "%s", n->name);
	return fprintf(fp, "%#" PRIx64, n->ip);
}

/* perf's callchain_node__fprintf_value() for a run starting at first, ending at last. */
static size_t fprintf_value(FILE *fp, const struct ember_callchain_param *p, uint64_t period,
			    uint64_t count, uint64_t total)
{
	double percent = 0.0;

	switch (p->value) {
	case EMBER_CALLCHAIN_PERIOD:
		return fprintf(fp, "%" PRIu64, period);
	case EMBER_CALLCHAIN_COUNT:
		return fprintf(fp, "%" PRIu64, count);
	case EMBER_CALLCHAIN_PERCENT:
	default:
		if (total)
			percent = period * 100.0 / total;
		return fprintf(fp, "%.2f%%", percent);
	}
}

static size_t left_margin(FILE *fp, int margin)
{
	return fprintf(fp, "%*s", 12 + margin, "");
}

/*
 * perf keeps the graph's "pipes" in an int bit mask and shifts by the
 * depth; x86 takes shift counts mod 32, so very deep graphs wrap the same
 * way here.
 */
static inline uint32_t bit(int i)
{
	return 1U << (i & 31);
}

static size_t graph_line(FILE *fp, int depth, uint32_t mask, int margin)
{
	size_t ret = left_margin(fp, margin);
	int i;

	for (i = 0; i < depth; i++)
		ret += fputs(mask & bit(i) ? "|          " : "           ", fp) >= 0 ? 11 : 0;
	ret += fputc('\n', fp) != EOF;
	return ret;
}

/* One entry line of a run: the first one carries the run's value. */
static size_t graph_entry(FILE *fp, const struct report_chain_print *pp,
			  const struct ember_callchain_node *n, int depth, uint32_t mask, int idx,
			  uint64_t period, uint64_t count, uint64_t total, int margin)
{
	size_t ret = left_margin(fp, margin);
	int i;

	for (i = 0; i < depth; i++) {
		ret += fputc(mask & bit(i) ? '|' : ' ', fp) != EOF;
		if (!idx && i == depth - 1) {
			ret += fprintf(fp, "--");
			ret += fprintf_value(fp, pp->param, period, count, total);
			ret += fprintf(fp, "--");
		} else {
			ret += fprintf(fp, "          ");
		}
	}
	if (n)
		ret += fprintf_name(fp, n);
	else
		/*
		 * perf's line for the hits of hidden children (perf 6.1 reads
		 * its made-up symbol's uninitialised "inlined" flag and some
		 * runs add " (inlined)")
		 */
		ret += fprintf(fp, "[...]");
	ret += fputc('\n', fp) != EOF;
	return ret;
}

static size_t graph_level(FILE *fp, const struct report_chain_print *pp,
			  const struct ember_callchain_node *parent, uint64_t total, int depth,
			  uint32_t depth_mask, int margin)
{
	const struct ember_callchain_param *p = pp->param;
	const struct ember_callchain_node **v;
	size_t nr = sorted_children(pp, parent, &v), k;
	uint32_t new_mask = depth_mask;
	uint64_t remaining = total;
	uint64_t cumul_count = 0;
	unsigned int printed = 0;
	size_t ret = 0;

	for (k = 0; k < nr; k++) {
		const struct ember_callchain_node *first = v[k], *last = run_last(first), *n;
		uint64_t cumul = ember_callchain_node__cumul_hits(first);
		uint64_t count = first->count + first->children_count;
		uint64_t new_total;
		int idx = 0;

		remaining -= cumul;
		cumul_count += count;
		if (k + 1 == nr && (p->mode != EMBER_CALLCHAIN_GRAPH_REL || !remaining))
			new_mask &= ~bit(depth - 1);
		ret += graph_line(fp, depth, depth_mask, margin);
		for (n = first;; n = ember_callchain_node__first_child(n)) {
			ret += graph_entry(fp, pp, n, depth, new_mask, idx++, cumul, count, total,
					   margin);
			if (n == last)
				break;
		}
		new_total = p->mode == EMBER_CALLCHAIN_GRAPH_REL ? last->children_hit : total;
		ret += graph_level(fp, pp, last, new_total, depth + 1, new_mask | bit(depth),
				   margin);
		if (++printed == p->print_limit)
			break;
	}
	free(v);

	if (p->mode == EMBER_CALLCHAIN_GRAPH_REL && remaining && remaining != total) {
		uint64_t rem_count = 0;

		if (p->value == EMBER_CALLCHAIN_COUNT) {
			if (parent->children_count <= cumul_count)
				return ret;
			rem_count = parent->children_count - cumul_count;
		}
		new_mask &= ~bit(depth - 1);
		ret += graph_entry(fp, pp, NULL, depth, new_mask, 0, remaining, rem_count, total,
				   margin);
	}
	return ret;
}

static size_t fprintf_graph(FILE *fp, const struct ember_callchain_node *root,
			    const struct report_chain_print *pp)
{
	const struct ember_callchain_param *p = pp->param;
	const struct ember_callchain_node *top = root;
	uint64_t total = pp->total;
	unsigned int printed_entries = 0;
	bool printed = false;
	int margin = 0;
	size_t ret = 0;

	/*
	 * A single root holding all of the entry's period is printed
	 * without a percentage ("---name"), one level less deep.
	 */
	const struct ember_callchain_node **v;
	size_t nr = sorted_children(pp, root, &v);
	const struct ember_callchain_node *single = nr == 1 ? v[0] : NULL;

	free(v);
	if (single && ember_callchain_node__cumul_hits(single) == pp->parent) {
		const struct ember_callchain_node *first = single, *last = run_last(first), *n;
		int i = 0;

		for (n = first;; n = ember_callchain_node__first_child(n)) {
			if (!(i++ == 0 && pp->skip_first)) {
				if (!printed) {
					ret += left_margin(fp, margin);
					ret += fprintf(fp, "|\n");
					ret += left_margin(fp, margin);
					ret += fprintf(fp, "---");
					margin += 3;
					printed = true;
				} else {
					ret += left_margin(fp, margin);
				}
				ret += fprintf_name(fp, n);
				ret += fputc('\n', fp) != EOF;
				if (++printed_entries == p->print_limit)
					break;
			}
			if (n == last)
				break;
		}
		top = last;
	}
	if (p->mode == EMBER_CALLCHAIN_GRAPH_REL)
		total = pp->parent;
	ret += graph_level(fp, pp, top, total, 1, 1, margin);
	if (ret)
		ret += fputc('\n', fp) != EOF;
	return ret;
}

/* ---- flat and folded ------------------------------------------------------ */

struct flat_item {
	const struct ember_callchain_node *first, *last; /* a run */
	size_t idx;				/* collection order */
};

struct flat_list {
	struct flat_item *v;
	size_t nr, alloc;
	bool oom;
};

static void flat_push(struct flat_list *l, const struct ember_callchain_node *first,
		      const struct ember_callchain_node *last)
{
	if (l->nr == l->alloc) {
		size_t alloc = l->alloc ? 2 * l->alloc : 64;
		struct flat_item *v = realloc(l->v, alloc * sizeof(*v));

		if (!v) {
			l->oom = true;
			return;
		}
		l->v = v;
		l->alloc = alloc;
	}
	l->v[l->nr] = (struct flat_item){ first, last, l->nr };
	l->nr++;
}

/*
 * perf's __sort_chain_flat(): the children of a run (in lookup order)
 * before the run itself, which is kept when it has hits of its own.
 */
static void flat_collect(struct flat_list *l, const struct ember_callchain_node *first,
			 const struct ember_callchain_node *last, uint64_t min_hit)
{
	const struct ember_callchain_node **v;
	size_t n, k;

	if (last->nr_children) {
		n = lookup_order(last, &v);
		if (!v) {
			l->oom = true;
			return;
		}
		for (k = 0; k < n; k++)
			flat_collect(l, v[k], run_last(v[k]), min_hit);
		free(v);
	}
	if (first && last->hit && last->hit >= min_hit)
		flat_push(l, first, last);
}

/* By own hits, descending; equal ones in collection order (perf inserts them after). */
static int cmp_flat(const void *pa, const void *pb)
{
	const struct flat_item *a = pa, *b = pb;

	if (a->last->hit != b->last->hit)
		return a->last->hit > b->last->hit ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Frames from the root down to n, in order. */
static size_t path_fprintf(FILE *fp, const struct ember_callchain_node *n, const char *prefix,
			   const char *sep, bool *first)
{
	const struct ember_callchain_node *parent = n ? ember_callchain_node__parent(n) : NULL;
	size_t ret = 0;

	/* the root has no frame */
	if (!parent)
		return 0;
	ret += path_fprintf(fp, parent, prefix, sep, first);
	if (prefix)
		ret += fprintf(fp, "%s", prefix);
	else if (!*first)
		ret += fprintf(fp, "%s", sep);
	*first = false;
	ret += fprintf_name(fp, n);
	if (prefix)
		ret += fputc('\n', fp) != EOF;
	return ret;
}

/* perf's flat chains of root, in print order: its runs with hits of their own. */
static size_t flat_chains(const struct report_chain_print *pp,
			  const struct ember_callchain_node *root, struct flat_list *l)
{
	flat_collect(l, NULL, root, pp->min_hit);
	if (l->nr > 1)
		qsort(l->v, l->nr, sizeof(*l->v), cmp_flat);
	return l->nr;
}

static size_t fprintf_flat(FILE *fp, const struct ember_callchain_node *root,
			   const struct report_chain_print *pp, bool folded, const char *sep)
{
	const struct ember_callchain_param *p = pp->param;
	struct flat_list l = { 0 };
	unsigned int printed = 0;
	size_t ret = 0, i;

	flat_chains(pp, root, &l);
	for (i = 0; i < l.nr; i++) {
		const struct ember_callchain_node *last = l.v[i].last, *first = l.v[i].first;
		bool f = true;

		if (folded) {
			/* folded prints the run's own hits; flat its cumulated ones */
			ret += fprintf_value(fp, p, last->hit, last->count, pp->total);
			ret += fputc(' ', fp) != EOF;
			ret += path_fprintf(fp, last, NULL, sep, &f);
			ret += fputc('\n', fp) != EOF;
		} else {
			ret += fprintf(fp, "           ");
			ret += fprintf_value(fp, p, ember_callchain_node__cumul_hits(first),
					     first->count + first->children_count, pp->total);
			ret += fputc('\n', fp) != EOF;
			ret += path_fprintf(fp, last, "                ", NULL, &f);
			ret += fputc('\n', fp) != EOF;
		}
		if (++printed == p->print_limit)
			break;
	}
	free(l.v);
	return ret;
}

size_t report__fprintf_callchain(FILE *fp, const struct ember_callchain_node *root,
				 const struct report_chain_print *pp)
{
	if (!root)
		return 0;
	switch (pp->param->mode) {
	case EMBER_CALLCHAIN_GRAPH_ABS:
	case EMBER_CALLCHAIN_GRAPH_REL:
		return fprintf_graph(fp, root, pp);
	case EMBER_CALLCHAIN_FLAT:
		return fprintf_flat(fp, root, pp, false, NULL);
	case EMBER_CALLCHAIN_FOLDED:
		return fprintf_flat(fp, root, pp, true, pp->field_sep ? pp->field_sep : ";");
	case EMBER_CALLCHAIN_NONE:
	default:
		return 0;
	}
}

/* ---- the pieces the TUI's browser draws its callchains with -------------- */

const struct ember_callchain_node *report_chain__run_last(const struct ember_callchain_node *n)
{
	return run_last(n);
}

size_t report_chain__children(const struct report_chain_print *pp,
			      const struct ember_callchain_node *parent,
			      const struct ember_callchain_node ***out)
{
	return sorted_children(pp, parent, out);
}

size_t report_chain__fprintf_name(FILE *fp, const struct ember_callchain_node *n)
{
	return fprintf_name(fp, n);
}

size_t report_chain__fprintf_value(FILE *fp, const struct ember_callchain_param *p,
				   uint64_t period, uint64_t count, uint64_t total)
{
	return fprintf_value(fp, p, period, count, total);
}

ssize_t report_chain__flat(const struct report_chain_print *pp,
			   const struct ember_callchain_node *root, struct report_chain_run **out)
{
	struct flat_list l = { 0 };
	struct report_chain_run *runs;
	size_t i;

	*out = NULL;
	flat_chains(pp, root, &l);
	runs = calloc(l.nr ? l.nr : 1, sizeof(*runs));
	if (l.oom || !runs) {
		free(l.v);
		free(runs);
		return -ENOMEM;
	}
	for (i = 0; i < l.nr; i++)
		runs[i] = (struct report_chain_run){ l.v[i].first, l.v[i].last };
	free(l.v);
	*out = runs;
	return (ssize_t)l.nr;
}

size_t report_chain__fprintf_path(FILE *fp, const struct ember_callchain_node *last,
				  const char *sep)
{
	bool first = true;

	return path_fprintf(fp, last, NULL, sep, &first);
}
