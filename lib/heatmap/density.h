/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The sample-density map's data, shared by the builder and the HTML writer. */
#ifndef EMBER_LIB_HEATMAP_DENSITY_H
#define EMBER_LIB_HEATMAP_DENSITY_H

#include <stddef.h>
#include <stdint.h>

/* An open-addressing index of ids by hash; equality is the owner's to check. */
struct intern {
	uint32_t *slots;	/* id + 1; 0 empty */
	size_t cap;
	size_t nr;
};

struct density_node {
	int32_t parent;		/* -1: a root */
	uint32_t frame;
};

struct ember_heatmap_density {
	unsigned int rows;
	char **frames;		/* interned names */
	uint64_t *frame_hash;
	size_t nr_frames, alloc_frames;
	struct intern frame_index;
	struct density_node *nodes;	/* parents before children */
	size_t nr_nodes, alloc_nodes;
	struct intern node_index;
	uint64_t *times;	/* per sample */
	int32_t *leaf;		/* per sample: its stack's last node, -1 for none */
	size_t nr_samples, alloc_samples;
};

#endif
