// SPDX-License-Identifier: GPL-2.0-only
/* A red-black tree over indices, only to reproduce the in-order walk of perf's trees. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "report/rbtree.h"

struct rb {
	uint32_t left, right, parent;	/* indices + 1; 0: none */
	bool red;
};

static void rotate(struct rb *t, uint32_t *root, uint32_t x, bool left)
{
	uint32_t y = left ? t[x - 1].right : t[x - 1].left;
	uint32_t yc = left ? t[y - 1].left : t[y - 1].right;
	uint32_t p = t[x - 1].parent;

	if (left)
		t[x - 1].right = yc;
	else
		t[x - 1].left = yc;
	if (yc)
		t[yc - 1].parent = x;
	t[y - 1].parent = p;
	if (!p)
		*root = y;
	else if (t[p - 1].left == x)
		t[p - 1].left = y;
	else
		t[p - 1].right = y;
	if (left)
		t[y - 1].left = x;
	else
		t[y - 1].right = x;
	t[x - 1].parent = y;
}

/* The classic bottom-up fix-up, as the kernel's rb_insert_color(). */
static void fixup(struct rb *t, uint32_t *root, uint32_t z)
{
	while (t[z - 1].parent && t[t[z - 1].parent - 1].red) {
		uint32_t p = t[z - 1].parent, g = t[p - 1].parent;
		bool pleft = t[g - 1].left == p;
		uint32_t u = pleft ? t[g - 1].right : t[g - 1].left;

		if (u && t[u - 1].red) {
			t[p - 1].red = false;
			t[u - 1].red = false;
			t[g - 1].red = true;
			z = g;
			continue;
		}
		if (z == (pleft ? t[p - 1].right : t[p - 1].left)) {
			z = p;
			rotate(t, root, z, pleft);
			p = t[z - 1].parent;
			g = t[p - 1].parent;
		}
		t[p - 1].red = false;
		t[g - 1].red = true;
		rotate(t, root, g, !pleft);
	}
	t[*root - 1].red = false;
}

int rep_rb_order(void *const *in, size_t n, void **out, rep_rb_left_fn goes_left,
		 const void *ctx)
{
	struct rb *t;
	uint32_t root = 0, i, x;
	size_t k = 0;

	if (!n)
		return 0;
	t = calloc(n, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 1; i <= n; i++) {
		uint32_t p = 0, cur = root;
		bool left = false;

		while (cur) {
			p = cur;
			left = goes_left(in[i - 1], in[cur - 1], ctx);
			cur = left ? t[cur - 1].left : t[cur - 1].right;
		}
		t[i - 1] = (struct rb){ .parent = p, .red = true };
		if (!p)
			root = i;
		else if (left)
			t[p - 1].left = i;
		else
			t[p - 1].right = i;
		fixup(t, &root, i);
	}
	x = root;
	while (t[x - 1].left)
		x = t[x - 1].left;
	while (x) {
		out[k++] = in[x - 1];
		if (t[x - 1].right) {
			x = t[x - 1].right;
			while (t[x - 1].left)
				x = t[x - 1].left;
		} else {
			uint32_t c = x;

			x = t[x - 1].parent;
			while (x && t[x - 1].right == c) {
				c = x;
				x = t[x - 1].parent;
			}
		}
	}
	free(t);
	return 0;
}
