// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
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
#include "hist/hist-priv.h"
#include "core/rbtree.h"

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

/* strcmp() for interned strings: the same content is the same pointer, the common case. */
static int str_cmp(const char *a, const char *b)
{
	return a == b ? 0 : strcmp(a, b);
}

static int dim_input(enum ember_hist_dim d, const struct ember_hist_entry *a,
		     const struct ember_hist_entry *b);

/*
 * perf computes an entry's srcline or srcfile when a comparison first
 * needs it, and sizes the column by the ones computed before printing:
 * the comparisons that reach them mark them so.
 */
static void seen(const struct ember_hist_entry *a, const struct ember_hist_entry *b, uint8_t bit)
{
	((struct ember_hist_entry *)a)->src_seen |= bit;
	((struct ember_hist_entry *)b)->src_seen |= bit;
}

/* The output comparison of one dimension: > 0 puts a first (perf's fmt->sort). */
static int dim_sort(const struct ember_hist *h, enum ember_hist_dim d,
		    const struct ember_hist_entry *a, const struct ember_hist_entry *b)
{
	int r;

	switch (d) {
	case EMBER_HIST_DIM_OVERHEAD:
		return field_cmp(a->self.period, b->self.period);
	case EMBER_HIST_DIM_OVERHEAD_SYS:
		return field_cmp(a->self.period_sys, b->self.period_sys);
	case EMBER_HIST_DIM_OVERHEAD_US:
		return field_cmp(a->self.period_us, b->self.period_us);
	case EMBER_HIST_DIM_OVERHEAD_GUEST_SYS:
		return field_cmp(a->self.period_guest_sys, b->self.period_guest_sys);
	case EMBER_HIST_DIM_OVERHEAD_GUEST_US:
		return field_cmp(a->self.period_guest_us, b->self.period_guest_us);
	case EMBER_HIST_DIM_OVERHEAD_CHILDREN:
		r = field_cmp(a->acc.period, b->acc.period);
		if (r || !h->opts.children)
			return r;
		/*
		 * perf puts the caller above the callee when they tie: with
		 * callers first, a caller's chain (from it to the leaf) is longer
		 */
		if (a->thread != b->thread || !h->opts.use_callchain)
			return 0;
		r = (int)hist_entry__of(a)->max_depth - (int)hist_entry__of(b)->max_depth;
		if (h->opts.chain.order == EMBER_CALLCHAIN_CALLEE)
			r = -r;
		return r;
	case EMBER_HIST_DIM_SAMPLE:
		return field_cmp(a->self.nr_events, b->self.nr_events);
	case EMBER_HIST_DIM_PERIOD:
		return field_cmp(a->self.period, b->self.period);
	case EMBER_HIST_DIM_PID:
		return sign64((int64_t)b->tid - a->tid);
	case EMBER_HIST_DIM_COMM:
		return sign64(str_cmp(b->comm ? b->comm : "", a->comm ? a->comm : ""));
	case EMBER_HIST_DIM_DSO:
		if (!a->dso_name || !b->dso_name)
			return cmp_null(a->dso_name, b->dso_name);
		return sign64(str_cmp(b->dso_name, a->dso_name));
	case EMBER_HIST_DIM_SYM:
		if (!a->sym || !b->sym)
			return cmp_null(a->sym, b->sym);
		return sign64(str_cmp(b->sym_name, a->sym_name));
	case EMBER_HIST_DIM_PARENT:
		if (!a->parent || !b->parent)
			return cmp_null(a->parent, b->parent);
		return sign64(str_cmp(b->parent, a->parent));
	case EMBER_HIST_DIM_CPU:
		return sign64((int64_t)b->cpu - a->cpu);
	case EMBER_HIST_DIM_SYMBOL_SIZE: {
		uint64_t sa = a->sym ? a->sym_end - a->sym_start : 0;
		uint64_t sb = b->sym ? b->sym_end - b->sym_start : 0;

		return field_cmp(sb, sa);
	}
	case EMBER_HIST_DIM_DSO_SIZE:
		/* perf: the map's size, bigger first */
		return field_cmp(b->map_size, a->map_size);
	case EMBER_HIST_DIM_IPC_NULL:
		/* perf sorts it by its comparison, the symbol's (address) one */
		return dim_input(EMBER_HIST_DIM_SYM, b, a);
	case EMBER_HIST_DIM_SRCLINE:
		seen(a, b, EMBER_HIST_SEEN_SRCLINE);
		return sign64(str_cmp(b->srcline, a->srcline));
	case EMBER_HIST_DIM_SRCFILE:
		seen(a, b, EMBER_HIST_SEEN_SRCFILE);
		return sign64(str_cmp(b->srcfile, a->srcfile));
	case EMBER_HIST_DIM_ADDR:
		return sign64((int64_t)(b->addr_key - a->addr_key));
	case EMBER_HIST_DIM_TIME:
		return sign64((int64_t)(b->time - a->time));
	case EMBER_HIST_DIM_TRACE:
		/* perf: equal for other events */
		if (!a->trace || !b->trace)
			return 0;
		seen(a, b, EMBER_HIST_SEEN_TRACE);
		return sign64(str_cmp(b->trace, a->trace));
	default:
		return 0;
	}
}

