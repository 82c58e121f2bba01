// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The kernel's red-black tree shapes (see rbtree.h for the cases). */
#include <errno.h>
#include <stdlib.h>
#include "core/rbtree.h"

static bool is_red(const struct rb_node *x)
{
	return x && x->red;
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
	struct rb_node *y = x->child[dir], *parent = x->parent;

	x->child[dir] = y->child[!dir];
	if (y->child[!dir])
		y->child[!dir]->parent = x;
	y->child[!dir] = x;
	x->parent = y;
	y->parent = parent;
	change_child(root, x, y, parent);
}

void rb_insert(struct rb_root *root, struct rb_node *n, struct rb_node *parent,
	       struct rb_node **link)
{
	struct rb_node *x = n;

	n->parent = parent;
	n->left = n->right = NULL;
	n->red = true;
	*link = n;
	for (;;) {
		struct rb_node *p = x->parent, *g, *uncle;
		int side;

		if (!p) {
			x->red = false;
			return;
		}
		if (!p->red)
			return;
		g = p->parent; /* a red parent is never the root */
		side = p == g->right;
		uncle = g->child[!side];
		if (is_red(uncle)) {
			p->red = uncle->red = false;
			g->red = true;
			x = g;
			continue;
		}
		/* An inner grandchild: rotate it up to the parent's place first. */
		if (x == p->child[!side]) {
			rotate(root, p, !side);
			p = x;
		}
		rotate(root, g, side);
		p->red = false;
		g->red = true;
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

		if (is_red(s)) {
			s->red = false;
			parent->red = true;
			rotate(root, parent, !side);
			s = parent->child[!side];
		}
		far = s->child[!side];
		near = s->child[side];
		if (!is_red(far) && !is_red(near)) {
			s->red = true;
			if (parent->red) {
				parent->red = false;
				return;
			}
			x = parent;
			parent = x->parent;
			continue;
		}
		if (!is_red(far)) {
			near->red = false;
			s->red = true;
			rotate(root, s, side);
			s = parent->child[!side];
		}
		s->red = parent->red;
		parent->red = false;
		s->child[!side]->red = false;
		rotate(root, parent, !side);
		return;
	}
}

void rb_erase(struct rb_root *root, struct rb_node *n)
{
	struct rb_node *left = n->left, *right = n->right, *parent = n->parent;
	struct rb_node *rebalance = NULL;

	if (!left || !right) {
		struct rb_node *child = left ? left : right;

		change_child(root, n, child, parent);
		if (child) {
			/* A lone child is red under a black node: it takes its place and colour. */
			child->parent = parent;
			child->red = n->red;
		} else if (!n->red) {
			rebalance = parent;
		}
	} else {
		struct rb_node *succ = right, *sparent, *child2;
		bool succ_red;

		while (succ->left)
			succ = succ->left;
		succ_red = succ->red;
		child2 = succ->right;
		if (succ == right) {
			sparent = succ;
		} else {
			sparent = succ->parent;
			sparent->left = child2;
			if (child2)
				child2->parent = sparent;
			succ->right = right;
			right->parent = succ;
		}
		succ->left = left;
		left->parent = succ;
		change_child(root, n, succ, parent);
		succ->parent = parent;
		succ->red = n->red;
		if (child2)
			child2->red = false;
		else if (!succ_red)
			rebalance = sparent;
	}
	n->left = n->right = n->parent = NULL;
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
		n = n->parent;
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
