// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/core's red-black tree: shapes after inserts and erases worked out
 * by hand from Linux's lib/rbtree.c cases (perf's symbol and callchain
 * trees have these shapes), the red-black invariants over random
 * histories, the walks both ways, and rb_order() with a comparison that
 * is not transitive.
 */
#include <stdlib.h>
#include <string.h>
#include "core/rbtree.h"
#include "test.h"

/* Nodes numbered by the test, each with a key; an equal key goes right, as perf's insert. */
struct knode {
	struct rb_node rb;
	unsigned long key;
};

struct ktree {
	struct rb_root root;
	struct knode n[2000];
};

static struct knode *kn(const struct rb_node *x)
{
	return rb_entry(x, struct knode, rb);
}

static void kinsert(struct ktree *t, unsigned int id, unsigned long key)
{
	struct rb_node *parent = NULL, **link = &t->root.node;

	while (*link) {
		parent = *link;
		link = &parent->child[key >= kn(parent)->key];
	}
	t->n[id].key = key;
	rb_insert(&t->root, &t->n[id].rb, parent, link);
}

static void kerase(struct ktree *t, unsigned int id)
{
	rb_erase(&t->root, &t->n[id].rb);
}

static struct ktree *ktree_new(void)
{
	return calloc(1, sizeof(struct ktree));
}

/* "key colour(left,right)", children left out when both are empty. */
static void shape_of(const struct rb_node *x, char *buf, size_t size)
{
	size_t len;

	if (!x || size < 2)
		return;
	len = strlen(buf);
	snprintf(buf + len, size - len, "%lu%c", kn(x)->key, rb_is_red(x) ? 'R' : 'B');
	if (!x->left && !x->right)
		return;
	strncat(buf, "(", size - strlen(buf) - 1);
	shape_of(x->left, buf, size);
	strncat(buf, ",", size - strlen(buf) - 1);
	shape_of(x->right, buf, size);
	strncat(buf, ")", size - strlen(buf) - 1);
}

static const char *shape(const struct ktree *t)
{
	static char buf[1024];

	buf[0] = '\0';
	shape_of(t->root.node, buf, sizeof(buf));
	return buf;
}

/* Node k holds key k. */
static void insert(struct ktree *t, unsigned int k)
{
	kinsert(t, k, k);
}

TEST(core_rbtree_insert_shapes)
{
	struct ktree *tr = ktree_new();

	insert(tr, 1);
	CHECK_STR(shape(tr), "1B");
	insert(tr, 2);
	insert(tr, 3); /* red-red on the right: rotate left at 1 */
	CHECK_STR(shape(tr), "2B(1R,3R)");
	insert(tr, 4); /* red uncle: colour flip, the root stays black */
	CHECK_STR(shape(tr), "2B(1B,3B(,4R))");
	insert(tr, 5);
	CHECK_STR(shape(tr), "2B(1B,4B(3R,5R))");
	insert(tr, 6);
	CHECK_STR(shape(tr), "2B(1B,4R(3B,5B(,6R)))");
	insert(tr, 7);
	CHECK_STR(shape(tr), "2B(1B,4R(3B,6B(5R,7R)))");
	insert(tr, 8); /* flip at 6, then 4 and 2 red-red: rotate left at the root */
	CHECK_STR(shape(tr), "4B(2R(1B,3B),6R(5B,7B(,8R)))");
	free(tr);

	/* An inner grandchild: rotate at the parent first, then at the grandparent. */
	tr = ktree_new();
	insert(tr, 10);
	insert(tr, 5);
	insert(tr, 7);
	CHECK_STR(shape(tr), "7B(5R,10R)");
	insert(tr, 12);
	insert(tr, 11);
	CHECK_STR(shape(tr), "7B(5B,11B(10R,12R))");
	free(tr);
}

TEST(core_rbtree_equal_keys_go_right)
{
	struct ktree *tr = ktree_new();

	/* Three nodes with one key: each new one after the others, as perf's insert. */
	kinsert(tr, 0, 100);
	kinsert(tr, 1, 100);
	CHECK(tr->root.node == &tr->n[0].rb);
	CHECK(tr->n[0].rb.right == &tr->n[1].rb);
	kinsert(tr, 2, 100);
	CHECK(tr->root.node == &tr->n[1].rb);
	CHECK(tr->n[1].rb.left == &tr->n[0].rb);
	CHECK(tr->n[1].rb.right == &tr->n[2].rb);
	free(tr);
}

