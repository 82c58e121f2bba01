// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The merged stack tree: frames interned by (name, kind), nodes found by
 * (parent, frame) in one hash table, so adding a stack costs one probe
 * per frame and no allocation once its path exists.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "flame-priv.h"

struct ember_flame *ember_flame__new(const struct ember_flame_opts *opts)
{
	struct ember_flame *fl;

	if (opts && opts->sz && opts->sz < offsetof(struct ember_flame_opts, reverse) + 1) {
		errno = EINVAL;
		return NULL;
	}
	fl = calloc(1, sizeof(*fl));
	if (!fl)
		return NULL;
	if (opts && opts->sz) {
		fl->flamechart = opts->flamechart;
		fl->reverse = opts->reverse;
	}
	fl->alloc_nodes = 1024;
	/* 8 bytes a child: a big tree's table is as big as its nodes otherwise. */
	fl->children.stride = sizeof(struct hashtab_slot32);
	fl->nodes = malloc(fl->alloc_nodes * sizeof(*fl->nodes));
	fl->leaves = malloc(fl->alloc_nodes * sizeof(*fl->leaves));
	fl->fanout = malloc(fl->alloc_nodes * sizeof(*fl->fanout));
	if (fl->flamechart)
		fl->chart_start = malloc(fl->alloc_nodes * sizeof(*fl->chart_start));
	if (!fl->fanout || (fl->flamechart && !fl->chart_start) || hashtab__reserve(&fl->frame_index, 512) || hashtab__reserve(&fl->children, 2048) ||
	    !fl->nodes || !fl->leaves) {
		ember_flame__delete(fl);
		errno = ENOMEM;
		return NULL;
	}
	/* The root: "all" in the SVG, never written in folded stacks. */
	memset(&fl->nodes[0], 0, sizeof(fl->nodes[0]));
	memset(&fl->leaves[0], 0, sizeof(fl->leaves[0]));
	fl->nodes[0].frame = FLAME_NONE;
	fl->nodes[0].parent = FLAME_NONE;
	fl->nodes[0].first_child = FLAME_NONE;
	fl->nodes[0].last_child = FLAME_NONE;
	fl->nodes[0].next_sibling = FLAME_NONE;
	fl->fanout[0] = 0;
	if (fl->chart_start)
		fl->chart_start[0] = 0;
	fl->nr_nodes = 1;
	return fl;
}

void ember_flame__delete(struct ember_flame *fl)
{
	if (!fl)
		return;
	arena__exit(&fl->names);
	free(fl->frames);
	hashtab__exit(&fl->frame_index);
	free(fl->nodes);
	free(fl->leaves);
	free(fl->before_self);
	free(fl->samples_self);
	free(fl->samples_sum);
	free(fl->chart_start);
	free(fl->fanout);
	hashtab__exit(&fl->children);
	free(fl->path);
	for (size_t i = 0; i < FLAME_PREFIXES; i++) {
		free(fl->prefix[i].frames);
		free(fl->prefix[i].nodes);
	}
	free(fl->scratch);
	free(fl);
}

struct frame_probe {
	const struct ember_flame *fl;
	const char *name;
	size_t len;
	enum ember_flame_kind kind;
};

static bool frame_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	const struct frame_probe *k = key;
	const struct flame_frame *f = &k->fl->frames[val - 1];

	return f->len == k->len && f->kind == k->kind && !memcmp(f->name, k->name, k->len);
}

int ember_flame__frame(struct ember_flame *fl, const char *name, size_t len,
		       enum ember_flame_kind kind)
{
	struct frame_probe k = { fl, name, len, kind };
	struct hashtab_slot *slot;
	struct flame_frame *f;
	uint64_t hash;
	char *copy;

