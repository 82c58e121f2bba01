// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output order, as perf's hists__output_resort(): by the sort list
 * (overheads descending, names ascending, unresolved symbols last), and
 * where all of that ties, in the order perf's input tree holds the
 * entries (by the sort keys' collapse comparisons), since perf inserts an
 * equal entry after the ones already placed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/hist.h"

static int field_cmp(uint64_t a, uint64_t b)
{
	return a > b ? 1 : a < b ? -1 : 0;
}

/* perf's cmp_null(): a missing value is "less". */
static int cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

static int sign64(int64_t v)
{
	return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/* The output comparison of one dimension: > 0 puts a first (perf's fmt->sort). */
static int dim_sort(const struct rep_hist *h, enum rep_dim d, const struct rep_entry *a,
		    const struct rep_entry *b)
{
	int r;

	switch (d) {
	case REP_DIM_OVERHEAD:
		return field_cmp(a->self.period, b->self.period);
	case REP_DIM_OVERHEAD_SYS:
		return field_cmp(a->self.period_sys, b->self.period_sys);
	case REP_DIM_OVERHEAD_US:
		return field_cmp(a->self.period_us, b->self.period_us);
	case REP_DIM_OVERHEAD_GUEST_SYS:
		return field_cmp(a->self.period_guest_sys, b->self.period_guest_sys);
	case REP_DIM_OVERHEAD_GUEST_US:
		return field_cmp(a->self.period_guest_us, b->self.period_guest_us);
	case REP_DIM_OVERHEAD_CHILDREN:
		r = field_cmp(a->acc.period, b->acc.period);
		if (r || !h->opts.children)
			return r;
		/*
		 * perf puts the caller above the callee when they tie: with
		 * callers first, a caller's chain (from it to the leaf) is longer
		 */
		if (a->thread != b->thread || !h->opts.use_callchain)
			return 0;
		r = (int)a->max_depth - (int)b->max_depth;
		if (h->opts.chain.order == REP_ORDER_CALLEE)
			r = -r;
		return r;
	case REP_DIM_SAMPLE:
		return field_cmp(a->self.nr_events, b->self.nr_events);
	case REP_DIM_PERIOD:
		return field_cmp(a->self.period, b->self.period);
	case REP_DIM_PID:
		return sign64((int64_t)b->tid - a->tid);
	case REP_DIM_COMM:
		return sign64(strcmp(b->comm ? b->comm : "", a->comm ? a->comm : ""));
	case REP_DIM_DSO:
		if (!a->dso_name || !b->dso_name)
			return cmp_null(a->dso_name, b->dso_name);
		return sign64(strcmp(b->dso_name, a->dso_name));
	case REP_DIM_SYM:
		if (!a->sym || !b->sym)
			return cmp_null(a->sym, b->sym);
		return sign64(strcmp(b->sym_name, a->sym_name));
	case REP_DIM_PARENT:
		if (!a->parent || !b->parent)
			return cmp_null(a->parent, b->parent);
		return sign64(strcmp(b->parent, a->parent));
	case REP_DIM_CPU:
		return sign64((int64_t)b->cpu - a->cpu);
	case REP_DIM_SYMBOL_SIZE: {
		uint64_t sa = a->sym ? a->sym_end - a->sym_start : 0;
		uint64_t sb = b->sym ? b->sym_end - b->sym_start : 0;

		return field_cmp(sb, sa);
	}
	default:
		return 0;
	}
}

/* perf's input tree order for one key: < 0 puts a first. */
static int dim_input(enum rep_dim d, const struct rep_entry *a, const struct rep_entry *b)
{
	int r;

	switch (d) {
	case REP_DIM_PID:
		return sign64((int64_t)a->tid - b->tid);
	case REP_DIM_COMM:
		return sign64(strcmp(a->comm ? a->comm : "", b->comm ? b->comm : ""));
	case REP_DIM_DSO:
		if (!a->dso_name || !b->dso_name)
			return -cmp_null(a->dso_name, b->dso_name);
		return sign64(strcmp(a->dso_name, b->dso_name));
	case REP_DIM_SYMBOL_SIZE:
		return field_cmp(a->sym ? a->sym_end - a->sym_start : 0,
				 b->sym ? b->sym_end - b->sym_start : 0);
	case REP_DIM_SYM:
		if (!a->sym && !b->sym)
			return sign64((int64_t)(a->ip - b->ip));
		if (!a->dso_name || !b->dso_name)
			r = -cmp_null(a->dso_name, b->dso_name);
		else
			r = sign64(strcmp(a->dso_name, b->dso_name));
		if (r)
			return r;
		if (!a->sym || !b->sym)
			return -cmp_null(a->sym, b->sym);
		if (a->sym_start != b->sym_start)
			return sign64((int64_t)(a->sym_start - b->sym_start));
		return sign64((int64_t)(a->sym_end - b->sym_end));
	case REP_DIM_PARENT:
		if (!a->parent || !b->parent)
			return -cmp_null(a->parent, b->parent);
		return sign64(strcmp(a->parent, b->parent));
	case REP_DIM_CPU:
		return sign64((int64_t)a->cpu - b->cpu);
	default:
		return 0;
	}
}

/* perf's input tree: a new entry goes left of an existing one its keys compare below. */
static bool input_left(const struct rep_hist *h, const struct rep_entry *a,
		       const struct rep_entry *b)
{
	int i, r;

	for (i = 0; i < h->layout.nr_sort; i++) {
		r = dim_input(h->layout.sort[i], a, b);
		if (r)
			return r < 0;
	}
	return false;
}

/* perf's hist_entry__sort() > 0: a goes before (left of) b. */
static bool output_left(const struct rep_hist *h, const struct rep_entry *a,
			const struct rep_entry *b)
{
	int i, r;

	for (i = 0; i < h->layout.nr_sort; i++) {
		r = dim_sort(h, h->layout.sort[i], a, b);
		if (r)
			return r > 0;
	}
	return false;
}

/*
 * The output order is what an in-order walk of perf's red-black tree
 * gives after inserting the entries in input order. Some of perf's
 * comparisons are not transitive (--children's caller-above-callee rule
 * only holds within a thread), so the tree's shape decides among such
 * ties: build the same tree, with the kernel's insertion rebalancing.
 */
struct rb {
	uint32_t left, right, parent;	/* indices + 1; 0: none */
	bool red;
};

static void rotate(struct rb *t, uint32_t *root, uint32_t x, bool left)
{
	uint32_t y = left ? t[x - 1].right : t[x - 1].left;
	uint32_t yc = left ? t[y - 1].left : t[y - 1].right;
	uint32_t p = t[x - 1].parent;

	if (left)
		t[x - 1].right = yc;
	else
		t[x - 1].left = yc;
	if (yc)
		t[yc - 1].parent = x;
	t[y - 1].parent = p;
	if (!p)
		*root = y;
	else if (t[p - 1].left == x)
		t[p - 1].left = y;
	else
		t[p - 1].right = y;
	if (left)
		t[y - 1].left = x;
	else
		t[y - 1].right = x;
	t[x - 1].parent = y;
}

static void rb_fixup(struct rb *t, uint32_t *root, uint32_t z)
{
	while (t[z - 1].parent && t[t[z - 1].parent - 1].red) {
		uint32_t p = t[z - 1].parent, g = t[p - 1].parent;
		bool pleft = t[g - 1].left == p;
		uint32_t u = pleft ? t[g - 1].right : t[g - 1].left;

		if (u && t[u - 1].red) {
			t[p - 1].red = false;
			t[u - 1].red = false;
			t[g - 1].red = true;
			z = g;
			continue;
		}
		if (z == (pleft ? t[p - 1].right : t[p - 1].left)) {
			z = p;
			rotate(t, root, z, pleft);
			p = t[z - 1].parent;
			g = t[p - 1].parent;
		}
		t[p - 1].red = false;
		t[g - 1].red = true;
		rotate(t, root, g, !pleft);
	}
	t[*root - 1].red = false;
}

/* Inserts in[0..n) in order into a red-black tree, writes its in-order walk to out. */
static int tree_order(const struct rep_hist *h, struct rep_entry **in, size_t n,
		      struct rep_entry **out,
		      bool (*goes_left)(const struct rep_hist *h, const struct rep_entry *a,
					const struct rep_entry *b))
{
	struct rb *t = calloc(n ? n : 1, sizeof(*t));
	uint32_t root = 0, i, x;
	size_t k = 0;

	if (!t)
		return -ENOMEM;
	for (i = 1; i <= n; i++) {
		uint32_t p = 0, cur = root;
		bool left = false;

		while (cur) {
			p = cur;
			left = goes_left(h, in[i - 1], in[cur - 1]);
			cur = left ? t[cur - 1].left : t[cur - 1].right;
		}
		t[i - 1] = (struct rb){ .parent = p, .red = true };
		if (!p)
			root = i;
		else if (left)
			t[p - 1].left = i;
		else
			t[p - 1].right = i;
		rb_fixup(t, &root, i);
	}
	/* in-order walk */
	x = root;
	while (x && t[x - 1].left)
		x = t[x - 1].left;
	while (x) {
		out[k++] = in[x - 1];
		if (t[x - 1].right) {
			x = t[x - 1].right;
			while (t[x - 1].left)
				x = t[x - 1].left;
		} else {
			uint32_t c = x;

			x = t[x - 1].parent;
			while (x && t[x - 1].right == c) {
				c = x;
				x = t[x - 1].parent;
			}
		}
	}
	free(t);
	return 0;
}

static int cmp_seq(const void *pa, const void *pb)
{
	const struct rep_entry *a = *(struct rep_entry *const *)pa;
	const struct rep_entry *b = *(struct rep_entry *const *)pb;

	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int rep_hist__resort(struct rep_hist *h, bool filter_relative)
{
	size_t i, n = 0;

	(void)filter_relative;
	free(h->sorted);
	h->sorted = malloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*h->sorted));
	if (!h->sorted)
		return -ENOMEM;
	h->stats.total_period = 0;
	h->stats.total_non_filtered_period = 0;
	for (i = 0; i <= h->emask; i++) {
		struct rep_entry *e = h->table[i];

		if (!e)
			continue;
		h->sorted[n++] = e;
		h->stats.total_period += e->self.period;
		if (!e->filtered)
			h->stats.total_non_filtered_period += e->self.period;
	}
	h->nr_sorted = n;
	h->stats.nr_entries = n;
	/*
	 * perf: entries_in (built as entries appear), then the collapsed
	 * tree (same keys), then the output tree, each filled by walking
	 * the previous one.
	 */
	{
		struct rep_entry **a = malloc((n ? n : 1) * sizeof(*a));
		int err;

		if (!a)
			return -ENOMEM;
		qsort(h->sorted, n, sizeof(*h->sorted), cmp_seq);
		err = tree_order(h, h->sorted, n, a, input_left);
		/* only comm has a collapse step among the keys here */
		if (!err && (h->mask & (1U << REP_DIM_COMM))) {
			err = tree_order(h, a, n, h->sorted, input_left);
			memcpy(a, h->sorted, n * sizeof(*a));
		}
		if (!err) {
			/*
			 * perf's output tree only takes the entries that are
			 * not filtered; the others follow, never printed.
			 */
			size_t k = 0, f, j;

			for (j = 0; j < n; j++)
				if (!a[j]->filtered)
					h->sorted[k++] = a[j];
			f = k;
			for (j = 0; j < n; j++)
				if (a[j]->filtered)
					h->sorted[k++] = a[j];
			memcpy(a, h->sorted, n * sizeof(*a));
			err = tree_order(h, a, f, h->sorted, output_left);
		}
		free(a);
		return err;
	}
}