TEST(core_rbtree_erase_shapes)
{
	struct ktree *tr = ktree_new();

	for (unsigned int k = 1; k <= 8; k++)
		insert(tr, k);
	kerase(tr, 8); /* red leaf */
	CHECK_STR(shape(tr), "4B(2R(1B,3B),6R(5B,7B))");
	kerase(tr, 1); /* black leaf, black sibling without children, red parent */
	CHECK_STR(shape(tr), "4B(2B(,3R),6R(5B,7B))");
	kerase(tr, 4); /* two children: the successor 5 moves up, 6 is fixed */
	CHECK_STR(shape(tr), "5B(2B(,3R),6B(,7R))");
	kerase(tr, 2); /* one red child takes the place and the colour */
	CHECK_STR(shape(tr), "5B(3B,6B(,7R))");
	kerase(tr, 3); /* black sibling, red far child: rotate at the parent */
	CHECK_STR(shape(tr), "6B(5B,7B)");
	kerase(tr, 6); /* successor is the right child; fix-up on the right */
	CHECK_STR(shape(tr), "7B(5R,)");
	kerase(tr, 7);
	CHECK_STR(shape(tr), "5B");
	kerase(tr, 5);
	CHECK(tr->root.node == NULL);
	free(tr);

	/* A red sibling is rotated up first. */
	tr = ktree_new();
	for (unsigned int k = 1; k <= 6; k++)
		insert(tr, k);
	CHECK_STR(shape(tr), "2B(1B,4R(3B,5B(,6R)))");
	kerase(tr, 1);
	CHECK_STR(shape(tr), "4B(2B(,3R),5B(,6R))");
	free(tr);

	/* A red near child: rotate at the sibling, then at the parent. */
	tr = ktree_new();
	insert(tr, 2);
	insert(tr, 1);
	insert(tr, 4);
	insert(tr, 3);
	CHECK_STR(shape(tr), "2B(1B,4B(3R,))");
	kerase(tr, 1);
	CHECK_STR(shape(tr), "3B(2B,4B)");
	free(tr);

	/* The mirror images, on the left. */
	tr = ktree_new();
	insert(tr, 3);
	insert(tr, 4);
	insert(tr, 1);
	insert(tr, 2);
	CHECK_STR(shape(tr), "3B(1B(,2R),4B)");
	kerase(tr, 4);
	CHECK_STR(shape(tr), "2B(1B,3B)");
	free(tr);
	tr = ktree_new();
	for (unsigned int k = 6; k >= 1; k--)
		insert(tr, k);
	CHECK_STR(shape(tr), "5B(3R(2B(1R,),4B),6B)");
	kerase(tr, 6);
	CHECK_STR(shape(tr), "3B(2B(1R,),5B(4R,))");
	free(tr);
}

/* Black height of x's subtree, -1 when a rule is broken below x. */
static int check_node(const struct rb_node *x, const struct rb_node *parent)
{
	int l, r;

	if (!x)
		return 1;
	if (rb_parent(x) != parent)
		return -1;
	if (rb_is_red(x) && ((x->left && rb_is_red(x->left)) || (x->right && rb_is_red(x->right))))
		return -1;
	if ((x->left && kn(x->left)->key > kn(x)->key) ||
	    (x->right && kn(x->right)->key < kn(x)->key))
		return -1;
	l = check_node(x->left, x);
	r = check_node(x->right, x);
	if (l < 0 || l != r)
		return -1;
	return l + !rb_is_red(x);
}

TEST(core_rbtree_random_histories)
{
	enum { N = 2000 };
	static bool in_tree[N];
	struct ktree *tr;
	unsigned int seed = 12345;
	int bad = 0;

	for (int round = 0; round < 20; round++) {
		size_t nr = 0, live = 0;
		const struct rb_node *x, *prev = NULL;

		memset(in_tree, 0, sizeof(in_tree));
		tr = ktree_new();
		for (unsigned int id = 0; id < N; id++) {
			/* Few distinct keys: many equal ones, as duplicate symbols are. */
			kinsert(tr, id, rand_r(&seed) % (round * 50 + 7));
			in_tree[id] = true;
			live++;
			while (rand_r(&seed) % 3 == 0) {
				unsigned int victim = rand_r(&seed) % (id + 1);

				if (!in_tree[victim])
					break;
				kerase(tr, victim);
				in_tree[victim] = false;
				live--;
			}
			if (id % 97 == 0)
				bad += check_node(tr->root.node, NULL) < 0 ||
				       (tr->root.node && rb_is_red(tr->root.node));
		}
		/* In order: keys rising, equal ones in the order they were inserted. */
		for (x = rb_first(&tr->root); x; prev = x, x = rb_next(x), nr++)
			bad += prev && (kn(prev)->key > kn(x)->key ||
					(kn(prev)->key == kn(x)->key && prev > x));
		bad += nr != live;
		/* And backwards, the same nodes. */
		nr = 0;
		for (x = rb_last(&tr->root); x; x = rb_prev(x))
			nr++;
		bad += nr != live;
		free(tr);
	}
	CHECK_EQ(bad, 0);
}

struct item {
	int v;
};

static bool left_of(const void *a, const void *b, const void *ctx)
{
	return ((const struct item *)a)->v < ((const struct item *)b)->v;
}

/* "Less" when a is below b by less than 10: not transitive, as perf's signed differences. */
static bool left_close(const void *a, const void *b, const void *ctx)
{
	int d = ((const struct item *)a)->v - ((const struct item *)b)->v;

	return d < 0 && d > -10;
}

TEST(core_rbtree_order)
{
	struct item it[] = { { 5 }, { 1 }, { 9 }, { 3 }, { 7 }, { 5 } };
	void *in[6], *out[6];

	for (int i = 0; i < 6; i++)
		in[i] = &it[i];
	CHECK_EQ(rb_order(in, 6, out, left_of, NULL), 0);
	/* sorted, the equal 5s in the order given (an equal one goes right) */
	CHECK(out[0] == &it[1] && out[1] == &it[3] && out[2] == &it[0] && out[3] == &it[5] &&
	      out[4] == &it[4] && out[5] == &it[2]);
	CHECK_EQ(rb_order(in, 0, out, left_of, NULL), 0);

	/*
	 * 20, then 15 (left: close below 20), then 2: at the root 20 it goes
	 * right (not close), past what a sort would give: the tree's shape
	 * decides, as in perf.
	 */
	struct item j[] = { { 20 }, { 15 }, { 2 } };
	void *jin[3] = { &j[0], &j[1], &j[2] }, *jout[3];

	CHECK_EQ(rb_order(jin, 3, jout, left_close, NULL), 0);
	CHECK(jout[0] == &j[1] && jout[1] == &j[0] && jout[2] == &j[2]);
}
