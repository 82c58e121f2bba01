/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The latency heat map's grid, shared by the binning and the SVG writer. */
#ifndef EMBER_LIB_HEATMAP_GRID_H
#define EMBER_LIB_HEATMAP_GRID_H

#include <stdint.h>

struct ember_heatmap {
	unsigned int cols, rows;
	uint64_t *counts;		/* cols * rows, column after column */
	uint64_t total, nr_out, max_count;
	double start_time, time_factor, step_sec;
	double min_lat, max_lat, step_lat;
};

#endif
