// SPDX-License-Identifier: GPL-2.0-only
/*
 * The copy of perf's symbol rb-tree: shapes after inserts and erases
 * worked out by hand from Linux's lib/rbtree.c cases, the red-black
 * invariants over random histories, and what symtab__index() makes of
 * overlapping symbols (perf's first-on-the-path answer).
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/symbol-tree.h"
#include "symbol/symbol.h"
#include "test.h"

/* "key colour(left,right)", children left out when both are empty. */
static void shape_of(const struct sym_rbtree *t, uint32_t x, char *buf, size_t size)
{
	const struct sym_rbnode *n;
	size_t len;

	if (x == SYM_RB_NIL || size < 2)
		return;
	n = &t->n[x];
	len = strlen(buf);
	snprintf(buf + len, size - len, "%llu%c", (unsigned long long)n->key, n->black ? 'B' : 'R');
	if (n->left == SYM_RB_NIL && n->right == SYM_RB_NIL)
		return;
	strncat(buf, "(", size - strlen(buf) - 1);
	shape_of(t, n->left, buf, size);
	strncat(buf, ",", size - strlen(buf) - 1);
	shape_of(t, n->right, buf, size);
	strncat(buf, ")", size - strlen(buf) - 1);
}

static const char *shape(const struct sym_rbtree *t)
{
	static char buf[1024];

	buf[0] = '\0';
	shape_of(t, t->root, buf, sizeof(buf));
	return buf;
}

/* Node ids are keys here: node k holds key k. */
static void insert(struct sym_rbtree *t, uint32_t k)
{
	sym_rbtree__insert(t, k, k);
}

TEST(symbol_tree_insert_shapes)
{
	struct sym_rbtree tr;

	CHECK_EQ(sym_rbtree__init(&tr, 16), 0);
	insert(&tr, 1);
	CHECK_STR(shape(&tr), "1B");
	insert(&tr, 2);
	insert(&tr, 3); /* red-red on the right: rotate left at 1 */
	CHECK_STR(shape(&tr), "2B(1R,3R)");
	insert(&tr, 4); /* red uncle: colour flip, the root stays black */
	CHECK_STR(shape(&tr), "2B(1B,3B(,4R))");
	insert(&tr, 5);
	CHECK_STR(shape(&tr), "2B(1B,4B(3R,5R))");
	insert(&tr, 6);
	CHECK_STR(shape(&tr), "2B(1B,4R(3B,5B(,6R)))");
	insert(&tr, 7);
	CHECK_STR(shape(&tr), "2B(1B,4R(3B,6B(5R,7R)))");
	insert(&tr, 8); /* flip at 6, then 4 and 2 red-red: rotate left at the root */
	CHECK_STR(shape(&tr), "4B(2R(1B,3B),6R(5B,7B(,8R)))");
	sym_rbtree__exit(&tr);

	/* An inner grandchild: rotate at the parent first, then at the grandparent. */
	CHECK_EQ(sym_rbtree__init(&tr, 16), 0);
	insert(&tr, 10);
	insert(&tr, 5);
	insert(&tr, 7);
	CHECK_STR(shape(&tr), "7B(5R,10R)");
	insert(&tr, 12);
	insert(&tr, 11);
	CHECK_STR(shape(&tr), "7B(5B,11B(10R,12R))");
	sym_rbtree__exit(&tr);
}

TEST(symbol_tree_equal_keys_go_right)
{
	struct sym_rbtree tr;

	/* Three nodes with one key: each new one after the others, as perf's insert. */
	CHECK_EQ(sym_rbtree__init(&tr, 4), 0);
	sym_rbtree__insert(&tr, 0, 100);
	sym_rbtree__insert(&tr, 1, 100);
	CHECK_EQ(tr.root, 0);
	CHECK_EQ(tr.n[0].right, 1);
	sym_rbtree__insert(&tr, 2, 100);
	CHECK_EQ(tr.root, 1);
	CHECK_EQ(tr.n[1].left, 0);
	CHECK_EQ(tr.n[1].right, 2);
	sym_rbtree__exit(&tr);
}

