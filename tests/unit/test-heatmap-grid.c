// SPDX-License-Identifier: GPL-2.0-only
/* Binning as trace2heatmap.pl does, and its SVG. */
#include <errno.h>
#include <stdlib.h>
#include <ember/heatmap.h>
#include "test.h"

static struct ember_heatmap_points *points(const double *v, size_t nr)
{
	struct ember_heatmap_points *p = ember_heatmap_points__new();

	for (size_t i = 0; p && i < nr; i++)
		if (ember_heatmap_points__add(p, v[2 * i], v[2 * i + 1]))
			return NULL;
	return p;
}

TEST(heatmap_grid_bins)
{
	/* us times over 3 s; latencies 0..1000 us in 50 rows of 20 us. */
	static const double v[] = {
		1000000, 0, 1500000, 19, 1999999, 20, 2000000, 999, 3000000, 1000, 3999999, 500,
	};
	struct ember_heatmap_opts o = { .sz = sizeof(o), .time_factor = 1e6, .max_col = -1 };
	struct ember_heatmap_points *p = points(v, 6);
	struct ember_heatmap *hm;

	CHECK_EQ(ember_heatmap__new(p, &o, &hm), 0);
	if (!hm)
		return;
	CHECK_EQ(ember_heatmap__cols(hm), 3);
	CHECK_EQ(ember_heatmap__rows(hm), 50);
	CHECK(ember_heatmap__step_lat(hm) == 20);
	CHECK_EQ(ember_heatmap__count(hm, 0, 0), 2);
	CHECK_EQ(ember_heatmap__count(hm, 0, 1), 1);
	CHECK_EQ(ember_heatmap__count(hm, 1, 49), 1);	/* 999 */
	CHECK_EQ(ember_heatmap__count(hm, 2, 49), 1);	/* max_lat itself: drawn, unlike the script */
	CHECK_EQ(ember_heatmap__count(hm, 2, 25), 1);
	CHECK_EQ(ember_heatmap__total(hm), 6);
	CHECK_EQ(ember_heatmap__nr_out(hm), 0);
	CHECK_EQ(ember_heatmap__max_count(hm), 2);
	ember_heatmap__delete(hm);

	/* --minlat/--maxlat/--maxcol leave points out; --stepsec widens columns. */
	o.min_lat = 10;
	o.max_lat = 600;
	o.has_max_lat = true;
	o.step_sec = 2;
	CHECK_EQ(ember_heatmap__new(p, &o, &hm), 0);
	if (hm) {
		CHECK_EQ(ember_heatmap__cols(hm), 2);
		CHECK(ember_heatmap__step_lat(hm) == 11);	/* int(590 / 50) */
		CHECK_EQ(ember_heatmap__total(hm), 3);		/* 19, 20, 500 */
		CHECK_EQ(ember_heatmap__nr_out(hm), 3);		/* 0, 999, 1000 */
		CHECK_EQ(ember_heatmap__count(hm, 0, 0), 2);	/* 19, 20 */
		CHECK_EQ(ember_heatmap__count(hm, 1, 44), 1);	/* (500 - 10) / 11 */
		ember_heatmap__delete(hm);
	}
	o.max_col = 0;
	CHECK_EQ(ember_heatmap__new(p, &o, &hm), 0);
	if (hm) {
		CHECK_EQ(ember_heatmap__cols(hm), 1);
		CHECK_EQ(ember_heatmap__total(hm), 2);
		ember_heatmap__delete(hm);
	}
	ember_heatmap_points__delete(p);
}

