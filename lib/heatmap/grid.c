// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Binning points into trace2heatmap.pl's columns (time) and rows (latency). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <ember/heatmap.h>
#include "heatmap/grid.h"
#include "heatmap/points.h"

/* Bounds that keep a dense grid of counts within a few hundred megabytes. */
#define ROWS_LIMIT	10000
#define CELLS_LIMIT	(1u << 25)

static int bin_setup(const struct ember_heatmap_points *p, const struct ember_heatmap_opts *o,
		     struct ember_heatmap *hm)
{
	double largest = p->v[0].lat, range;

	hm->time_factor = o->time_factor > 0 ? o->time_factor : 1;
	hm->step_sec = o->step_sec > 0 ? o->step_sec : 1;
	hm->start_time = p->v[0].time;
	for (size_t i = 1; i < p->nr; i++) {
		if (p->v[i].time < hm->start_time)
			hm->start_time = p->v[i].time;
		if (p->v[i].lat > largest)
			largest = p->v[i].lat;
	}
	hm->min_lat = o->min_lat;
	hm->max_lat = o->has_max_lat ? o->max_lat : largest;
	if (!isfinite(hm->min_lat) || !isfinite(hm->max_lat) || !isfinite(hm->time_factor) ||
	    !isfinite(hm->step_sec) || !(o->step_lat >= 0) || !isfinite(o->step_lat))
		return -EINVAL;
	if (hm->max_lat < hm->min_lat)
		return o->has_max_lat ? -EINVAL : -ERANGE;

	range = hm->max_lat - hm->min_lat;
	if (!isfinite(range))
		return -EOVERFLOW;
	if (o->step_lat > 0) {
		hm->step_lat = o->step_lat;
	} else {
		double step = range / (o->rows ? o->rows : 50);

		/* The script's int(): whole steps, unless that would be 0. */
		hm->step_lat = step >= 1 ? floor(step) : step > 0 ? step : 1;
	}
	/*
	 * As many rows as the script draws, int(range / step); what it drops
	 * above the last whole step goes into the top row instead.
	 */
	range = floor(range / hm->step_lat + 1e-9);
	if (!(range <= ROWS_LIMIT))
		return -EOVERFLOW;
	hm->rows = range < 1 ? 1 : (unsigned int)range;
	return 0;
}

/* The point's column and row; false when it is out of range. */
static bool bin_point(const struct ember_heatmap *hm, const struct heatmap_point *pt,
		      double max_col, double *col, unsigned int *row)
{
	double r;

	if (pt->lat < hm->min_lat || pt->lat > hm->max_lat)
		return false;
	*col = floor((pt->time - hm->start_time) / hm->time_factor / hm->step_sec);
	if (!(*col <= max_col))
		return false;
	r = floor((pt->lat - hm->min_lat) / hm->step_lat + 1e-9);
	/* max_lat itself, and the top row's remainder, go in the top row. */
	*row = r >= hm->rows ? hm->rows - 1 : r < 0 ? 0 : (unsigned int)r;
	return true;
}

int ember_heatmap__new(const struct ember_heatmap_points *p, const struct ember_heatmap_opts *o,
		       struct ember_heatmap **out)
{
	struct ember_heatmap_opts defaults = { .sz = sizeof(defaults), .max_col = -1 };
	struct ember_heatmap *hm;
	double max_col, largest_col = -1, col;
	unsigned int limit, row;
	int err;

	*out = NULL;
	if (!o)
		o = &defaults;
	if (o->sz < sizeof(*o))
		return -EINVAL;
	if (!p || !p->nr)
		return -ENODATA;
	hm = calloc(1, sizeof(*hm));
	if (!hm)
		return -ENOMEM;
	err = bin_setup(p, o, hm);
	if (err)
		goto out_free;

	limit = o->limit_col ? o->limit_col : 10000;
	max_col = o->max_col >= 0 ? (double)o->max_col : INFINITY;
	for (size_t i = 0; i < p->nr; i++) {
		if (!bin_point(hm, &p->v[i], max_col, &col, &row))
			continue;
		if (col > largest_col)
			largest_col = col;
	}
	err = -ERANGE;
	if (largest_col < 0)
		goto out_free;
	err = -E2BIG;
	if (largest_col >= limit || (largest_col + 1) * hm->rows > CELLS_LIMIT)
		goto out_free;
	hm->cols = (unsigned int)largest_col + 1;
	err = -ENOMEM;
	hm->counts = calloc((size_t)hm->cols * hm->rows, sizeof(*hm->counts));
	if (!hm->counts)
		goto out_free;
	for (size_t i = 0; i < p->nr; i++) {
		uint64_t *c;

		if (!bin_point(hm, &p->v[i], max_col, &col, &row)) {
			hm->nr_out++;
			continue;
		}
		c = &hm->counts[(size_t)col * hm->rows + row];
		if (++*c > hm->max_count)
			hm->max_count = *c;
		hm->total++;
	}
	*out = hm;
	return 0;

out_free:
	ember_heatmap__delete(hm);
	return err;
}

void ember_heatmap__delete(struct ember_heatmap *hm)
{
	if (!hm)
		return;
	free(hm->counts);
	free(hm);
}

unsigned int ember_heatmap__cols(const struct ember_heatmap *hm)
{
	return hm->cols;
}

unsigned int ember_heatmap__rows(const struct ember_heatmap *hm)
{
	return hm->rows;
}

uint64_t ember_heatmap__count(const struct ember_heatmap *hm, unsigned int col, unsigned int row)
{
	if (col >= hm->cols || row >= hm->rows)
		return 0;
	return hm->counts[(size_t)col * hm->rows + row];
}

uint64_t ember_heatmap__total(const struct ember_heatmap *hm)
{
	return hm->total;
}

uint64_t ember_heatmap__nr_out(const struct ember_heatmap *hm)
{
	return hm->nr_out;
}

uint64_t ember_heatmap__max_count(const struct ember_heatmap *hm)
{
	return hm->max_count;
}

double ember_heatmap__min_lat(const struct ember_heatmap *hm)
{
	return hm->min_lat;
}

double ember_heatmap__max_lat(const struct ember_heatmap *hm)
{
	return hm->max_lat;
}

double ember_heatmap__step_lat(const struct ember_heatmap *hm)
{
	return hm->step_lat;
}

double ember_heatmap__start_time(const struct ember_heatmap *hm)
{
	return hm->start_time;
}
