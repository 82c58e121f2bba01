// SPDX-License-Identifier: GPL-2.0-only
/* From points to the SVG, with the errors trace2heatmap.pl dies with said plainly. */
#include <errno.h>
#include <string.h>
#include "heatmap/heatmap.h"

void heatmap_cmd__opts(const struct heatmap_cmd *cmd, struct ember_heatmap_opts *o,
		       struct ember_heatmap_svg_opts *svg)
{
	static const struct {
		const char *name;
		double factor;
	} units[] = { { "s", 1 }, { "ms", 1e3 }, { "us", 1e6 }, { "ns", 1e9 } };

	*o = (struct ember_heatmap_opts){
		.sz = sizeof(*o),
		.time_factor = 1,
		.step_sec = cmd->step_sec,
		.min_lat = cmd->min_lat,
		.max_lat = cmd->max_lat,
		.has_max_lat = cmd->has_max_lat,
		.step_lat = cmd->step_lat,
		.rows = cmd->rows,
		.max_col = cmd->max_col,
	};
	for (size_t i = 0; cmd->units_time && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(cmd->units_time, units[i].name))
			o->time_factor = units[i].factor;
	*svg = (struct ember_heatmap_svg_opts){
		.sz = sizeof(*svg),
		.title = cmd->title,
		.units_lat = cmd->units_lat,
		.font_type = cmd->font_type,
		.font_size = cmd->font_size,
		.box_size = cmd->box_size,
		.step_sec = cmd->step_sec,
		.grid = cmd->grid,
	};
}

int heatmap_cmd__draw(const struct heatmap_cmd *cmd, const struct ember_heatmap_points *p,
		      const char *what, FILE *fp)
{
	struct ember_heatmap_opts o;
	struct ember_heatmap_svg_opts svg;
	struct ember_heatmap *hm;
	int err;

	heatmap_cmd__opts(cmd, &o, &svg);
	err = ember_heatmap__new(p, &o, &hm);
	switch (err) {
	case 0:
		break;
	case -ENODATA:
		fprintf(stderr, "ember heatmap: no latencies in %s\n", what);
		return 1;
	case -ERANGE:
		fprintf(stderr, "ember heatmap: none of the %zu latencies of %s is within "
			"--minlat %g and --maxlat%s\n", ember_heatmap_points__nr(p), what,
			cmd->min_lat, cmd->has_max_lat ? "" : " (the largest)");
		return 1;
	case -E2BIG:
		fprintf(stderr, "ember heatmap: too many columns (more than 10000) for %s; "
			"try --unitstime or a larger --stepsec\n", what);
		return 1;
	case -EOVERFLOW:
		fprintf(stderr, "ember heatmap: too many rows (more than 10000) for %s; "
			"try a larger --steplat, or --rows\n", what);
		return 1;
	case -EINVAL:
		fprintf(stderr, "ember heatmap: --maxlat %g is below --minlat %g\n",
			cmd->max_lat, cmd->min_lat);
		return 1;
	default:
		fprintf(stderr, "ember heatmap: %s\n", strerror(-err));
		return 1;
	}
	if (cmd->verbose)
		fprintf(stderr, "ember heatmap: %zu points, %llu in %u columns x %u rows "
			"(latency %g to %g, step %g), %llu left out\n",
			ember_heatmap_points__nr(p), (unsigned long long)ember_heatmap__total(hm),
			ember_heatmap__cols(hm), ember_heatmap__rows(hm), ember_heatmap__min_lat(hm),
			ember_heatmap__max_lat(hm), ember_heatmap__step_lat(hm),
			(unsigned long long)ember_heatmap__nr_out(hm));
	err = ember_heatmap__write_svg(hm, &svg, fp);
	ember_heatmap__delete(hm);
	if (err) {
		fprintf(stderr, "ember heatmap: cannot write the SVG: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}