TEST(heatmap_grid_errors)
{
	static const double one[] = { 5, 7 };
	static const double wide[] = { 0, 1, 1e9, 2 };
	static const double fine[] = { 0, 0.001, 1, 0.004 };
	struct ember_heatmap_opts o = { .sz = sizeof(o), .max_col = -1 };
	struct ember_heatmap_points *p = ember_heatmap_points__new();
	struct ember_heatmap *hm;

	CHECK_EQ(ember_heatmap__new(p, &o, &hm), -ENODATA);
	CHECK_EQ(ember_heatmap_points__add(p, 1.0 / 0.0, 1), -EINVAL);
	ember_heatmap_points__delete(p);

	/* One latency: the top row; with --minlat at it, a single row; above it, nothing. */
	p = points(one, 1);
	CHECK_EQ(ember_heatmap__new(p, &o, &hm), 0);
	if (hm) {
		CHECK_EQ(ember_heatmap__rows(hm), 50);
		CHECK_EQ(ember_heatmap__count(hm, 0, 49), 1);
		ember_heatmap__delete(hm);
	}
	o.min_lat = 7;
	CHECK_EQ(ember_heatmap__new(p, &o, &hm), 0);
	if (hm) {
		CHECK_EQ(ember_heatmap__rows(hm), 1);
		CHECK_EQ(ember_heatmap__count(hm, 0, 0), 1);
		ember_heatmap__delete(hm);
	}
	o.min_lat = 8;
	CHECK_EQ(ember_heatmap__new(p, &o, &hm), -ERANGE);
	o.min_lat = 0;
	o.has_max_lat = true;
	o.max_lat = -1;
	CHECK_EQ(ember_heatmap__new(p, &o, &hm), -EINVAL);
	o.has_max_lat = false;
	o.step_lat = 1e-9;
	CHECK_EQ(ember_heatmap__new(p, &o, &hm), -EOVERFLOW);
	o.step_lat = 0;
	ember_heatmap_points__delete(p);

	/* A billion seconds: too many columns, as the script says. */
	p = points(wide, 2);
	CHECK_EQ(ember_heatmap__new(p, &o, &hm), -E2BIG);
	ember_heatmap_points__delete(p);

	/* Sub-unit latencies: a fractional step where the script gives up. */
	p = points(fine, 2);
	CHECK_EQ(ember_heatmap__new(p, &o, &hm), 0);
	if (hm) {
		CHECK_EQ(ember_heatmap__rows(hm), 50);
		CHECK_EQ(ember_heatmap__count(hm, 1, 49), 1);
		ember_heatmap__delete(hm);
	}
	ember_heatmap_points__delete(p);
}

TEST(heatmap_svg)
{
	static const double v[] = { 0, 1, 0, 2, 0, 3, 1, 4, 2, 100 };
	struct ember_heatmap_svg_opts so = { .sz = sizeof(so), .title = "a <b> & \"c\"",
					     .units_lat = "us", .grid = true };
	struct ember_heatmap_points *p = points(v, 5);
	struct ember_heatmap *hm;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	struct ember_heatmap_opts o = { .sz = sizeof(o), .step_lat = 1, .max_col = -1 };

	CHECK_EQ(ember_heatmap__new(p, &o, &hm), 0);
	if (!hm)
		return;
	fp = open_memstream(&buf, &len);
	CHECK_EQ(ember_heatmap__write_svg(hm, &so, fp), 0);
	fclose(fp);
	CHECK(strstr(buf, "a &lt;b&gt; &amp; &quot;c&quot;"));
	/* Column 0: 1, 2, 3 in rows 1-2, 2-3, 3-4; 100 in the top row, 99-100. */
	CHECK(strstr(buf, "time 0s, range 1-2us, count: 1, pct: 33%, acc: 1, acc pct: 33%"));
	CHECK(strstr(buf, "time 0s, range 3-4us, count: 1, pct: 33%, acc: 3, acc pct: 100%"));
	CHECK(strstr(buf, "time 2s, range 99-100us, count: 1, pct: 100%"));
	CHECK(strstr(buf, ">100us</text>"));
	CHECK(!strstr(buf, "nan"));
	free(buf);
	ember_heatmap__delete(hm);
	ember_heatmap_points__delete(p);
}