TEST(symbol_tree_erase_shapes)
{
	struct sym_rbtree tr;

	CHECK_EQ(sym_rbtree__init(&tr, 16), 0);
	for (uint32_t k = 1; k <= 8; k++)
		insert(&tr, k);
	sym_rbtree__erase(&tr, 8); /* red leaf */
	CHECK_STR(shape(&tr), "4B(2R(1B,3B),6R(5B,7B))");
	sym_rbtree__erase(&tr, 1); /* black leaf, black sibling without children, red parent */
	CHECK_STR(shape(&tr), "4B(2B(,3R),6R(5B,7B))");
	sym_rbtree__erase(&tr, 4); /* two children: the successor 5 moves up, 6 is fixed */
	CHECK_STR(shape(&tr), "5B(2B(,3R),6B(,7R))");
	sym_rbtree__erase(&tr, 2); /* one red child takes the place and the colour */
	CHECK_STR(shape(&tr), "5B(3B,6B(,7R))");
	sym_rbtree__erase(&tr, 3); /* black sibling, red far child: rotate at the parent */
	CHECK_STR(shape(&tr), "6B(5B,7B)");
	sym_rbtree__erase(&tr, 6); /* successor is the right child; fix-up on the right */
	CHECK_STR(shape(&tr), "7B(5R,)");
	sym_rbtree__erase(&tr, 7);
	CHECK_STR(shape(&tr), "5B");
	sym_rbtree__erase(&tr, 5);
	CHECK_EQ(tr.root, SYM_RB_NIL);
	sym_rbtree__exit(&tr);

	/* A red sibling is rotated up first. */
	CHECK_EQ(sym_rbtree__init(&tr, 16), 0);
	for (uint32_t k = 1; k <= 6; k++)
		insert(&tr, k);
	CHECK_STR(shape(&tr), "2B(1B,4R(3B,5B(,6R)))");
	sym_rbtree__erase(&tr, 1);
	CHECK_STR(shape(&tr), "4B(2B(,3R),5B(,6R))");
	sym_rbtree__exit(&tr);

	/* A red near child: rotate at the sibling, then at the parent. */
	CHECK_EQ(sym_rbtree__init(&tr, 16), 0);
	insert(&tr, 2);
	insert(&tr, 1);
	insert(&tr, 4);
	insert(&tr, 3);
	CHECK_STR(shape(&tr), "2B(1B,4B(3R,))");
	sym_rbtree__erase(&tr, 1);
	CHECK_STR(shape(&tr), "3B(2B,4B)");
	sym_rbtree__exit(&tr);

	/* The mirror images, on the left. */
	CHECK_EQ(sym_rbtree__init(&tr, 16), 0);
	insert(&tr, 3);
	insert(&tr, 4);
	insert(&tr, 1);
	insert(&tr, 2);
	CHECK_STR(shape(&tr), "3B(1B(,2R),4B)");
	sym_rbtree__erase(&tr, 4);
	CHECK_STR(shape(&tr), "2B(1B,3B)");
	sym_rbtree__exit(&tr);
	CHECK_EQ(sym_rbtree__init(&tr, 16), 0);
	for (uint32_t k = 6; k >= 1; k--)
		insert(&tr, k);
	CHECK_STR(shape(&tr), "5B(3R(2B(1R,),4B),6B)");
	sym_rbtree__erase(&tr, 6);
	CHECK_STR(shape(&tr), "3B(2B(1R,),5B(4R,))");
	sym_rbtree__exit(&tr);
}

/* Black height of x's subtree, -1 when a rule is broken below x. */
static int check_node(const struct sym_rbtree *t, uint32_t x, uint32_t parent)
{
	const struct sym_rbnode *n;
	int l, r;

	if (x == SYM_RB_NIL)
		return 1;
	n = &t->n[x];
	if (n->parent != parent)
		return -1;
	if (!n->black && ((n->left != SYM_RB_NIL && !t->n[n->left].black) ||
			  (n->right != SYM_RB_NIL && !t->n[n->right].black)))
		return -1;
	if ((n->left != SYM_RB_NIL && t->n[n->left].key > n->key) ||
	    (n->right != SYM_RB_NIL && t->n[n->right].key < n->key))
		return -1;
	l = check_node(t, n->left, x);
	r = check_node(t, n->right, x);
	if (l < 0 || l != r)
		return -1;
	return l + n->black;
}

/* In-order ids: with equal keys, in the order they were inserted. */
static void in_order(const struct sym_rbtree *t, uint32_t x, uint32_t *out, size_t *nr)
{
	if (x == SYM_RB_NIL)
		return;
	in_order(t, t->n[x].left, out, nr);
	out[(*nr)++] = x;
	in_order(t, t->n[x].right, out, nr);
}

