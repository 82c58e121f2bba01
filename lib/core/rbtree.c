// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The kernel's red-black tree shapes (see rbtree.h for the cases). */
#include <errno.h>
#include <stdlib.h>
#include "core/rbtree.h"

static bool is_red(const struct rb_node *x)
{
	return x && rb_is_red(x);
}

static void set_parent(struct rb_node *x, struct rb_node *parent)
{
	x->parent_color = (uintptr_t)parent | (x->parent_color & 1);
}

static void set_red(struct rb_node *x, bool red)
{
	x->parent_color = (x->parent_color & ~(uintptr_t)1) | red;
}

/* Points old's parent (or the root) at new instead. */
static void change_child(struct rb_root *root, struct rb_node *old, struct rb_node *new,
			 struct rb_node *parent)
{
	if (!parent)
		root->node = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

/* x's child on side `dir` (1: right) takes x's place; x becomes its child on the other side. */
static void rotate(struct rb_root *root, struct rb_node *x, int dir)
{
	struct rb_node *y = x->child[dir], *parent = rb_parent(x);

	x->child[dir] = y->child[!dir];
	if (y->child[!dir])
		set_parent(y->child[!dir], x);
	y->child[!dir] = x;
	set_parent(x, y);
	set_parent(y, parent);
	change_child(root, x, y, parent);
}

void rb_insert(struct rb_root *root, struct rb_node *n, struct rb_node *parent,
	       struct rb_node **link)
{
	struct rb_node *x = n;

	n->parent_color = (uintptr_t)parent | 1;
	n->left = n->right = NULL;
	*link = n;
	for (;;) {
		struct rb_node *p = rb_parent(x), *g, *uncle;
		int side;

		if (!p) {
			set_red(x, false);
			return;
		}
		if (!rb_is_red(p))
			return;
		g = rb_parent(p); /* a red parent is never the root */
		side = p == g->right;
		uncle = g->child[!side];
		if (is_red(uncle)) {
			set_red(p, false);
			set_red(uncle, false);
			set_red(g, true);
			x = g;
			continue;
		}
		/* An inner grandchild: rotate it up to the parent's place first. */
		if (x == p->child[!side]) {
			rotate(root, p, !side);
			p = x;
		}
		rotate(root, g, side);
		set_red(p, false);
		set_red(g, true);
		return;
	}
}

/*
 * One black node is missing on every path through parent's side that
 * holds x (x may be empty: the erased leaf's place).
 */
static void erase_fixup(struct rb_root *root, struct rb_node *parent)
{
	struct rb_node *x = NULL;

	while (parent) {
		/*
		 * x's side: the right one when it is the parent's right child,
		 * an empty x included when the right child is empty too.
		 */
		int side = parent->right == x;
		struct rb_node *s = parent->child[!side], *far, *near;

		if (rb_is_red(s)) {
			set_red(s, false);
			set_red(parent, true);
			rotate(root, parent, !side);
			s = parent->child[!side];
		}
		far = s->child[!side];
		near = s->child[side];
		if (!is_red(far) && !is_red(near)) {
			set_red(s, true);
			if (rb_is_red(parent)) {
				set_red(parent, false);
				return;
			}
			x = parent;
			parent = rb_parent(x);
			continue;
		}
		if (!is_red(far)) {
			set_red(near, false);
			set_red(s, true);
			rotate(root, s, side);
			s = parent->child[!side];
		}
		set_red(s, rb_is_red(parent));
		set_red(parent, false);
		set_red(s->child[!side], false);
		rotate(root, parent, !side);
		return;
	}
}

void rb_erase(struct rb_root *root, struct rb_node *n)
{
	struct rb_node *left = n->left, *right = n->right, *parent = rb_parent(n);
	struct rb_node *rebalance = NULL;

	if (!left || !right) {
		struct rb_node *child = left ? left : right;

		change_child(root, n, child, parent);
		if (child) {
			/* A lone child is red under a black node: it takes its place and colour. */
			child->parent_color = n->parent_color;
		} else if (!rb_is_red(n)) {
			rebalance = parent;
		}
	} else {
		struct rb_node *succ = right, *sparent, *child2;
		bool succ_red;

		while (succ->left)
			succ = succ->left;
		succ_red = rb_is_red(succ);
		child2 = succ->right;
		if (succ == right) {
			sparent = succ;
		} else {
			sparent = rb_parent(succ);
			sparent->left = child2;
			if (child2)
				set_parent(child2, sparent);
			succ->right = right;
			set_parent(right, succ);
		}
		succ->left = left;
		set_parent(left, succ);
		change_child(root, n, succ, parent);
		/* the successor takes n's place and colour */
		succ->parent_color = n->parent_color;
		if (child2)
			set_red(child2, false);
		else if (!succ_red)
			rebalance = sparent;
	}
	n->left = n->right = NULL;
	n->parent_color = 0;
	if (rebalance)
		erase_fixup(root, rebalance);
}

static struct rb_node *leftmost(struct rb_node *n, int side)
{
	if (n)
		while (n->child[side])
			n = n->child[side];
	return n;
}

/* The in-order neighbour of n on `side` (1: next, 0: previous). */
static struct rb_node *neighbour(const struct rb_node *n, int side)
{
	const struct rb_node *c;

	if (n->child[side])
		return leftmost(n->child[side], !side);
	do {
		c = n;
		n = rb_parent(n);
	} while (n && n->child[side] == c);
	return (struct rb_node *)n;
}

struct rb_node *rb_first(const struct rb_root *root)
{
	return leftmost(root->node, 0);
}

struct rb_node *rb_last(const struct rb_root *root)
{
	return leftmost(root->node, 1);
}

struct rb_node *rb_next(const struct rb_node *n)
{
	return neighbour(n, 1);
}

struct rb_node *rb_prev(const struct rb_node *n)
{
	return neighbour(n, 0);
}

int rb_order(void *const *in, size_t n, void **out, rb_left_fn goes_left, const void *ctx)
{
	struct rb_root root = { NULL };
	struct rb_node *t, *x;
	size_t k = 0;

	if (!n)
		return 0;
	t = calloc(n, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct rb_node *parent = NULL, **link = &root.node;

		while (*link) {
			parent = *link;
			link = &parent->child[!goes_left(in[i], in[parent - t], ctx)];
		}
		rb_insert(&root, &t[i], parent, link);
	}
	for (x = rb_first(&root); x; x = rb_next(x))
		out[k++] = in[x - t];
	free(t);
	return 0;
}
