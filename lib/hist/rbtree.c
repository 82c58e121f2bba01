// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A red-black tree with the kernel's insertion rebalancing, to rebuild perf's tree shapes. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "hist/rbtree.h"

/* Turns x's right (left) child y into x's parent. */
static void rotate(struct hist_rb_node **root, struct hist_rb_node *x, bool left)
{
	struct hist_rb_node *y = left ? x->right : x->left;
	struct hist_rb_node *yc = left ? y->left : y->right;
	struct hist_rb_node *p = x->parent;

	if (left)
		x->right = yc;
	else
		x->left = yc;
	if (yc)
		yc->parent = x;
	y->parent = p;
	if (!p)
		*root = y;
	else if (p->left == x)
		p->left = y;
	else
		p->right = y;
	if (left)
		y->left = x;
	else
		y->right = x;
	x->parent = y;
}

/* The classic bottom-up fix-up, as the kernel's rb_insert_color(). */
static void fixup(struct hist_rb_node **root, struct hist_rb_node *z)
{
	while (z->parent && z->parent->red) {
		struct hist_rb_node *p = z->parent, *g = p->parent;
		bool pleft = g->left == p;
		struct hist_rb_node *u = pleft ? g->right : g->left;

		if (u && u->red) {
			p->red = false;
			u->red = false;
			g->red = true;
			z = g;
			continue;
		}
		if (z == (pleft ? p->right : p->left)) {
			z = p;
			rotate(root, z, pleft);
			p = z->parent;
			g = p->parent;
		}
		p->red = false;
		g->red = true;
		rotate(root, g, !pleft);
	}
	(*root)->red = false;
}

void hist_rb_insert(struct hist_rb_node **root, struct hist_rb_node *n, struct hist_rb_node *parent,
		    bool left)
{
	*n = (struct hist_rb_node){ .parent = parent, .red = true };
	if (!parent)
		*root = n;
	else if (left)
		parent->left = n;
	else
		parent->right = n;
	fixup(root, n);
}

struct hist_rb_node *hist_rb_first(struct hist_rb_node *root)
{
	if (root)
		while (root->left)
			root = root->left;
	return root;
}

struct hist_rb_node *hist_rb_next(const struct hist_rb_node *n)
{
	const struct hist_rb_node *c;

	if (n->right)
		return hist_rb_first(n->right);
	do {
		c = n;
		n = n->parent;
	} while (n && n->right == c);
	return (struct hist_rb_node *)n;
}

int hist_rb_order(void *const *in, size_t n, void **out, hist_rb_left_fn goes_left, const void *ctx)
{
	struct hist_rb_node *t, *root = NULL, *x;
	size_t i, k = 0;

	if (!n)
		return 0;
	t = calloc(n, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct hist_rb_node *p = NULL, *cur = root;
		bool left = false;

		while (cur) {
			p = cur;
			left = goes_left(in[i], in[cur - t], ctx);
			cur = left ? cur->left : cur->right;
		}
		hist_rb_insert(&root, &t[i], p, left);
	}
	for (x = hist_rb_first(root); x; x = hist_rb_next(x))
		out[k++] = in[x - t];
	free(t);
	return 0;
}
