// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Samples for the FlameScope view: each sample's time and stack, the
 * stacks kept as a trie of interned frame names so that a million samples
 * of a few thousand distinct stacks stay small, in memory and in the page.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ember/heatmap.h>
#include "core/hash.h"
#include "heatmap/density.h"

#define ID_MAX INT32_MAX

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return hash_mix64(h);
}

/*
 * Make room for one more entry in two arrays that grow together (sizes
 * a_size and b_size; b may be NULL): 0 or -ENOMEM, both unchanged then.
 */
static int grow2(void **a, size_t a_size, void **b, size_t b_size, size_t *alloc, size_t nr)
{
	size_t n;
	void *p;

	if (nr < *alloc)
		return 0;
	n = *alloc ? 2 * *alloc : 256;
	if (n > SIZE_MAX / a_size || (b && n > SIZE_MAX / b_size))
		return -ENOMEM;
	p = realloc(*a, n * a_size);
	if (!p)
		return -ENOMEM;
	*a = p;
	if (b) {
		p = realloc(*b, n * b_size);
		if (!p)
			return -ENOMEM;	/* a is larger than needed: harmless */
		*b = p;
	}
	*alloc = n;
	return 0;
}

static int intern_grow(struct intern *ix, void *ctx, uint64_t (*hash_of)(void *ctx, uint32_t id))
{
	size_t cap = ix->cap ? 2 * ix->cap : 1024;
	uint32_t *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < ix->cap; i++) {
		size_t j;

		if (!ix->slots[i])
			continue;
		j = hash_of(ctx, ix->slots[i] - 1) & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = ix->slots[i];
	}
	free(ix->slots);
	ix->slots = slots;
	ix->cap = cap;
	return 0;
}

static uint64_t frame_hash_of(void *ctx, uint32_t id)
{
	return ((struct ember_heatmap_density *)ctx)->frame_hash[id];
}

static uint64_t node_hash(int32_t parent, uint32_t frame)
{
	return hash_mix64(((uint64_t)(uint32_t)parent << 32) | frame);
}

static uint64_t node_hash_of(void *ctx, uint32_t id)
{
	const struct density_node *n = &((struct ember_heatmap_density *)ctx)->nodes[id];

	return node_hash(n->parent, n->frame);
}

static int frame_id(struct ember_heatmap_density *d, const char *name, uint32_t *id)
{
	uint64_t h = hash_str(name);
	size_t i;
	char *dup;

	if ((d->frame_index.nr + 1) * 2 > d->frame_index.cap &&
	    intern_grow(&d->frame_index, d, frame_hash_of))
		return -ENOMEM;
	for (i = h & (d->frame_index.cap - 1); d->frame_index.slots[i];
	     i = (i + 1) & (d->frame_index.cap - 1)) {
		uint32_t f = d->frame_index.slots[i] - 1;

		if (d->frame_hash[f] == h && !strcmp(d->frames[f], name)) {
			*id = f;
			return 0;
		}
	}
	if (d->nr_frames >= ID_MAX)
		return -ENOMEM;
	if (grow2((void **)&d->frames, sizeof(*d->frames), (void **)&d->frame_hash,
		  sizeof(*d->frame_hash), &d->alloc_frames, d->nr_frames))
		return -ENOMEM;
	dup = strdup(name);
	if (!dup)
		return -ENOMEM;
	d->frames[d->nr_frames] = dup;
	d->frame_hash[d->nr_frames] = h;
	d->frame_index.slots[i] = d->nr_frames + 1;
	d->frame_index.nr++;
	*id = d->nr_frames++;
	return 0;
}

static int node_id(struct ember_heatmap_density *d, int32_t parent, uint32_t frame, int32_t *id)
{
	uint64_t h = node_hash(parent, frame);
	size_t i;

	if ((d->node_index.nr + 1) * 2 > d->node_index.cap &&
	    intern_grow(&d->node_index, d, node_hash_of))
		return -ENOMEM;
	for (i = h & (d->node_index.cap - 1); d->node_index.slots[i];
	     i = (i + 1) & (d->node_index.cap - 1)) {
		uint32_t n = d->node_index.slots[i] - 1;

		if (d->nodes[n].parent == parent && d->nodes[n].frame == frame) {
			*id = n;
			return 0;
		}
	}
	if (d->nr_nodes >= ID_MAX)
		return -ENOMEM;
	if (grow2((void **)&d->nodes, sizeof(*d->nodes), NULL, 0, &d->alloc_nodes, d->nr_nodes))
		return -ENOMEM;
	d->nodes[d->nr_nodes] = (struct density_node){ .parent = parent, .frame = frame };
	d->node_index.slots[i] = d->nr_nodes + 1;
	d->node_index.nr++;
	*id = d->nr_nodes++;
	return 0;
}

struct ember_heatmap_density *ember_heatmap_density__new(unsigned int rows)
{
	struct ember_heatmap_density *d;

	if (rows > 1000) {
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	d->rows = rows ? rows : 50;
	return d;
}

void ember_heatmap_density__delete(struct ember_heatmap_density *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr_frames; i++)
		free(d->frames[i]);
	free(d->frames);
	free(d->frame_hash);
	free(d->frame_index.slots);
	free(d->nodes);
	free(d->node_index.slots);
	free(d->times);
	free(d->leaf);
	free(d);
}

int ember_heatmap_density__add(struct ember_heatmap_density *d, uint64_t time,
			       const char *const *frames, size_t nr)
{
	int32_t node = -1;

	if (!d || (nr && !frames))
		return -EINVAL;
	for (size_t i = 0; i < nr; i++) {
		uint32_t f;
		int err;

		if (!frames[i])
			return -EINVAL;
		err = frame_id(d, frames[i], &f);
		if (!err)
			err = node_id(d, node, f, &node);
		if (err)
			return err;
	}
	if (grow2((void **)&d->times, sizeof(*d->times), (void **)&d->leaf, sizeof(*d->leaf),
		  &d->alloc_samples, d->nr_samples))
		return -ENOMEM;
	d->times[d->nr_samples] = time;
	d->leaf[d->nr_samples] = node;
	d->nr_samples++;
	return 0;
}

uint64_t ember_heatmap_density__nr_samples(const struct ember_heatmap_density *d)
{
	return d->nr_samples;
}
