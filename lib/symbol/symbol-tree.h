/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A red-black tree of symbol start addresses shaped exactly as perf's
 * symbol rb-tree is: the same descent on insert (a key equal to a node's
 * goes right) and the same recolouring and rotation choices as Linux's
 * lib/rbtree.c on insert and erase. perf's symbols__find() returns the
 * first symbol on the root-to-leaf path that holds an address, so where
 * symbols overlap its answer depends on this shape; ember rebuilds the
 * shape only for such tables, and only while loading them.
 *
 * Nodes are numbered by the caller (0..nr-1) and live in one array.
 */
#ifndef EMBER_LIB_SYMBOL_TREE_H
#define EMBER_LIB_SYMBOL_TREE_H

#include <stdbool.h>
#include <stdint.h>

#define SYM_RB_NIL UINT32_MAX

struct sym_rbnode {
	uint64_t key;
	union {
		struct {
			uint32_t left, right;
		};
		uint32_t child[2];	/* [0] left, [1] right: a branch-free descent */
	};
	uint32_t parent;
	bool black;
};

struct sym_rbtree {
	struct sym_rbnode *n;	/* indexed by node number */
	uint32_t root;		/* SYM_RB_NIL when empty */
};

/* Room for nodes 0..nr-1, none in the tree yet; 0 or -ENOMEM. */
int sym_rbtree__init(struct sym_rbtree *t, uint32_t nr);
void sym_rbtree__exit(struct sym_rbtree *t);
/* Links node id under key (after every node with an equal key) and rebalances. */
void sym_rbtree__insert(struct sym_rbtree *t, uint32_t id, uint64_t key);
/* Unlinks node id, which must be in the tree, and rebalances. */
void sym_rbtree__erase(struct sym_rbtree *t, uint32_t id);

#endif
