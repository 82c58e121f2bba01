// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf's answer where symbols overlap.
 *
 * perf's symbols__find() walks down its rb-tree and returns the first
 * symbol on the way that holds the address: on a node that starts after
 * the address it goes left, on one that ends at or before it right.
 * Where no two symbols overlap that is simply the symbol holding the
 * address. Where they do, the answer depends on which of them sits
 * higher in the tree, and a symbol that encloses another can even be
 * missed (the walk turns right at the inner one). So for each cluster of
 * overlapping symbols we rebuild perf's tree from the table's history
 * (inserts in seq order, the logged erases in between), walk it once per
 * stretch between two symbol boundaries, and keep as spans the stretches
 * where its answer is not the plain lookup's (the last symbol starting at
 * or before the address): in a big library whose PLT entries sit above
 * the stretched _init that is only .plt.got. The tree is freed straight
 * after; tables without overlaps never build it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/symbol.h"
#include "core/rbtree.h"

struct cluster {
	size_t first, last;	/* syms[first..last], at least two */
	uint64_t start, end;
};

/* A node of perf's tree, numbered by seq; perf's insert puts an equal key right. */
struct replay_node {
	struct rb_node rb;
	uint64_t key;
};

struct replay {
	struct replay_node *n;	/* by seq */
	struct rb_root root;
	uint32_t *idx_of;	/* node (seq) -> index into syms, SYMTAB_NONE if erased */
};

static void replay__insert(struct replay *r, uint32_t seq, uint64_t key)
{
	struct rb_node *parent = NULL, **link = &r->root.node;

	while (*link) {
		parent = *link;
		link = &parent->child[key >= rb_entry(parent, struct replay_node, rb)->key];
	}
	r->n[seq].key = key;
	rb_insert(&r->root, &r->n[seq].rb, parent, link);
}

static uint64_t span_end(const struct ember_symbol *s)
{
	return s->end > s->start ? s->end : s->start + 1;
}

/* Maximal runs of the sorted table in which each symbol starts inside an earlier one. */
static int find_clusters(const struct symtab *t, struct cluster **out, size_t *nr_out)
{
	const struct ember_symbol *syms = t->syms;
	size_t nr = 0, alloc = 0, n = t->nr_sorted, first = 0;
	struct cluster *c = NULL;
	uint64_t end;

	*out = NULL;
	*nr_out = 0;
	if (!n)
		return 0;
	end = span_end(&syms[0]);
	/* one compare per symbol that overlaps nothing: nearly all of them */
	for (size_t i = 1; i <= n; i++) {
		if (i < n && syms[i].start < end) {
			uint64_t e = span_end(&syms[i]);

			if (e > end)
				end = e;
			continue;
		}
		if (i - 1 > first) {
			if (nr == alloc) {
				size_t na = alloc ? alloc * 2 : 8;
				struct cluster *p = realloc(c, na * sizeof(*p));

				if (!p) {
					free(c);
					return -ENOMEM;
				}
				c = p;
				alloc = na;
			}
			c[nr++] = (struct cluster){ first, i - 1, syms[first].start, end };
		}
		if (i < n) {
			first = i;
			end = span_end(&syms[i]);
		}
	}
	*out = c;
	*nr_out = nr;
	return 0;
}