	if (!fl || (!name && len) || (unsigned int)kind >= EMBER_FLAME_NR_KINDS || len > UINT32_MAX)
		return -EINVAL;
	hash = hash_mix64(hash_bytes(name, len) + kind);
	if (hashtab__reserve(&fl->frame_index, 1))
		return -ENOMEM;
	slot = hashtab__slot(&fl->frame_index, hash, frame_eq, &k);
	if (slot->val)
		return slot->val - 1;
	if (fl->nr_frames >= INT32_MAX)
		return -E2BIG;
	if (fl->nr_frames == fl->alloc_frames) {
		uint32_t alloc = fl->alloc_frames ? fl->alloc_frames * 2 : 256;
		struct flame_frame *grown = realloc(fl->frames, alloc * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		fl->frames = grown;
		fl->alloc_frames = alloc;
	}
	copy = arena__strndup(&fl->names, name, len);
	if (!copy)
		return -ENOMEM;
	f = &fl->frames[fl->nr_frames];
	f->name = copy;
	f->len = len;
	f->kind = kind;
	hashtab__fill(&fl->frame_index, slot, hash, ++fl->nr_frames);
	return fl->nr_frames - 1;
}

const char *ember_flame__frame_name(const struct ember_flame *fl, uint32_t id)
{
	return fl && id < fl->nr_frames ? fl->frames[id].name : NULL;
}

enum ember_flame_kind ember_flame__frame_kind(const struct ember_flame *fl, uint32_t id)
{
	return fl && id < fl->nr_frames ? fl->frames[id].kind : EMBER_FLAME_USER;
}

/* *p (an array) reallocated to n items of size bytes; -ENOMEM leaves it as it was. */
static int grow(void **p, size_t n, size_t size)
{
	void *grown = realloc(*p, n * size);

	if (!grown)
		return -ENOMEM;
	*p = grown;
	return 0;
}

/* A new child of parent for frame; FLAME_NONE when out of memory. */
static uint32_t node_new(struct ember_flame *fl, uint32_t parent, uint32_t frame)
{
	struct flame_node *n, *p;
	uint32_t idx;

	if (fl->nr_nodes == UINT32_MAX - 1)
		return FLAME_NONE;
	if (fl->nr_nodes == fl->alloc_nodes) {
		size_t alloc = (size_t)fl->alloc_nodes * 2;

		if (alloc > UINT32_MAX - 1)
			alloc = UINT32_MAX - 1;
		/* The arrays beside the nodes that exist grow with them. */
		if (grow((void **)&fl->nodes, alloc, sizeof(*fl->nodes)) ||
		    grow((void **)&fl->leaves, alloc, sizeof(*fl->leaves)) ||
		    grow((void **)&fl->fanout, alloc, sizeof(*fl->fanout)) ||
		    (fl->before_self && grow((void **)&fl->before_self, alloc, sizeof(double))) ||
		    (fl->samples_self && grow((void **)&fl->samples_self, alloc, sizeof(uint64_t))) ||
		    (fl->chart_start && grow((void **)&fl->chart_start, alloc, sizeof(double))))
			return FLAME_NONE;
		fl->alloc_nodes = alloc;
	}
	idx = fl->nr_nodes++;
	n = &fl->nodes[idx];
	memset(n, 0, sizeof(*n));
	memset(&fl->leaves[idx], 0, sizeof(fl->leaves[idx]));
	if (fl->before_self)
		fl->before_self[idx] = 0;
	if (fl->samples_self)
		fl->samples_self[idx] = 0;
	fl->fanout[idx] = 0;
	if (fl->fanout[parent] <= FLAME_LIST_CHILDREN)
		fl->fanout[parent]++;
	n->frame = frame;
	n->parent = parent;
	n->first_child = FLAME_NONE;
	n->last_child = FLAME_NONE;
	n->next_sibling = FLAME_NONE;
	p = &fl->nodes[parent];
	n->depth = p->depth + 1;
	/* In a flame chart a node starts where the graph ends now. */
	if (fl->chart_start)
		fl->chart_start[idx] = fl->total;
	if (p->last_child == FLAME_NONE)
		p->first_child = idx;
	else
		fl->nodes[p->last_child].next_sibling = idx;
	p->last_child = idx;
	return idx;
}

struct child_key {
	const struct ember_flame *fl;
	uint32_t parent, frame;
};

/* The slot keeps half the hash: the node says whose child it is. */
static bool child_eq(const struct hashtab_slot32 *slot, const void *key)
{
	const struct child_key *k = key;
	const struct flame_node *n = &k->fl->nodes[slot->val];

	return n->parent == k->parent && n->frame == k->frame;
}

/* Puts child in the table; the caller has reserved its slot. */
static void child_index(struct ember_flame *fl, uint32_t child)
{
	const struct flame_node *n = &fl->nodes[child];
	uint64_t hash = hash_mix64((uint64_t)n->parent << 32 | n->frame);
	struct child_key key = { fl, n->parent, n->frame };

	hashtab32__fill(&fl->children, hashtab32__slot(&fl->children, hash, child_eq, &key), hash,
			child);
}

/*
 * The child of parent for frame, made when missing; FLAME_NONE: no memory.
 * Runs of one stack skip this (flame_add_path()'s prefixes): what comes
 * here is mostly new. A parent of a few children walks its list (most
 * nodes of a big tree have one child or none, and a table slot for each
 * would cost as much as the node); the children of the others are in the
 * table, all of them from the one that makes the list too long.
 */
static uint32_t child_findnew(struct ember_flame *fl, uint32_t parent, uint32_t frame)
{
	uint64_t hash = hash_mix64((uint64_t)parent << 32 | frame);
	struct child_key key = { fl, parent, frame };
	struct hashtab_slot32 *slot;
	uint32_t idx;

	if (fl->fanout[parent] <= FLAME_LIST_CHILDREN) {
		for (idx = fl->nodes[parent].first_child; idx != FLAME_NONE;
		     idx = fl->nodes[idx].next_sibling)
			if (fl->nodes[idx].frame == frame)
				return idx;
		if (hashtab__reserve(&fl->children, FLAME_LIST_CHILDREN + 1))
			return FLAME_NONE;
		idx = node_new(fl, parent, frame);
		if (idx == FLAME_NONE || fl->fanout[parent] <= FLAME_LIST_CHILDREN)
			return idx;
		for (uint32_t c = fl->nodes[parent].first_child; c != FLAME_NONE;
		     c = fl->nodes[c].next_sibling)
			child_index(fl, c);
		return idx;
	}
	if (hashtab__reserve(&fl->children, 1))
		return FLAME_NONE;
	slot = hashtab32__slot(&fl->children, hash, child_eq, &key);
	if (slot->val)
		return slot->val;
	idx = node_new(fl, parent, frame);
	if (idx == FLAME_NONE)
		return FLAME_NONE;
	hashtab32__fill(&fl->children, slot, hash, idx);
	return idx;
}

static int path_reserve(uint32_t **v, size_t *alloc, size_t n)
{
	if (n <= *alloc)
		return 0;
	size_t nalloc = *alloc ? *alloc : 64;

	while (nalloc < n)
		nalloc *= 2;
	uint32_t *grown = realloc(*v, nalloc * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	*v = grown;
	*alloc = nalloc;
	return 0;
}

/* Counts value and samples at the leaf node (flame_add_path()'s end). */
int flame_add_leaf(struct ember_flame *fl, uint32_t node, double value, uint64_t samples,
		   enum ember_flame_side side)
{
	struct flame_leaf *leaf;

	if (node >= fl->nr_nodes || !isfinite(value) || value < 0)
		return -EINVAL;
	if ((side == EMBER_FLAME_BEFORE ? fl->total_before : fl->total) + value > EMBER_FLAME_MAX_COUNT)
		return -ERANGE;
	/*
	 * Only the leaf counts now; the sums up the tree are made once, when
	 * something reads them (flame_sum()): a sample costs no walk to the root.
	 */
	if (side == EMBER_FLAME_BEFORE && !fl->before_self) {
		fl->before_self = calloc(fl->alloc_nodes, sizeof(*fl->before_self));
		if (!fl->before_self)
			return -ENOMEM;
	}
	/*
	 * While every stack counts an integral value of as many samples, the
	 * samples are the value: samples_self is kept from the first that
	 * does not, with what came before as its value.
	 */
	if (side == EMBER_FLAME_AFTER && !fl->samples_self &&
	    ((double)samples != value || floor(value) != value)) {
		fl->samples_self = malloc(fl->alloc_nodes * sizeof(*fl->samples_self));
		if (!fl->samples_self)
			return -ENOMEM;
		for (uint32_t i = 0; i < fl->nr_nodes; i++)
			fl->samples_self[i] = (uint64_t)fl->leaves[i].self;
	}
	leaf = &fl->leaves[node];
	if (side == EMBER_FLAME_BEFORE) {
		fl->is_diff = true;
		fl->before_self[node] += value;
		fl->total_before += value;
	} else {
		/* Once weighted, always: no floor() a sample after that. */
		if (!fl->weighted && (double)samples != floor(value))
			fl->weighted = true;
		leaf->self += value;
		if (fl->samples_self)
			fl->samples_self[node] += samples;
		fl->total += value;
		fl->samples += samples;
	}
	fl->summed = false;
	return 0;
}

int ember_flame__add(struct ember_flame *fl, const uint32_t *frames, size_t nr, double value,
		     uint64_t samples, enum ember_flame_side side)
{
	return flame_add_path(fl, frames, nr, value, samples, side, NULL);
}

int flame_add_path(struct ember_flame *fl, const uint32_t *frames, size_t nr, double value,
		   uint64_t samples, enum ember_flame_side side, uint32_t *leaf_node)
{
	struct flame_prefix *pre = NULL;
	uint32_t node = 0;
	size_t i, start = 0;
	bool merging = true;

	if (!fl || (nr && !frames) || !isfinite(value) || value < 0 ||
	    (side != EMBER_FLAME_AFTER && side != EMBER_FLAME_BEFORE))
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (frames[i] >= fl->nr_frames)
			return -EINVAL;
	if ((side == EMBER_FLAME_BEFORE ? fl->total_before : fl->total) + value > EMBER_FLAME_MAX_COUNT)
		return -ERANGE;
	if (nr > UINT32_MAX - 2)
		return -E2BIG;
	if (fl->reverse && nr) {
		if (path_reserve(&fl->scratch, &fl->scratch_alloc, nr))
			return -ENOMEM;
		for (i = 0; i < nr; i++)
			fl->scratch[i] = frames[nr - 1 - i];
		frames = fl->scratch;
	}
	if (fl->flamechart && path_reserve(&fl->path, &fl->path_alloc, nr))
		return -ENOMEM;
	if (!fl->flamechart && nr) {
		/*
		 * The nodes of the frames this stack shares with the last one
		 * of its root are known: the probes (each a cache miss in a
		 * big tree) start after them.
		 */
		pre = &fl->prefix[frames[0] % FLAME_PREFIXES];
		if (pre->alloc < nr) {
			size_t alloc = pre->alloc;

			if (path_reserve(&pre->frames, &alloc, nr))
				return -ENOMEM;
			alloc = pre->alloc;
			if (path_reserve(&pre->nodes, &alloc, nr))
				return -ENOMEM;
			pre->alloc = alloc;
		}
		for (i = 0; i < nr && i < pre->len && pre->frames[i] == frames[i]; i++)
			node = pre->nodes[i];
		start = i;
		/* What follows is rewritten below: never trust it half done. */
		pre->len = start;
	}

	for (i = start; i < nr; i++) {
		uint32_t child;

		if (fl->flamechart) {
			/* Merge only along the previous stack's path, as flamegraph.pl's flow(). */
			if (merging && i < fl->path_len && fl->nodes[fl->path[i]].frame == frames[i]) {
				child = fl->path[i];
			} else {
				merging = false;
				child = node_new(fl, node, frames[i]);
			}
		} else {
			child = child_findnew(fl, node, frames[i]);
		}
		if (child == FLAME_NONE)
			return -ENOMEM;
		if (fl->flamechart) {
			fl->path[i] = child;
		} else {
			pre->frames[i] = frames[i];
			pre->nodes[i] = child;
		}
		node = child;
	}
	if (pre)
		pre->len = nr;
	/* A shorter stack ends the previous path's deeper nodes. */
	if (fl->flamechart)
		fl->path_len = nr;
	if (leaf_node)
		*leaf_node = node;
	return flame_add_leaf(fl, node, value, samples, side);
}

int flame_sum(struct ember_flame *fl)
{
	if (fl->summed)
		return 0;
	if (fl->samples_self) {
		uint64_t *sum = realloc(fl->samples_sum, fl->nr_nodes * sizeof(*sum));

		if (!sum)
			return -ENOMEM;
		fl->samples_sum = sum;
		memcpy(sum, fl->samples_self, fl->nr_nodes * sizeof(*sum));
	}
	for (uint32_t i = 0; i < fl->nr_nodes; i++)
		fl->nodes[i].value = fl->leaves[i].self;
	/* Children always come after their parent: sum from the end. */
	for (uint32_t i = fl->nr_nodes; i-- > 1;) {
		struct flame_node *n = &fl->nodes[i];

		fl->nodes[n->parent].value += n->value;
		if (fl->samples_sum)
			fl->samples_sum[n->parent] += fl->samples_sum[i];
	}
	fl->summed = true;
	return 0;
}

double ember_flame__total(const struct ember_flame *fl)
{
	return fl ? fl->total : 0;
}

uint64_t ember_flame__samples(const struct ember_flame *fl)
{
	return fl ? fl->samples : 0;
}

double ember_flame__total_before(const struct ember_flame *fl)
{
	return fl ? fl->total_before : 0;
}

size_t ember_flame__nr_nodes(const struct ember_flame *fl)
{
	return fl ? fl->nr_nodes : 0;
}

bool ember_flame__is_diff(const struct ember_flame *fl)
{
	return fl && fl->is_diff;
}

int ember_flame__normalize(struct ember_flame *fl)
{
	double after, before;

	if (!fl)
		return -EINVAL;
	after = fl->total;
	before = fl->total_before;
	if (before <= 0 || !fl->before_self)
		return -EINVAL;
	/* Each stack scaled and rounded down, as difffolded.pl -n. */
	fl->total_before = 0;
	for (uint32_t i = 0; i < fl->nr_nodes; i++) {
		fl->before_self[i] = floor(fl->before_self[i] * after / before);
		fl->total_before += fl->before_self[i];
	}
	fl->summed = false;
	return 0;
}

enum ember_flame_kind flame_suffix_kind(const char *name, size_t len)
{
	if (len < 4 || name[len - 4] != '_' || name[len - 3] != '[' || name[len - 1] != ']')
		return EMBER_FLAME_USER;
	switch (name[len - 2]) {
	case 'k':
		return EMBER_FLAME_KERNEL;
	case 'j':
		return EMBER_FLAME_JIT;
	case 'i':
		return EMBER_FLAME_INLINE;
	case 'w':
		return EMBER_FLAME_WAKER;
	default:
		return EMBER_FLAME_USER;
	}
}

size_t flame_display_len(const char *name, size_t len)
{
	return flame_suffix_kind(name, len) != EMBER_FLAME_USER ? len - 4 : len;
}
