/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The one red-black tree: intrusive nodes as the kernel's (embed a
 * struct rb_node, get back to the item with rb_entry()), the caller
 * descends to the link itself, so its comparison is inlined and may be
 * anything, even one that is not transitive.
 *
 * perf keeps symbols, callchain children and histogram entries in the
 * kernel's rb-trees; where its comparisons are not transitive, or where
 * a lookup returns the first match on its way down, the tree's shape
 * decides what perf prints. So the shape here is the kernel's, node for
 * node, written from the textbook algorithm with the choices that decide
 * the shape made as Linux's lib/rbtree.c makes them:
 *   insert: a red uncle is a colour flip and the fix-up moves up to the
 *           grandparent; a black uncle is one rotation at the grandparent,
 *           preceded by one at the parent when the new node is an inner
 *           grandchild;
 *   erase:  a node with at most one child is replaced by that child; one
 *           with two by its in-order successor, which takes its colour;
 *           the fix-up sees the missing side as the left one when the
 *           parent's right child is not the (possibly empty) node itself;
 *           a red sibling is first rotated up; a black sibling with two
 *           black children turns red and the fix-up moves up unless the
 *           parent was red; otherwise a rotation at the sibling brings a
 *           red far child, then one at the parent ends it.
 */
#ifndef EMBER_CORE_RBTREE_H
#define EMBER_CORE_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 24 bytes, as the kernel's: the colour is the parent pointer's low bit. */
struct rb_node {
	uintptr_t parent_color;		/* the parent, | 1 when red */
	union {
		struct {
			struct rb_node *left, *right;
		};
		struct rb_node *child[2];	/* [0] left, [1] right: a branch-free descent */
	};
};

struct rb_root {
	struct rb_node *node;	/* NULL: empty */
};

#define rb_entry(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

static inline struct rb_node *rb_parent(const struct rb_node *n)
{
	return (struct rb_node *)(n->parent_color & ~(uintptr_t)1);
}

static inline bool rb_is_red(const struct rb_node *n)
{
	return n->parent_color & 1;
}

/*
 * Links n at *link, a NULL child pointer of parent (or root->node, parent
 * NULL) that the caller's descent reached, and rebalances: the kernel's
 * rb_link_node() + rb_insert_color().
 */
void rb_insert(struct rb_root *root, struct rb_node *n, struct rb_node *parent,
	       struct rb_node **link);
/* Unlinks n, which is in the tree, and rebalances: the kernel's rb_erase(). */
void rb_erase(struct rb_root *root, struct rb_node *n);

/*
 * In-order walks: the first (last) node, then each one's successor
 * (predecessor); NULL at the end.
 */
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *n);
struct rb_node *rb_prev(const struct rb_node *n);

/* goes_left(a, b): the new item a is placed left of the item b already in the tree. */
typedef bool (*rb_left_fn)(const void *a, const void *b, const void *ctx);

/*
 * Inserts in[0..n) in that order, as perf fills a tree one item at a
 * time, and writes the in-order walk to out (may not be in): the order
 * perf's walk gives, even where goes_left is not transitive. 0 or -ENOMEM.
 */
int rb_order(void *const *in, size_t n, void **out, rb_left_fn goes_left, const void *ctx);

#endif
