/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The merged stack tree behind ember_flame, shared by the readers and writers. */
#ifndef EMBER_LIB_FLAME_PRIV_H
#define EMBER_LIB_FLAME_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ember/flame.h>
#include "core/arena.h"
#include "core/hashtab.h"

#define FLAME_NONE UINT32_MAX
/* Children found by walking their parent's list; a parent of more uses the table. */
#define FLAME_LIST_CHILDREN 4

/* An interned (name, kind); names live in arena chunks and never move. */
struct flame_frame {
	const char *name;
	uint32_t len;
	uint8_t kind;
};

/*
 * A node: one frame at one place in the tree. value counts the node and
 * everything above it (valid after flame_sum()); what ends here is the
 * node's struct flame_leaf and samples_self, and on the BEFORE side of a diff its
 * before_self (flame_before_self()). Where a node starts is the SVG
 * layout's, or in a flame chart chart_start's. 32 bytes.
 */
struct flame_node {
	uint32_t frame;
	uint32_t parent;
	uint32_t first_child;
	uint32_t last_child;
	uint32_t next_sibling;
	uint32_t depth;
	double value;
};

/*
 * What ends at a node (by node index, beside the nodes): each sample adds
 * here, so these stay in an array small enough for the cache where the
 * nodes of a big tree do not.
 */
struct flame_leaf {
	double self;
};

/*
 * A stack added before and the nodes along it: a stack sharing its first
 * frames reaches the same nodes without a probe (nodes never move).
 */
#define FLAME_PREFIXES 16
struct flame_prefix {
	uint32_t *frames;
	uint32_t *nodes;
	size_t len, alloc;
};

struct ember_flame {
	bool flamechart;
	bool reverse;
	bool is_diff;
	bool weighted;		/* some stack's value differs from its sample count */
	bool summed;		/* value, before and samples are up to date (flame_sum) */
	double total, total_before;
	uint64_t samples;

	struct flame_frame *frames;
	uint32_t nr_frames, alloc_frames;
	struct hashtab frame_index;	/* frame id + 1 by hash_bytes() of the name, and kind */
	struct arena names;

	struct flame_node *nodes;
	struct flame_leaf *leaves;	/* alloc_nodes of them too */
	/* What ends at each node on the BEFORE side: NULL until a diff's first stack. */
	double *before_self;
	/*
	 * The samples that end at each node, NULL while they are the value
	 * (every stack so far an integral value of as many samples), and
	 * their sums up the tree (flame_sum(), NULL with them).
	 */
	uint64_t *samples_self, *samples_sum;
	/* Flame chart: each node's left edge in counts, where the graph ended when it was made. */
	double *chart_start;
	/* Children of each node, up to FLAME_LIST_CHILDREN + 1 (alloc_nodes of them). */
	uint8_t *fanout;
	uint32_t nr_nodes, alloc_nodes;
	/*
	 * (parent, frame) -> child for the children of the nodes that have
	 * more than FLAME_LIST_CHILDREN (never 0: the root is no one's child), by
	 * hash_mix64() of the pair, in narrow slots (8 bytes: half the hash,
	 * the child): a probe whose half hash matches reads the child node to
	 * compare the pair, which is rare but for the child sought.
	 */
	struct hashtab children;

	/* Flame chart: the path of the previous stack, to merge with it only. */
	uint32_t *path;
	size_t path_len, path_alloc;
	/* Outside a flame chart: the last stack of each root (by frame id). */
	struct flame_prefix prefix[FLAME_PREFIXES];
	/* Scratch for reversing stacks. */
	uint32_t *scratch;
	size_t scratch_alloc;
};

/* What ends at node on the BEFORE side of a diff (0 outside a diff). */
static inline double flame_before_self(const struct ember_flame *fl, uint32_t node)
{
	return fl->before_self ? fl->before_self[node] : 0;
}