/* perf's tree as it stands after the table's whole history. */
static int replay__build(struct replay *r, const struct symtab *t)
{
	uint32_t n = t->nr_added;
	uint64_t *key;
	uint8_t *seen;
	size_t e = 0;

	r->root.node = NULL;
	r->idx_of = malloc((n ? n : 1) * sizeof(*r->idx_of));
	/* 32-byte nodes on 64-byte lines: a node read on the way down is one cache line */
	r->n = aligned_alloc(64, ((n ? n : 1) * sizeof(*r->n) + 63) & ~(size_t)63);
	key = malloc((n ? n : 1) * sizeof(*key));
	seen = calloc(n ? n : 1, 1);
	if (!r->idx_of || !r->n || !key || !seen) {
		free(key);
		free(seen);
		free(r->idx_of);
		free(r->n);
		r->idx_of = NULL;
		r->n = NULL;
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		r->idx_of[i] = SYMTAB_NONE;
	for (size_t i = 0; i < t->nr; i++) {
		uint32_t seq = t->syms[i].seq;

		r->idx_of[seq] = i;
		key[seq] = t->syms[i].start;
		seen[seq] = 1;
	}
	for (size_t i = 0; i < t->nr_erased; i++) {
		key[t->erased[i].seq] = t->erased[i].start;
		seen[t->erased[i].seq] = 1;
	}
	for (uint32_t seq = 0; seq <= n; seq++) {
		/* Erases logged when seq symbols had been inserted happen before the next. */
		for (; e < t->nr_erased && t->erased[e].when <= seq; e++)
			rb_erase(&r->root, &r->n[t->erased[e].seq].rb);
		if (seq < n && seen[seq])
			replay__insert(r, seq, key[seq]);
	}
	free(key);
	free(seen);
	return 0;
}

static void replay__exit(struct replay *r)
{
	free(r->n);
	free(r->idx_of);
}

/* perf's symbols__find() on the rebuilt tree: an index into syms or SYMTAB_NONE. */
static uint32_t replay__find(const struct replay *r, const struct ember_symbol *syms, uint64_t ip)
{
	const struct rb_node *x = r->root.node;

	while (x) {
		uint32_t seq = rb_entry(x, struct replay_node, rb) - r->n;
		const struct ember_symbol *s = &syms[r->idx_of[seq]];

		if (ip < s->start)
			x = x->left;
		else if (ip > s->end || (ip == s->end && ip != s->start))
			x = x->right;
		else
			return r->idx_of[seq];
	}
	return SYMTAB_NONE;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Appends c's spans: one per stretch with the same answer. */
static int cluster__spans(const struct cluster *c, const struct symtab *t,
			  const struct replay *r, struct symtab_span **spans, size_t *nr,
			  size_t *alloc)
{
	size_t nb = 0, count = (c->last - c->first + 1) * 2;
	uint64_t *b = malloc(count * sizeof(*b));

	if (!b)
		return -ENOMEM;
	/* The answer can only change where some symbol of the cluster starts or ends. */
	for (size_t i = c->first; i <= c->last; i++) {
		b[nb++] = t->syms[i].start;
		b[nb++] = span_end(&t->syms[i]);
	}
	qsort(b, nb, sizeof(*b), cmp_u64);
	for (size_t i = 0; i < nb; i++) {
		uint64_t lo = b[i], hi = i + 1 < nb ? b[i + 1] : c->end;
		const struct ember_symbol *plain;
		uint32_t idx;

		if (lo == hi || lo >= c->end)
			continue;
		idx = replay__find(r, t->syms, lo);
		plain = symtab__find_last(t, lo);
		/* Only where the plain lookup would answer otherwise. */
		if (idx == (plain ? (uint32_t)(plain - t->syms) : SYMTAB_NONE))
			continue;
		if (*nr && (*spans)[*nr - 1].end == lo && (*spans)[*nr - 1].idx == idx) {
			(*spans)[*nr - 1].end = hi;
			continue;
		}
		if (*nr == *alloc) {
			size_t n = *alloc ? *alloc * 2 : 16;
			struct symtab_span *p = realloc(*spans, n * sizeof(*p));

			if (!p) {
				free(b);
				return -ENOMEM;
			}
			*spans = p;
			*alloc = n;
		}
		(*spans)[(*nr)++] = (struct symtab_span){ lo, hi, idx };
	}
	free(b);
	return 0;
}

static void symtab__drop_history(struct symtab *t)
{
	free(t->erased);
	t->erased = NULL;
	t->nr_erased = 0;
	/* The history is gone: a later index must not replay a partial one. */
	t->alloc_erased = SIZE_MAX;
}

int symtab__index(struct symtab *t)
{
	struct symtab_span *spans = NULL;
	size_t nr_clusters = 0, nr = 0, alloc = 0;
	struct cluster *c = NULL;
	struct replay r;
	int err;

	free(t->spans);
	t->spans = NULL;
	t->nr_spans = 0;
	err = find_clusters(t, &c, &nr_clusters);
	if (err || !nr_clusters)
		goto out;
	/* The erase log could not be kept (or was used already): no faithful tree. */
	if (t->alloc_erased == SIZE_MAX || t->nr_sorted != t->nr) {
		err = -ENOMEM;
		goto out;
	}
	err = replay__build(&r, t);
	if (err)
		goto out;
	for (size_t i = 0; i < nr_clusters && !err; i++)
		err = cluster__spans(&c[i], t, &r, &spans, &nr, &alloc);
	replay__exit(&r);
	if (err) {
		free(spans);
		goto out;
	}
	/* Trim the slack: these stay for the dso's lifetime. */
	t->spans = realloc(spans, nr * sizeof(*spans));
	if (!t->spans)
		t->spans = spans;
	t->nr_spans = nr;
out:
	free(c);
	symtab__drop_history(t);
	symtab__index_blocks(t);
	return err;
}
