/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The shapes of perf's red-black trees. perf fills its trees one item at
 * a time and both finds and walks through them; where its comparisons
 * are not transitive (addresses compared as signed differences, symbols
 * against raw addresses), the tree's shape decides what a lookup finds
 * and the order of a walk, so the shape is rebuilt here with the
 * kernel's insertion rebalancing.
 */
#ifndef EMBER_HIST_RBTREE_H
#define EMBER_HIST_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hist_rb_node {
	struct hist_rb_node *left, *right, *parent;
	bool red;
	/*
	 * The user's, in what would be padding (callchain.c keeps the kinds
	 * of a node's children there); hist_rb_insert() clears it.
	 */
	uint8_t aux;
};

/*
 * Links n as the left or right child of parent (NULL: n becomes the
 * root) and rebalances: the kernel's rb_link_node() + rb_insert_color().
 */
void hist_rb_insert(struct hist_rb_node **root, struct hist_rb_node *n, struct hist_rb_node *parent,
		    bool left);
/* In-order walk: the leftmost node, then each one's successor; NULL at the end. */
struct hist_rb_node *hist_rb_first(struct hist_rb_node *root);
struct hist_rb_node *hist_rb_next(const struct hist_rb_node *n);

/* goes_left(a, b): the new item a is placed left of the item b already in the tree. */
typedef bool (*hist_rb_left_fn)(const void *a, const void *b, const void *ctx);

/*
 * Inserts in[0..n) in that order and writes the in-order walk to out
 * (may not be in). Returns 0 or -ENOMEM.
 */
int hist_rb_order(void *const *in, size_t n, void **out, hist_rb_left_fn goes_left,
		  const void *ctx);

#endif
