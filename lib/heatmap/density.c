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

struct frame_key {
	const struct ember_heatmap_density *d;
	const char *name;
};

static bool frame_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	const struct frame_key *k = key;

	return !strcmp(k->d->frames[val - 1], k->name);
}

static int frame_id(struct ember_heatmap_density *d, const char *name, uint32_t *id)
{
	struct frame_key key = { d, name };
	uint64_t h = hash_str(name);
	struct hashtab_slot *slot;
	char *dup;

	if (hashtab__reserve(&d->frame_index, 1))
		return -ENOMEM;
	slot = hashtab__slot(&d->frame_index, h, frame_eq, &key);
	if (slot->val) {
		*id = slot->val - 1;
		return 0;
	}
	if (d->nr_frames >= ID_MAX)
		return -ENOMEM;
	if (grow2((void **)&d->frames, sizeof(*d->frames), NULL, 0, &d->alloc_frames,
		  d->nr_frames))
		return -ENOMEM;
	dup = arena__strndup(&d->names, name, strlen(name));
	if (!dup)
		return -ENOMEM;
	d->frames[d->nr_frames] = dup;
	hashtab__fill(&d->frame_index, slot, h, d->nr_frames + 1);
	*id = d->nr_frames++;
	return 0;
}

static int node_id(struct ember_heatmap_density *d, int32_t parent, uint32_t frame, int32_t *id)
{
	/* a bijection of (parent, frame): equal hashes are equal keys */
	uint64_t h = hash_mix64(((uint64_t)(uint32_t)parent << 32) | frame);
	struct hashtab_slot *slot;

	if (hashtab__reserve(&d->node_index, 1))
		return -ENOMEM;
	slot = hashtab__slot(&d->node_index, h, hashtab__eq_hash, NULL);
	if (slot->val) {
		*id = slot->val - 1;
		return 0;
	}
	if (d->nr_nodes >= ID_MAX)
		return -ENOMEM;
	if (grow2((void **)&d->nodes, sizeof(*d->nodes), NULL, 0, &d->alloc_nodes, d->nr_nodes))
		return -ENOMEM;
	d->nodes[d->nr_nodes] = (struct density_node){ .parent = parent, .frame = frame };
	hashtab__fill(&d->node_index, slot, h, d->nr_nodes + 1);
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
	free(d->frames);
	arena__exit(&d->names);
	hashtab__exit(&d->frame_index);
	free(d->nodes);
	hashtab__exit(&d->node_index);
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