/* perf's input tree order for one key: < 0 puts a first. */
static int dim_input(enum ember_hist_dim d, const struct ember_hist_entry *a,
		     const struct ember_hist_entry *b)
{
	int r;

	switch (d) {
	case EMBER_HIST_DIM_PID:
		return sign64((int64_t)a->tid - b->tid);
	case EMBER_HIST_DIM_COMM:
		return sign64(str_cmp(a->comm ? a->comm : "", b->comm ? b->comm : ""));
	case EMBER_HIST_DIM_DSO:
		if (!a->dso_name || !b->dso_name)
			return -cmp_null(a->dso_name, b->dso_name);
		return sign64(str_cmp(a->dso_name, b->dso_name));
	case EMBER_HIST_DIM_SYMBOL_SIZE:
		return field_cmp(a->sym ? a->sym_end - a->sym_start : 0,
				 b->sym ? b->sym_end - b->sym_start : 0);
	case EMBER_HIST_DIM_DSO_SIZE:
		return field_cmp(a->map_size, b->map_size);
	case EMBER_HIST_DIM_SYM:
	case EMBER_HIST_DIM_IPC_NULL: /* perf compares it as the symbol */
		if (!a->sym && !b->sym)
			return sign64((int64_t)(a->ip - b->ip));
		if (!a->dso_name || !b->dso_name)
			r = -cmp_null(a->dso_name, b->dso_name);
		else
			r = sign64(str_cmp(a->dso_name, b->dso_name));
		if (r)
			return r;
		if (!a->sym || !b->sym)
			return -cmp_null(a->sym, b->sym);
		if ((a->inlined || b->inlined) && (r = sign64(str_cmp(a->sym_name, b->sym_name))))
			return r;
		if (a->sym_start != b->sym_start)
			return sign64((int64_t)(a->sym_start - b->sym_start));
		return sign64((int64_t)(a->sym_end - b->sym_end));
	case EMBER_HIST_DIM_PARENT:
		if (!a->parent || !b->parent)
			return -cmp_null(a->parent, b->parent);
		return sign64(str_cmp(a->parent, b->parent));
	case EMBER_HIST_DIM_CPU:
		return sign64((int64_t)a->cpu - b->cpu);
	case EMBER_HIST_DIM_SRCLINE:
		seen(a, b, EMBER_HIST_SEEN_SRCLINE);
		return sign64(str_cmp(a->srcline, b->srcline));
	case EMBER_HIST_DIM_SRCFILE:
		seen(a, b, EMBER_HIST_SEEN_SRCFILE);
		return sign64(str_cmp(a->srcfile, b->srcfile));
	case EMBER_HIST_DIM_TRACE:
		if (!a->trace || !b->trace)
			return 0;
		seen(a, b, EMBER_HIST_SEEN_TRACE);
		return sign64(str_cmp(a->trace, b->trace));
	case EMBER_HIST_DIM_ADDR:
		return sign64((int64_t)(a->addr_key - b->addr_key));
	case EMBER_HIST_DIM_TIME:
		return sign64((int64_t)(a->time - b->time));
	default:
		return 0;
	}
}

