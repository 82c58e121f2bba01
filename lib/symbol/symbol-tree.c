// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The red-black tree perf keeps its symbols in, rebuilt node for node.
 *
 * Written from the textbook algorithm, with the choices that decide the
 * shape made as Linux's lib/rbtree.c makes them (and perf's copy of it):
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
#include <errno.h>
#include <stdlib.h>
#include "symbol/symbol-tree.h"

int sym_rbtree__init(struct sym_rbtree *t, uint32_t nr)
{
	t->root = SYM_RB_NIL;
	t->n = calloc(nr ? nr : 1, sizeof(*t->n));
	return t->n ? 0 : -ENOMEM;
}

void sym_rbtree__exit(struct sym_rbtree *t)
{
	free(t->n);
	t->n = NULL;
	t->root = SYM_RB_NIL;
}

static bool is_red(const struct sym_rbtree *t, uint32_t x)
{
	return x != SYM_RB_NIL && !t->n[x].black;
}

/* Points old's parent (or the root) at new instead. */
static void change_child(struct sym_rbtree *t, uint32_t old, uint32_t new, uint32_t parent)
{
	if (parent == SYM_RB_NIL)
		t->root = new;
	else if (t->n[parent].left == old)
		t->n[parent].left = new;
	else
		t->n[parent].right = new;
}

static void set_parent(struct sym_rbtree *t, uint32_t x, uint32_t parent)
{
	if (x != SYM_RB_NIL)
		t->n[x].parent = parent;
}

/* x's right child takes x's place; x becomes its left child. */
static void rotate_left(struct sym_rbtree *t, uint32_t x)
{
	struct sym_rbnode *n = t->n;
	uint32_t y = n[x].right, parent = n[x].parent;

	n[x].right = n[y].left;
	set_parent(t, n[y].left, x);
	n[y].left = x;
	n[x].parent = y;
	n[y].parent = parent;
	change_child(t, x, y, parent);
}

/* x's left child takes x's place; x becomes its right child. */
static void rotate_right(struct sym_rbtree *t, uint32_t x)
{
	struct sym_rbnode *n = t->n;
	uint32_t y = n[x].left, parent = n[x].parent;

	n[x].left = n[y].right;
	set_parent(t, n[y].right, x);
	n[y].right = x;
	n[x].parent = y;
	n[y].parent = parent;
	change_child(t, x, y, parent);
}

static void insert_fixup(struct sym_rbtree *t, uint32_t x)
{
	struct sym_rbnode *n = t->n;

	for (;;) {
		uint32_t p = n[x].parent, g, uncle;

		if (p == SYM_RB_NIL) {
			n[x].black = true;
			return;
		}
		if (n[p].black)
			return;
		g = n[p].parent; /* a red parent is never the root */
		if (p == n[g].left) {
			uncle = n[g].right;
			if (is_red(t, uncle)) {
				n[p].black = n[uncle].black = true;
				n[g].black = false;
				x = g;
				continue;
			}
			if (x == n[p].right) {
				rotate_left(t, p);
				p = x;
			}
			rotate_right(t, g);
		} else {
			uncle = n[g].left;
			if (is_red(t, uncle)) {
				n[p].black = n[uncle].black = true;
				n[g].black = false;
				x = g;
				continue;
			}
			if (x == n[p].left) {
				rotate_right(t, p);
				p = x;
			}
			rotate_left(t, g);
		}
		n[p].black = true;
		n[g].black = false;
		return;
	}
}

void sym_rbtree__insert(struct sym_rbtree *t, uint32_t id, uint64_t key)
{
	struct sym_rbnode *n = t->n;
	uint32_t parent = SYM_RB_NIL, *link = &t->root;

	/* Equal keys go right, after the nodes already there. */
	while (*link != SYM_RB_NIL) {
		parent = *link;
		link = &n[parent].child[key >= n[parent].key];
	}
	n[id].key = key;
	n[id].left = n[id].right = SYM_RB_NIL;
	n[id].parent = parent;
	n[id].black = false;
	*link = id;
	insert_fixup(t, id);
}

/*
 * One black node is missing on every path through parent's side that
 * holds x (x may be empty: the erased leaf's place).
 */
static void erase_fixup(struct sym_rbtree *t, uint32_t parent)
{
	struct sym_rbnode *n = t->n;
	uint32_t x = SYM_RB_NIL;

	while (parent != SYM_RB_NIL) {
		uint32_t s = n[parent].right, far, near;

		if (x != s) { /* x is the left child */
			if (is_red(t, s)) {
				n[s].black = true;
				n[parent].black = false;
				rotate_left(t, parent);
				s = n[parent].right;
			}
			far = n[s].right;
			near = n[s].left;
			if (!is_red(t, far) && !is_red(t, near)) {
				n[s].black = false;
				if (!n[parent].black) {
					n[parent].black = true;
					return;
				}
				x = parent;
				parent = n[x].parent;
				continue;
			}
			if (!is_red(t, far)) {
				n[near].black = true;
				n[s].black = false;
				rotate_right(t, s);
				s = n[parent].right;
			}
			n[s].black = n[parent].black;
			n[parent].black = true;
			n[n[s].right].black = true;
			rotate_left(t, parent);
			return;
		}
		s = n[parent].left;
		if (is_red(t, s)) {
			n[s].black = true;
			n[parent].black = false;
			rotate_right(t, parent);
			s = n[parent].left;
		}
		far = n[s].left;
		near = n[s].right;
		if (!is_red(t, far) && !is_red(t, near)) {
			n[s].black = false;
			if (!n[parent].black) {
				n[parent].black = true;
				return;
			}
			x = parent;
			parent = n[x].parent;
			continue;
		}
		if (!is_red(t, far)) {
			n[near].black = true;
			n[s].black = false;
			rotate_left(t, s);
			s = n[parent].left;
		}
		n[s].black = n[parent].black;
		n[parent].black = true;
		n[n[s].left].black = true;
		rotate_right(t, parent);
		return;
	}
}

void sym_rbtree__erase(struct sym_rbtree *t, uint32_t id)
{
	struct sym_rbnode *n = t->n;
	uint32_t left = n[id].left, right = n[id].right, parent = n[id].parent;
	uint32_t rebalance = SYM_RB_NIL;

	if (left == SYM_RB_NIL || right == SYM_RB_NIL) {
		uint32_t child = left == SYM_RB_NIL ? right : left;

		change_child(t, id, child, parent);
		if (child != SYM_RB_NIL) {
			/* A lone child is red under a black node: it takes its place and colour. */
			n[child].parent = parent;
			n[child].black = n[id].black;
		} else if (n[id].black) {
			rebalance = parent;
		}
	} else {
		uint32_t succ = right, sparent, child2;
		bool succ_black;

		while (n[succ].left != SYM_RB_NIL)
			succ = n[succ].left;
		succ_black = n[succ].black;
		child2 = n[succ].right;
		if (succ == right) {
			sparent = succ;
		} else {
			sparent = n[succ].parent;
			n[sparent].left = child2;
			set_parent(t, child2, sparent);
			n[succ].right = right;
			n[right].parent = succ;
		}
		n[succ].left = left;
		n[left].parent = succ;
		change_child(t, id, succ, parent);
		n[succ].parent = parent;
		n[succ].black = n[id].black;
		if (child2 != SYM_RB_NIL)
			n[child2].black = true;
		else if (succ_black)
			rebalance = sparent;
	}
	n[id].left = n[id].right = n[id].parent = SYM_RB_NIL;
	if (rebalance != SYM_RB_NIL)
		erase_fixup(t, rebalance);
}