TEST(symbol_tree_random_histories)
{
	enum { N = 2000 };
	static bool in_tree[N];
	static uint32_t order[N];
	struct sym_rbtree tr;
	unsigned int seed = 12345;
	int bad = 0;

	for (int round = 0; round < 20; round++) {
		size_t nr = 0, live = 0;

		memset(in_tree, 0, sizeof(in_tree));
		CHECK_EQ(sym_rbtree__init(&tr, N), 0);
		for (uint32_t id = 0; id < N; id++) {
			/* Few distinct keys: many equal ones, as duplicate symbols are. */
			sym_rbtree__insert(&tr, id, rand_r(&seed) % (round * 50 + 7));
			in_tree[id] = true;
			live++;
			while (rand_r(&seed) % 3 == 0) {
				uint32_t victim = rand_r(&seed) % (id + 1);

				if (!in_tree[victim])
					break;
				sym_rbtree__erase(&tr, victim);
				in_tree[victim] = false;
				live--;
			}
			if (id % 97 == 0)
				bad += check_node(&tr, tr.root, SYM_RB_NIL) < 0 ||
				       (tr.root != SYM_RB_NIL && !tr.n[tr.root].black);
		}
		in_order(&tr, tr.root, order, &nr);
		bad += nr != live;
		for (size_t i = 1; i < nr; i++)
			bad += tr.n[order[i - 1]].key > tr.n[order[i]].key ||
			       (tr.n[order[i - 1]].key == tr.n[order[i]].key && order[i - 1] > order[i]);
		sym_rbtree__exit(&tr);
	}
	CHECK_EQ(bad, 0);
}

static void add(struct symtab *t, uint64_t start, uint64_t len, const char *name)
{
	symtab__add(t, start, len, STB_GLOBAL, STT_FUNC, name, strlen(name));
}

static const char *find(struct symtab *t, uint64_t addr)
{
	const struct ember_symbol *s = symtab__find(t, addr);

	return s ? s->name : "(none)";
}

TEST(symbol_tree_index_nested)
{
	struct symtab tab = { 0 };

	/* outer first: the root, and it holds every address of inner too. */
	add(&tab, 0x1000, 0x100, "outer");
	add(&tab, 0x1010, 0x10, "inner");
	symtab__sort(&tab);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK_STR(find(&tab, 0x1015), "outer");
	CHECK_STR(find(&tab, 0x1050), "outer");
	CHECK_STR(find(&tab, 0x1100), "(none)");
	/* Kept: from inner on, where the plain lookup says inner, then nothing. */
	CHECK_EQ(tab.nr_spans, 1);
	if (tab.nr_spans == 1) {
		CHECK_EQ(tab.spans[0].start, 0x1010);
		CHECK_EQ(tab.spans[0].end, 0x1100);
	}
	symtab__exit(&tab);

	/* inner first: perf finds inner inside it, and past it turns right, missing outer. */
	add(&tab, 0x1010, 0x10, "inner");
	add(&tab, 0x1000, 0x100, "outer");
	symtab__sort(&tab);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK_STR(find(&tab, 0x1005), "outer");
	CHECK_STR(find(&tab, 0x1010), "inner");
	CHECK_STR(find(&tab, 0x101f), "inner");
	CHECK_STR(find(&tab, 0x1020), "(none)");
	CHECK_STR(find(&tab, 0x10ff), "(none)");
	/* Which is what the plain lookup says too: nothing to keep. */
	CHECK_EQ(tab.nr_spans, 0);
	symtab__exit(&tab);
}

