// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Start/end matching by key: an open-addressing hash of key -> start
 * time, with tombstones for ends (a block device reuses sectors, a thread
 * enters syscalls again and again, so keys come and go all the time).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ember/heatmap.h>

#define MAX_KEYS 8

enum slot_state { SLOT_EMPTY, SLOT_USED, SLOT_GONE };

struct ember_heatmap_pairs {
	unsigned int nr_keys;
	size_t cap;		/* a power of two */
	size_t used;		/* SLOT_USED */
	size_t gone;		/* SLOT_GONE */
	uint8_t *state;
	uint64_t *keys;		/* cap * nr_keys */
	uint64_t *times;
};

static uint64_t hash_key(const uint64_t *key, unsigned int n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;

	for (unsigned int i = 0; i < n; i++) {
		h ^= key[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 33;
	}
	return h;
}

static int pairs_alloc(struct ember_heatmap_pairs *pp, size_t cap)
{
	pp->state = calloc(cap, 1);
	pp->keys = calloc(cap * pp->nr_keys, sizeof(*pp->keys));
	pp->times = calloc(cap, sizeof(*pp->times));
	if (!pp->state || !pp->keys || !pp->times) {
		free(pp->state);
		free(pp->keys);
		free(pp->times);
		return -ENOMEM;
	}
	pp->cap = cap;
	pp->used = pp->gone = 0;
	return 0;
}

struct ember_heatmap_pairs *ember_heatmap_pairs__new(unsigned int nr_keys)
{
	struct ember_heatmap_pairs *pp;

	if (!nr_keys || nr_keys > MAX_KEYS) {
		errno = EINVAL;
		return NULL;
	}
	pp = calloc(1, sizeof(*pp));
	if (!pp) {
		errno = ENOMEM;
		return NULL;
	}
	pp->nr_keys = nr_keys;
	if (pairs_alloc(pp, 1024)) {
		free(pp);
		errno = ENOMEM;
		return NULL;
	}
	return pp;
}

void ember_heatmap_pairs__delete(struct ember_heatmap_pairs *pp)
{
	if (!pp)
		return;
	free(pp->state);
	free(pp->keys);
	free(pp->times);
	free(pp);
}

/* The slot holding key, or (insert) the first free one on its probe path; -1 when absent. */
static long find(const struct ember_heatmap_pairs *pp, const uint64_t *key, bool insert)
{
	size_t mask = pp->cap - 1, i = hash_key(key, pp->nr_keys) & mask;
	long free_slot = -1;

	for (size_t probes = 0; probes < pp->cap; probes++, i = (i + 1) & mask) {
		if (pp->state[i] == SLOT_EMPTY)
			return insert ? (free_slot >= 0 ? free_slot : (long)i) : -1;
		if (pp->state[i] == SLOT_GONE) {
			if (free_slot < 0)
				free_slot = i;
			continue;
		}
		if (!memcmp(&pp->keys[i * pp->nr_keys], key, pp->nr_keys * sizeof(*key)))
			return i;
	}
	return insert ? free_slot : -1;
}

/* Rehash into a table sized for the live keys (dropping tombstones). */
static int grow(struct ember_heatmap_pairs *pp)
{
	struct ember_heatmap_pairs old = *pp;
	size_t cap = pp->cap;
	int err;

	while (cap < 4 * (pp->used + 1))
		cap *= 2;
	err = pairs_alloc(pp, cap);
	if (err) {
		*pp = old;
		return err;
	}
	for (size_t i = 0; i < old.cap; i++) {
		long j;

		if (old.state[i] != SLOT_USED)
			continue;
		j = find(pp, &old.keys[i * old.nr_keys], true);
		pp->state[j] = SLOT_USED;
		memcpy(&pp->keys[j * pp->nr_keys], &old.keys[i * old.nr_keys],
		       pp->nr_keys * sizeof(*pp->keys));
		pp->times[j] = old.times[i];
		pp->used++;
	}
	free(old.state);
	free(old.keys);
	free(old.times);
	return 0;
}

int ember_heatmap_pairs__start(struct ember_heatmap_pairs *pp, const uint64_t *key, uint64_t time)
{
	long i;

	/* Keep at least a quarter of the slots empty so probes stay short. */
	if ((pp->used + pp->gone + 1) * 4 > pp->cap * 3) {
		int err = grow(pp);

		if (err)
			return err;
	}
	i = find(pp, key, true);
	if (pp->state[i] != SLOT_USED) {
		if (pp->state[i] == SLOT_GONE)
			pp->gone--;
		pp->state[i] = SLOT_USED;
		memcpy(&pp->keys[i * pp->nr_keys], key, pp->nr_keys * sizeof(*key));
		pp->used++;
	}
	pp->times[i] = time;
	return 0;
}

int ember_heatmap_pairs__end(struct ember_heatmap_pairs *pp, const uint64_t *key,
			     uint64_t *start_time)
{
	long i = find(pp, key, false);

	if (i < 0)
		return 0;
	*start_time = pp->times[i];
	pp->state[i] = SLOT_GONE;
	pp->used--;
	pp->gone++;
	return 1;
}

size_t ember_heatmap_pairs__pending(const struct ember_heatmap_pairs *pp)
{
	return pp->used;
}
