/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The sample-density map's data, shared by the builder and the HTML writer. */
#ifndef EMBER_LIB_HEATMAP_DENSITY_H
#define EMBER_LIB_HEATMAP_DENSITY_H

#include <stddef.h>
#include <stdint.h>
#include "core/arena.h"
#include "core/hashtab.h"

struct density_node {
	int32_t parent;		/* -1: a root */
	uint32_t frame;
};

struct ember_heatmap_density {
	unsigned int rows;
	char **frames;		/* interned names, in names */
	size_t nr_frames, alloc_frames;
	struct arena names;
	struct hashtab frame_index;	/* frame id + 1 by name */
	struct density_node *nodes;	/* parents before children */
	size_t nr_nodes, alloc_nodes;
	struct hashtab node_index;	/* node id + 1 by (parent, frame) */
	uint64_t *times;	/* per sample */
	int32_t *leaf;		/* per sample: its stack's last node, -1 for none */
	size_t nr_samples, alloc_samples;
};

#endif
