/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Callchain trees as perf report builds them: one tree per histogram
 * entry, chains appended in display order (caller or callee first),
 * nodes merged by function (dso and symbol start, or dso and ip when
 * unresolved). perf keeps a radix tree whose nodes hold runs of entries;
 * here every entry is a node and a run is rebuilt when printing: a node
 * with no hits of its own and one child continues its parent's run.
 */
#ifndef EMBER_REPORT_CALLCHAIN_H
#define EMBER_REPORT_CALLCHAIN_H

#include <stdint.h>
#include <stdio.h>
#include "report/rbtree.h"
#include "report/report.h"

struct rep_cnode {
	struct rep_rb_node rb;		/* first: among its siblings, in perf's tree */
	struct rep_rb_node *kids;	/* the children's tree (perf's rb_root_in) */
	struct rep_cnode *parent;
	const void *dso;
	const void *sym;
	const char *name;		/* symbol name, NULL: print the ip */
	const char *srcline;		/* printed after the name (address key), or NULL */
	uint64_t ip;
	uint64_t key;			/* symbol start, or ip: perf's match order */
	uint64_t hit, children_hit;
	uint64_t count, children_count;
	uint32_t nr_children;
	uint8_t kid_kinds;		/* REP_KIDS_*: which kinds of children it has */
};

/*
 * A node's children in the order of perf's tree: rep_cnode__first_kid(),
 * then rep_cnode__next() until NULL.
 */
static inline const struct rep_cnode *rep_cnode__of(const struct rep_rb_node *rb)
{
	return (const struct rep_cnode *)rb;
}

static inline const struct rep_cnode *rep_cnode__first_kid(const struct rep_cnode *n)
{
	return rep_cnode__of(rep_rb_first(n->kids));
}

static inline const struct rep_cnode *rep_cnode__next(const struct rep_cnode *n)
{
	return rep_cnode__of(rep_rb_next(&n->rb));
}

struct rep_chains;

/* A node store with its lookup table; everything is freed with it. */
struct rep_chains *rep_chains__new(enum rep_chain_key key);
/*
 * Address-keyed chains: each new node's srcline from fn(ctx, frame), as
 * perf's callchain_srcline() gives its callchain entries. The strings
 * must outlive the chains.
 */
void rep_chains__set_srcline(struct rep_chains *c,
			     const char *(*fn)(void *ctx, const struct rep_frame *f), void *ctx);
void rep_chains__delete(struct rep_chains *c);
/* A new empty tree. NULL: ENOMEM. */
struct rep_cnode *rep_chains__new_root(struct rep_chains *c);
/*
 * Appends the n frames of cursor (display order) under root with the
 * sample's period and count. Returns 0 or -ENOMEM.
 */
int rep_chains__append(struct rep_chains *c, struct rep_cnode *root,
		       const struct rep_frame *const *cursor, uint32_t n, uint64_t period,
		       uint64_t count);

static inline uint64_t rep_cnode__cumul_hits(const struct rep_cnode *n)
{
	return n->hit + n->children_hit;
}

struct rep_chain_print {
	const struct rep_chain_param *param;
	uint64_t total;		/* the hists' total period (graph percentages) */
	uint64_t parent;	/* the entry's period (self, or children with --children) */
	uint64_t min_hit;	/* threshold in period */
	bool skip_first;	/* --sort starts with sym: the root repeats the row */
	const char *field_sep;	/* -t: joins folded frames instead of ';' */
};

/* Prints an entry's tree as perf report --stdio does; returns bytes printed. */
size_t rep_chain__fprintf(FILE *fp, const struct rep_cnode *root, const struct rep_chain_print *pp);

#endif
