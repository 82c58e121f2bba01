// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the heat-map text reader (trace2heatmap.pl's input:
 * "TIME LATENCY" lines), then the grid binned and drawn as an SVG with the
 * options the first byte picks.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ember/heatmap.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ember_heatmap_opts ho = { .sz = sizeof(ho) };
	struct ember_heatmap_svg_opts so = { .sz = sizeof(so) };
	struct ember_heatmap_text_stats st = { 0 };
	struct ember_heatmap_points *p;
	struct ember_heatmap *hm;
	FILE *null;

	if (!size)
		return 0;
	ho.time_factor = (data[0] & 3) == 0 ? 1 : (data[0] & 3) == 1 ? 1e3 : 1e9;
	ho.rows = (data[0] & 4) ? 7 : 0;
	ho.step_sec = (data[0] & 8) ? 0.001 : 0;
	ho.max_col = (data[0] & 16) ? 5 : -1;
	so.grid = data[0] & 32;
	p = ember_heatmap_points__new();
	if (!p)
		abort();
	ember_heatmap_points__parse_text(p, (const char *)data + 1, size - 1, &st);
	if (ember_heatmap__new(p, &ho, &hm) == 0) {
		null = fopen("/dev/null", "w");
		if (!null)
			abort();
		ember_heatmap__write_svg(hm, &so, null);
		fclose(null);
		ember_heatmap__delete(hm);
	}
	ember_heatmap_points__delete(p);
	return 0;
}