/* perf's input tree: a new entry goes left of an existing one its keys compare below. */
static bool input_left(const void *pa, const void *pb, const void *ctx)
{
	const struct ember_hist *h = ctx;
	const struct ember_hist_entry *a = &((const struct hist_entry *)pa)->pub;
	const struct ember_hist_entry *b = &((const struct hist_entry *)pb)->pub;
	int i, r;

	for (i = 0; i < h->layout.nr_sort; i++) {
		r = dim_input(h->layout.sort[i], a, b);
		if (r)
			return r < 0;
	}
	return false;
}

/* perf's hist_entry__sort() > 0: a goes before (left of) b. */
static bool output_left(const void *pa, const void *pb, const void *ctx)
{
	const struct ember_hist *h = ctx;
	const struct ember_hist_entry *a = &((const struct hist_entry *)pa)->pub;
	const struct ember_hist_entry *b = &((const struct hist_entry *)pb)->pub;
	int i, r;

	for (i = 0; i < h->layout.nr_sort; i++) {
		r = dim_sort(h, h->layout.sort[i], a, b);
		if (r)
			return r > 0;
	}
	return false;
}

static int cmp_seq(const void *pa, const void *pb)
{
	const struct hist_entry *a = *(struct hist_entry *const *)pa;
	const struct hist_entry *b = *(struct hist_entry *const *)pb;

	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int ember_hist__resort(struct ember_hist *h)
{
	struct hashtab_slot *s;
	size_t n = 0;

	/* the second pass is over */
	free(h->memo);
	h->memo = NULL;
	h->nr_memo = h->alloc_memo = h->memo_pos = 0;
	free(h->sorted);
	h->sorted = malloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*h->sorted));
	if (!h->sorted)
		return -ENOMEM;
	h->stats.total_period = 0;
	h->stats.total_non_filtered_period = 0;
	hashtab__for_each(&h->entries, s) {
		struct hist_entry *e = (struct hist_entry *)(uintptr_t)s->val;

		h->sorted[n++] = e;
		h->stats.total_period += e->pub.self.period;
		if (!e->pub.filtered)
			h->stats.total_non_filtered_period += e->pub.self.period;
	}
	h->nr_sorted = n;
	h->stats.nr_entries = n;
	/*
	 * perf: entries_in (built as entries appear), then the collapsed
	 * tree (same keys), then the output tree, each filled by walking
	 * the previous one.
	 */
	{
		struct hist_entry **a = malloc((n ? n : 1) * sizeof(*a));
		int err;

		if (!a)
			return -ENOMEM;
		qsort(h->sorted, n, sizeof(*h->sorted), cmp_seq);
		err = rb_order((void *const *)h->sorted, n, (void **)a, input_left, h);
		/* only comm has a collapse step among the keys here */
		if (!err && (h->mask & EMBER_HIST_KEY(EMBER_HIST_DIM_COMM))) {
			err = rb_order((void *const *)a, n, (void **)h->sorted, input_left, h);
			memcpy(a, h->sorted, n * sizeof(*a));
		}
		if (!err) {
			/*
			 * perf's output tree only takes the entries that are
			 * not filtered; the others follow, never printed.
			 */
			size_t k = 0, f, j;

			for (j = 0; j < n; j++)
				if (!a[j]->pub.filtered)
					h->sorted[k++] = a[j];
			f = k;
			for (j = 0; j < n; j++)
				if (a[j]->pub.filtered)
					h->sorted[k++] = a[j];
			memcpy(a, h->sorted, n * sizeof(*a));
			err =
			    rb_order((void *const *)a, f, (void **)h->sorted, output_left, h);
		}
		free(a);
		return err;
	}
}
