// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The callchain node store: nodes come from big blocks (no per-node
 * malloc, freed at once), and a child is found through one hash table
 * keyed by (parent, dso, symbol or ip), so appending a chain of n frames
 * costs n lookups whatever the fan-out. Each node's children also form
 * perf's tree, which gives their order and, where perf's comparison is
 * not transitive, what perf's lookup finds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/arena.h"
#include "core/hash.h"
#include "core/hashtab.h"
#include "hist/callchain.h"

#define BLOCK_NODES 4096

struct hist_chains {
	enum ember_callchain_key key;
	const char *(*srcline)(void *ctx, const struct ember_hist_frame *f);
	void *srcline_ctx;
	struct arena nodes;	/* chunks of BLOCK_NODES nodes */
	struct hashtab table;	/* struct chain_node * by node_hash() */
	struct chain_node *free_nodes; /* of trees freed, linked by parent */
};

/* The identity a frame is merged by: perf's match_chain(). */
static void frame_ident(const struct hist_chains *c, const struct ember_hist_frame *f,
			const void **sym, uint64_t *key)
{
	if (c->key == EMBER_CALLCHAIN_FUNCTION && f->sym) {
		*sym = f->sym;
		*key = f->sym_start;
	} else {
		*sym = NULL;
		*key = f->ip;
	}
}

static uint64_t node_hash(const void *parent, const void *dso, const void *sym, uint64_t key)
{
	return hash_mix64((uintptr_t)parent ^ hash_mix64((uintptr_t)dso + 0x9e3779b97f4a7c15ULL) ^
		   hash_mix64(key ^ (uintptr_t)sym));
}

struct hist_chains *hist_chains__new(enum ember_callchain_key key)
{
	struct hist_chains *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->key = key;
	c->nodes.chunk_size = BLOCK_NODES * sizeof(struct chain_node);
	if (hashtab__reserve(&c->table, 2048)) {
		free(c);
		return NULL;
	}
	return c;
}

void hist_chains__delete(struct hist_chains *c)
{
	if (!c)
		return;
	arena__exit(&c->nodes);
	hashtab__exit(&c->table);
	free(c);
}

static struct chain_node *node_alloc(struct hist_chains *c)
{
	struct chain_node *n = c->free_nodes;

	if (!n)
		return arena__zalloc(&c->nodes, sizeof(struct chain_node),
				     _Alignof(struct chain_node));
	c->free_nodes = n->parent;
	memset(n, 0, sizeof(*n));
	return n;
}

static bool same_node(const struct hashtab_slot *slot, const void *key)
{
	return slot->val == (uintptr_t)key;
}

void hist_chains__free_tree(struct hist_chains *c, struct chain_node *root)
{
	struct rb_node *rb = rb_first(&root->kids);

	while (rb) {
		struct chain_node *kid = (struct chain_node *)rb;

		rb = rb_next(rb);
		hist_chains__free_tree(c, kid);
	}
	/* the root is in no table; a child equal to an earlier one may not be either */
	if (root->parent) {
		struct hashtab_slot *s = hashtab__find(
		    &c->table, node_hash(root->parent, root->dso, root->sym, root->key),
		    same_node, root);

		if (s)
			hashtab__remove(&c->table, s);
	}
	root->parent = c->free_nodes;
	c->free_nodes = root;
}

void hist_chains__set_srcline(struct hist_chains *c,
			      const char *(*fn)(void *ctx, const struct ember_hist_frame *f),
			      void *ctx)
{
	c->srcline = fn;
	c->srcline_ctx = ctx;
}

struct chain_node *hist_chains__new_root(struct hist_chains *c)
{
	return node_alloc(c);
}

/* The kinds of children a node has: perf compares the two kinds differently. */
enum { KIDS_SYM = 1, KIDS_NOSYM = 2 };

/* A frame as perf's match_chain() sees it. */
struct frame_key {
	const void *dso, *sym;
	uint64_t key, ip;
	const char *name;	/* the symbol's name */
	bool inlined;		/* an inlined function's frame */
};

/*
 * perf's match_chain() of the node b already in the tree against the new
 * frame f: by dso, then by symbol start when both have a symbol, else by
 * raw address. Negative: b is less, and perf looks left of it.
 */
static int match_chain(const struct chain_node *b, const struct frame_key *f)
{
	uint64_t kb = b->pub.ip, kf = f->ip;

	/* inlined functions share their caller's start: perf compares names then */
	if (b->sym && f->sym && (b->inlined || f->inlined)) {
		int r = strcmp(b->pub.name, f->name);

		return r < 0 ? -1 : r > 0;
	}
	if (b->dso != f->dso)
		return (uintptr_t)b->dso < (uintptr_t)f->dso ? -1 : 1;
	if (b->sym && f->sym) {
		kb = b->key;
		kf = f->key;
	}
	if (kb != kf)
		return kb < kf ? -1 : 1;
	return 0;
}

/*
 * perf's lookup among parent's children: a walk down its tree. With
 * children of both kinds in one dso the comparison is not transitive,
 * and perf can miss a child that matches and add a second one; so does
 * this. On a miss, *at and *left say where the new child goes.
 */
