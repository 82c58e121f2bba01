/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The points' layout, shared by the reader and the binning. */
#ifndef EMBER_LIB_HEATMAP_POINTS_H
#define EMBER_LIB_HEATMAP_POINTS_H

#include <stddef.h>

struct heatmap_point {
	double time, lat;
};

struct ember_heatmap_points {
	struct heatmap_point *v;
	size_t nr, alloc;
};

#endif
