// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A growable array of (time, latency) points. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <ember/heatmap.h>
#include "heatmap/points.h"

struct ember_heatmap_points *ember_heatmap_points__new(void)
{
	struct ember_heatmap_points *p = calloc(1, sizeof(*p));

	if (!p)
		errno = ENOMEM;
	return p;
}

void ember_heatmap_points__delete(struct ember_heatmap_points *p)
{
	if (!p)
		return;
	free(p->v);
	free(p);
}

int ember_heatmap_points__add(struct ember_heatmap_points *p, double time, double lat)
{
	if (!isfinite(time) || !isfinite(lat))
		return -EINVAL;
	if (p->nr == p->alloc) {
		size_t alloc = p->alloc ? 2 * p->alloc : 1024;
		struct heatmap_point *v;

		if (alloc > SIZE_MAX / sizeof(*v))
			return -ENOMEM;
		v = realloc(p->v, alloc * sizeof(*v));
		if (!v)
			return -ENOMEM;
		p->v = v;
		p->alloc = alloc;
	}
	p->v[p->nr].time = time;
	p->v[p->nr].lat = lat;
	p->nr++;
	return 0;
}

size_t ember_heatmap_points__nr(const struct ember_heatmap_points *p)
{
	return p->nr;
}

int ember_heatmap_points__get(const struct ember_heatmap_points *p, size_t i, double *time,
			      double *lat)
{
	if (i >= p->nr)
		return -ERANGE;
	*time = p->v[i].time;
	*lat = p->v[i].lat;
	return 0;
}
