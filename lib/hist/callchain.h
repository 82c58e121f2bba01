/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Callchain trees as perf report builds them: one tree per histogram
 * entry, chains appended in display order (caller or callee first),
 * nodes merged by function (dso and symbol start, or dso and ip when
 * unresolved). perf keeps a radix tree whose nodes hold runs of entries;
 * here every entry is a node and a run is rebuilt when printing: a node
 * with no hits of its own and one child continues its parent's run.
 */
#ifndef EMBER_HIST_CALLCHAIN_H
#define EMBER_HIST_CALLCHAIN_H

#include <stddef.h>
#include <stdint.h>
#include <ember/hist.h>
#include "core/rbtree.h"

struct chain_node {
	struct rb_node rb;		/* first: among its siblings, in perf's tree */
	struct rb_root kids;		/* the children's tree (perf's rb_root_in) */
	struct chain_node *parent;
	const void *dso;
	const void *sym;
	uint64_t key;			/* symbol start, or ip: perf's match order */
	struct ember_callchain_node pub; /* what callers see */
	uint8_t kid_kinds;		/* KIDS_*: the kinds of its children */
	uint8_t inlined;		/* an inlined function's frame: matched by name */
};

static inline struct chain_node *chain_node__of(const struct ember_callchain_node *n)
{
	return (struct chain_node *)((const char *)n - offsetof(struct chain_node, pub));
}

struct hist_chains;

/* A node store with its lookup table; everything is freed with it. */
struct hist_chains *hist_chains__new(enum ember_callchain_key key);
/*
 * Address-keyed chains: each new node's srcline from fn(ctx, frame), as
 * perf's callchain_srcline() gives its callchain entries. The strings
 * must outlive the chains.
 */
void hist_chains__set_srcline(struct hist_chains *c,
			      const char *(*fn)(void *ctx, const struct ember_hist_frame *f),
			      void *ctx);
void hist_chains__delete(struct hist_chains *c);
/*
 * Gives the nodes of the tree at root (root included) back to the store,
 * for the next new ones (an entry decayed away). Nothing may point into
 * the tree any more.
 */
void hist_chains__free_tree(struct hist_chains *c, struct chain_node *root);
/* A new empty tree. NULL: ENOMEM. */
struct chain_node *hist_chains__new_root(struct hist_chains *c);
/*
 * Appends the n frames of cursor (display order) under root with the
 * sample's period and count. Returns 0 or -ENOMEM.
 */
int hist_chains__append(struct hist_chains *c, struct chain_node *root,
			const struct ember_hist_frame *const *cursor, uint32_t n, uint64_t period,
			uint64_t count);

#endif