/* The samples at node and above it (after flame_sum()). */
static inline uint64_t flame_node_samples(const struct ember_flame *fl, uint32_t node)
{
	return fl->samples_sum ? fl->samples_sum[node] : (uint64_t)fl->nodes[node].value;
}

/* flame.c */
/*
 * ember_flame__add() that also gives back the stack's leaf node
 * (leaf_node may be NULL): outside a flame chart, a later
 * flame_add_leaf() on it counts the same stack again without its path.
 */
int flame_add_path(struct ember_flame *fl, const uint32_t *frames, size_t nr, double value,
		   uint64_t samples, enum ember_flame_side side, uint32_t *leaf_node);
int flame_add_leaf(struct ember_flame *fl, uint32_t node, double value, uint64_t samples,
		   enum ember_flame_side side);
/* Sums value and samples up the tree (adds count only leaves): 0 or -ENOMEM. */
int flame_sum(struct ember_flame *fl);

/* rawstack.c: raw sample words -> the leaf node they folded to. */
#define FLAME_RAW_KEY_MAX 24	/* longer keys are not kept */
struct flame_rawstacks;
struct flame_rawstacks *flame_rawstacks__new(void);
void flame_rawstacks__delete(struct flame_rawstacks *r);
/* The node stored under key[0..n) (hash: hash_words() of it, core/hash.h), or -1. */
int64_t flame_rawstacks__find(struct flame_rawstacks *r, const uint64_t *key, size_t n,
			      uint64_t hash);
void flame_rawstacks__add(struct flame_rawstacks *r, const uint64_t *key, size_t n,
			  uint64_t hash, uint32_t node);

/*
 * ipframes.c: callchain entries -> the frames they folded to, by (maps
 * generation, mode, ip); mode is the collapse's, never 0. The frames are
 * [first, first + nr) of the collapse's interned ids.
 */
struct flame_ipframes;
struct flame_ipframes *flame_ipframes__new(void);
void flame_ipframes__delete(struct flame_ipframes *t);
bool flame_ipframes__find(struct flame_ipframes *t, uint64_t gen, uint32_t mode, uint64_t ip,
			  uint32_t *first, uint32_t *nr);
void flame_ipframes__add(struct flame_ipframes *t, uint64_t gen, uint32_t mode, uint64_t ip,
			 uint32_t first, uint32_t nr);

/* Name of a frame without its "_[k]"-style suffix: returns the length to show. */
size_t flame_display_len(const char *name, size_t len);
/* The kind a "_[k]" "_[j]" "_[i]" "_[w]" suffix names, or EMBER_FLAME_USER. */
enum ember_flame_kind flame_suffix_kind(const char *name, size_t len);

/*
 * palette.c: the colour of a frame from three numbers in [0, 1]: what
 * flamegraph.pl's colour function takes (name hashes with --hash, random
 * numbers otherwise).
 */
void flame_palette_color_v(enum ember_flame_palette palette, const char *name,
			   enum ember_flame_kind kind, double v1, double v2, double v3, char *buf,
			   size_t size);

/* xml.c (escaping is lib/core/escape.h's) */
/* Bytes of s that hold at most `chars` UTF-8 characters; *nchars gets how many there are. */
size_t flame_utf8_prefix(const char *s, size_t len, size_t chars, size_t *nchars);

/* Numbers as the files print them: integers without a fraction, else %.15g. */
int flame_fmt_num(char *buf, size_t size, double v);
/* v as printf's "%.<prec>f" prints it (prec 0 to 3), without its cost in the common case. */
int flame_fmt_fixed(char *buf, size_t size, double v, int prec);
/* "rgb(R,G,B)" as snprintf's "rgb(%d,%d,%d)". */
int flame_fmt_rgb(char *buf, size_t size, int r, int g, int b);
/* An integral count with thousands separators ("1,234,567"), as flamegraph.pl. */
int flame_fmt_count(char *buf, size_t size, double v);

#endif
