// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Folded stacks out: every node where stacks end becomes "path count".
 * Lines are sorted bytewise and equal ones merged, which is what
 * stackcollapse-perf.pl prints (Perl's sort of its hash keys); merging
 * matters when names hold ';' (a comm may), so two tree paths spell one
 * line. A differential tree prints "path before after" (difffolded.pl).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flame-priv.h"

struct line {
	size_t off;
	uint32_t len;
	double after, before;
};

struct lines {
	struct line *v;
	size_t nr, alloc;
	char *text;
	size_t text_len, text_alloc;
};

static int line_cmp(const void *a, const void *b, void *arg)
{
	const struct line *x = a, *y = b;
	const char *text = arg;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(text + x->off, text + y->off, n);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* Writes the path of node (root excluded) at the end of l->text. */
static int append_path(struct lines *l, const struct ember_flame *fl, uint32_t node, size_t *len)
{
	size_t need = 0, depth = fl->nodes[node].depth, pos;

	for (uint32_t n = node; n != 0; n = fl->nodes[n].parent)
		need += fl->frames[fl->nodes[n].frame].len + 1;
	if (need)
		need--;
	if (l->text_len + need + 1 > l->text_alloc) {
		size_t alloc = l->text_alloc ? l->text_alloc : 1 << 16;
		char *grown;

		while (l->text_len + need + 1 > alloc)
			alloc *= 2;
		grown = realloc(l->text, alloc);
		if (!grown)
			return -ENOMEM;
		l->text = grown;
		l->text_alloc = alloc;
	}
	/* Fill from the leaf backwards. */
	pos = l->text_len + need;
	for (uint32_t n = node; n != 0; n = fl->nodes[n].parent, depth--) {
		const struct flame_frame *f = &fl->frames[fl->nodes[n].frame];

		pos -= f->len;
		memcpy(l->text + pos, f->name, f->len);
		if (depth > 1)
			l->text[--pos] = ';';
	}
	*len = need;
	return 0;
}

static int write_line(FILE *fp, const char *path, size_t len, double after, double before,
		      bool diff)
{
	char a[64], b[64];

	size_t n;

	/* fwrite and the counts' own digits: fprintf's format parsing was most of a line's cost. */
	fwrite(path, 1, len, fp);
	a[0] = ' ';
	if (diff) {
		n = flame_fmt_num(b + 1, sizeof(b) - 1, before);
		b[0] = ' ';
		fwrite(b, 1, n + 1, fp);
	}
	n = flame_fmt_num(a + 1, sizeof(a) - 2, after);
	a[n + 1] = '\n';
	fwrite(a, 1, n + 2, fp);
	return 0;
}

/* Depth-first, children in the order they came: a flame chart's time order. */
static int write_in_order(const struct ember_flame *fl, FILE *fp)
{
	struct lines l = { 0 };
	uint32_t n = fl->nodes[0].first_child;
	int err = 0;

	while (n != FLAME_NONE && !err) {
		const struct flame_node *node = &fl->nodes[n];

		double self = fl->leaves[n].self;

		double before = flame_before_self(fl, n);

		if (self > 0 || before > 0) {
			size_t len;

			l.text_len = 0;
			err = append_path(&l, fl, n, &len);
			if (!err)
				write_line(fp, l.text, len, self, before, fl->is_diff);
		}
		/* Next in pre-order: first child, else next sibling up the tree. */
		if (node->first_child != FLAME_NONE) {
			n = node->first_child;
			continue;
		}
		while (n != 0 && fl->nodes[n].next_sibling == FLAME_NONE)
			n = fl->nodes[n].parent;
		n = n ? fl->nodes[n].next_sibling : FLAME_NONE;
	}
	free(l.text);
	return err;
}

int ember_flame__write_folded(const struct ember_flame *fl, FILE *fp, unsigned int flags)
{
	struct lines l = { 0 };
	int err = 0;

	if (!fl || !fp || flags)
		return -EINVAL;
	if (fl->flamechart) {
		err = write_in_order(fl, fp);
		goto out_check;
	}
	for (uint32_t n = 0; n < fl->nr_nodes; n++) {
		size_t len;

		if (!(fl->leaves[n].self > 0 || flame_before_self(fl, n) > 0))
			continue;
		if (l.nr == l.alloc) {
			size_t alloc = l.alloc ? l.alloc * 2 : 1024;
			struct line *grown = realloc(l.v, alloc * sizeof(*grown));

			if (!grown) {
				err = -ENOMEM;
				goto out;
			}
			l.v = grown;
			l.alloc = alloc;
		}
		err = append_path(&l, fl, n, &len);
		if (err)
			goto out;
		if (len > UINT32_MAX) {
			err = -E2BIG;
			goto out;
		}
		l.v[l.nr].off = l.text_len;
		l.v[l.nr].len = len;
		l.v[l.nr].after = fl->leaves[n].self;
		l.v[l.nr].before = flame_before_self(fl, n);
		l.nr++;
		l.text_len += len;
	}
	if (l.nr)
		qsort_r(l.v, l.nr, sizeof(*l.v), line_cmp, l.text);
	for (size_t i = 0; i < l.nr;) {
		struct line sum = l.v[i];
		size_t j = i + 1;

		while (j < l.nr && l.v[j].len == sum.len &&
		       !memcmp(l.text + l.v[j].off, l.text + sum.off, sum.len)) {
			sum.after += l.v[j].after;
			sum.before += l.v[j].before;
			j++;
		}
		write_line(fp, l.text + sum.off, sum.len, sum.after, sum.before, fl->is_diff);
		i = j;
	}
out_check:
	if (!err && (fflush(fp) || ferror(fp)))
		err = -EIO;
out:
	free(l.v);
	free(l.text);
	return err;
}
