/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The order perf's red-black trees give. perf fills its trees one item
 * at a time and walks them in order; where its comparisons are not
 * transitive (addresses compared as signed differences, symbols against
 * raw addresses), the tree's shape decides, so it is rebuilt here with
 * the kernel's insertion rebalancing.
 */
#ifndef EMBER_REPORT_RBTREE_H
#define EMBER_REPORT_RBTREE_H

#include <stdbool.h>
#include <stddef.h>

/* goes_left(a, b): the new item a is placed left of the item b already in the tree. */
typedef bool (*rep_rb_left_fn)(const void *a, const void *b, const void *ctx);

/*
 * Inserts in[0..n) in that order and writes the in-order walk to out
 * (may not be in). Returns 0 or -ENOMEM.
 */
int rep_rb_order(void *const *in, size_t n, void **out, rep_rb_left_fn goes_left,
		 const void *ctx);

#endif