TEST(symbol_tree_index_init_over_plt)
{
	struct symtab tab = { 0 };

	/*
	 * A zero-size _init stretched over the PLT (to _start), then PLT
	 * entries inserted after the fix-ups, as perf does. An object before
	 * _init makes _init the root: tag(B) _init(R) → _start rotates left:
	 * _init(B) over tag(R) and _start(R). a@plt: colour flip under
	 * _start; b@plt: rotations under _init's right. _init, at the root,
	 * is found first for every PLT address (perf's "_init+0x30").
	 */
	symtab__add(&tab, 0x37c, 0x20, STB_LOCAL, STT_OBJECT, "tag", 3);
	add(&tab, 0x1000, 0, "_init");
	add(&tab, 0x1070, 0x22, "_start");
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	symtab__fixup_duplicate(&tab);
	CHECK_EQ(tab.syms[1].end, 0x1070);
	add(&tab, 0x1030, 0x10, "a@plt");
	add(&tab, 0x1040, 0x10, "b@plt");
	symtab__sort(&tab);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK_STR(find(&tab, 0x1000), "_init");
	CHECK_STR(find(&tab, 0x1030), "_init");
	CHECK_STR(find(&tab, 0x1045), "_init");
	CHECK_STR(find(&tab, 0x106f), "_init");
	CHECK_STR(find(&tab, 0x1070), "_start");
	CHECK_STR(find(&tab, 0x37c), "tag");
	symtab__exit(&tab);

	/*
	 * _init first: _init(B) _start(R) main → rotate: _start(B) over
	 * _init(R) and main(R). a@plt under _init: colour flip; b@plt:
	 * rotate left at _init: a@plt(B) over _init(R) and b@plt(R); c@plt:
	 * colour flip at a@plt; d@plt: rotate left at b@plt: c@plt(B) over
	 * b@plt(R) and d@plt(R). The PLT entries sit above _init: each is
	 * found by its own name, _init only before the first, and .plt.got
	 * (held by _init alone, off the walk's path) by nothing.
	 */
	add(&tab, 0x1000, 0, "_init");
	add(&tab, 0x1070, 0x22, "_start");
	add(&tab, 0x1159, 0xbc, "main");
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	symtab__fixup_duplicate(&tab);
	add(&tab, 0x1020, 0x10, "a@plt");
	add(&tab, 0x1030, 0x10, "b@plt");
	add(&tab, 0x1040, 0x10, "c@plt");
	add(&tab, 0x1050, 0x10, "d@plt");
	symtab__sort(&tab);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK_STR(find(&tab, 0x1010), "_init");
	CHECK_STR(find(&tab, 0x1025), "a@plt");
	CHECK_STR(find(&tab, 0x1035), "b@plt");
	CHECK_STR(find(&tab, 0x1048), "c@plt");
	CHECK_STR(find(&tab, 0x1058), "d@plt");
	CHECK_STR(find(&tab, 0x1060), "(none)");
	CHECK_STR(find(&tab, 0x106f), "(none)");
	CHECK_STR(find(&tab, 0x1070), "_start");
	CHECK_STR(find(&tab, 0x1160), "main");
	symtab__exit(&tab);
}

TEST(symbol_tree_index_erased_duplicates)
{
	struct symtab tab = { 0 };

	/* Duplicates erased by the fix-up still shaped the tree before they went. */
	add(&tab, 0x100, 0x100, "big");
	add(&tab, 0x180, 0x10, "dup_a");
	add(&tab, 0x180, 0x10, "dup_bb");
	add(&tab, 0x300, 0x10, "far");
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	symtab__fixup_duplicate(&tab);
	CHECK_EQ(tab.nr, 3);
	CHECK_EQ(tab.nr_erased, 1);
	CHECK_EQ(symtab__index(&tab), 0);
	/*
	 * big(B) dup_a(R) → dup_bb: rotate left at big: dup_a(B) over big(R)
	 * and dup_bb(R); far under dup_bb: colour flip. Erasing dup_a (the
	 * root, loser to the longer name) moves its successor dup_bb up, so
	 * the walk past dup_bb turns right and misses big.
	 */
	CHECK_STR(find(&tab, 0x185), "dup_bb");
	CHECK_STR(find(&tab, 0x1a0), "(none)");
	CHECK_STR(find(&tab, 0x105), "big");
	symtab__exit(&tab);
}

TEST(symbol_tree_index_no_overlap_no_spans)
{
	struct symtab tab = { 0 };

	add(&tab, 0x100, 0x10, "a");
	add(&tab, 0x110, 0x10, "b");
	add(&tab, 0x200, 0, "c");
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK_EQ(tab.nr_spans, 0);
	CHECK(tab.spans == NULL);
	CHECK(tab.erased == NULL);
	CHECK_STR(find(&tab, 0x10f), "a");
	CHECK_STR(find(&tab, 0x110), "b");
	CHECK_STR(find(&tab, 0x120), "(none)");
	symtab__exit(&tab);
}