static struct chain_node *walk_kids(struct chain_node *parent, const struct frame_key *f,
				    struct rb_node **at, struct rb_node ***link)
{
	*at = NULL;
	*link = &parent->kids.node;
	while (**link) {
		struct chain_node *b = rb_entry(**link, struct chain_node, rb);
		int m = match_chain(b, f);

		if (!m)
			return b;
		*at = **link;
		*link = &(*at)->child[m > 0];
	}
	return NULL;
}

struct node_probe {
	const struct chain_node *parent;
	const struct frame_key *f;
};

static inline bool node_eq(const struct hashtab_slot *slot, const void *key)
{
	const struct chain_node *n = (const struct chain_node *)(uintptr_t)slot->val;
	const struct node_probe *p = key;

	return n->parent == p->parent && n->dso == p->f->dso && n->sym == p->f->sym &&
	       n->key == p->f->key;
}

static struct chain_node *hash_lookup(const struct hist_chains *c, const struct chain_node *parent,
				      const struct frame_key *f)
{
	struct node_probe p = { parent, f };

	return (struct chain_node *)(uintptr_t)hashtab__get(
		&c->table, node_hash(parent, f->dso, f->sym, f->key), node_eq, &p);
}

/*
 * Adds n. perf's walk among children of both kinds can add a second
 * child equal to one it missed: the table keeps the first, and is not
 * asked about that parent's children again (its kinds stay mixed).
 * 0 or -ENOMEM.
 */
static int hash_insert(struct hist_chains *c, struct chain_node *n)
{
	uint64_t h = node_hash(n->parent, n->dso, n->sym, n->key);
	struct frame_key f = { .dso = n->dso, .sym = n->sym, .key = n->key };
	struct node_probe p = { n->parent, &f };
	struct hashtab_slot *s;

	if (hashtab__reserve(&c->table, 1))
		return -ENOMEM;
	s = hashtab__slot(&c->table, h, node_eq, &p);
	if (!s->val)
		hashtab__fill(&c->table, s, h, (uintptr_t)n);
	return 0;
}

static struct chain_node *findnew_child(struct hist_chains *c, struct chain_node *parent,
					const struct ember_hist_frame *fr)
{
	struct frame_key f = { .dso = fr->dso, .ip = fr->ip };
	bool mixed = parent->kid_kinds == (KIDS_SYM | KIDS_NOSYM);
	struct rb_node *at, **link;
	struct chain_node *n;

	frame_ident(c, fr, &f.sym, &f.key);
	f.name = fr->sym_name;
	f.inlined = f.sym && fr->inlined;
	/*
	 * The hash finds what perf's walk finds while the comparison is
	 * transitive: children of one kind only. Otherwise walk as perf.
	 */
	if (!mixed && (n = hash_lookup(c, parent, &f)))
		return n;
	n = walk_kids(parent, &f, &at, &link);
	if (n)
		return n;
	n = node_alloc(c);
	if (!n)
		return NULL;
	n->parent = parent;
	n->dso = f.dso;
	n->sym = f.sym;
	n->key = f.key;
	n->inlined = f.inlined;
	n->pub.inlined = fr->sym && fr->inlined;
	n->pub.name = f.sym ? fr->sym_name : NULL;
	if (c->key == EMBER_CALLCHAIN_ADDRESS) {
		if (!n->pub.name)
			n->pub.name = fr->sym_name;
		/*
		 * perf looks a line up for every entry with a map (NULL on
		 * ENOMEM: none); an inline level has its own
		 */
		if (fr->srcline)
			n->pub.srcline = fr->srcline;
		else if (c->srcline && fr->dso)
			n->pub.srcline = c->srcline(c->srcline_ctx, fr);
	}
	n->pub.ip = fr->ip;
	rb_insert(&parent->kids, &n->rb, at, link);
	parent->pub.nr_children++;
	parent->kid_kinds |= f.sym ? KIDS_SYM : KIDS_NOSYM;
	return hash_insert(c, n) ? NULL : n;
}

int hist_chains__append(struct hist_chains *c, struct chain_node *root,
			const struct ember_hist_frame *const *cursor, uint32_t n, uint64_t period,
			uint64_t count)
{
	struct chain_node *node = root;
	uint32_t i;

	/* perf: an empty chain leaves the tree alone */
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		struct chain_node *child = findnew_child(c, node, cursor[i]);

		if (!child)
			return -ENOMEM;
		node->pub.children_hit += period;
		node->pub.children_count += count;
		node = child;
	}
	node->pub.hit += period;
	node->pub.count += count;
	return 0;
}

const struct ember_callchain_node *
ember_callchain_node__parent(const struct ember_callchain_node *n)
{
	struct chain_node *p = chain_node__of(n)->parent;

	return p ? &p->pub : NULL;
}

static const struct ember_callchain_node *pub_of(const struct rb_node *rb)
{
	return rb ? &rb_entry(rb, const struct chain_node, rb)->pub : NULL;
}

const struct ember_callchain_node *
ember_callchain_node__first_child(const struct ember_callchain_node *n)
{
	return pub_of(rb_first(&chain_node__of(n)->kids));
}

const struct ember_callchain_node *ember_callchain_node__next(const struct ember_callchain_node *n)
{
	return pub_of(rb_next(&chain_node__of(n)->rb));
}
