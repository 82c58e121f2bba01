// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The FlameScope view as one HTML page: the samples' stacks (a trie) and
 * per-cell counts as JSON, the page's script draws the rest.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <ember/heatmap.h>
#include "heatmap/density.h"
#include "heatmap/html-page.h"
#include "core/escape.h"

struct cell_sample {
	uint64_t cell;		/* col * rows + row */
	int32_t leaf;
};

static int cmp_cell_sample(const void *a, const void *b)
{
	const struct cell_sample *x = a, *y = b;

	if (x->cell != y->cell)
		return x->cell < y->cell ? -1 : 1;
	return (x->leaf > y->leaf) - (x->leaf < y->leaf);
}

static void write_json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	escape_puts(fp, s, ESCAPE_JSON);
	fputc('"', fp);
}

/* "cells": [[col, row, node, count, node, count, ...], ...], sorted by cell then node. */
static int write_cells(const struct ember_heatmap_density *d, uint64_t start_sec, FILE *fp)
{
	struct cell_sample *cs = malloc(d->nr_samples * sizeof(*cs));
	size_t i = 0;

	if (!cs)
		return -ENOMEM;
	for (size_t s = 0; s < d->nr_samples; s++) {
		uint64_t t = d->times[s];
		/* FlameScope's offset: the fraction of the (absolute) second. */
		uint64_t row = (t % 1000000000ull) * d->rows / 1000000000ull;

		cs[s].cell = (t / 1000000000ull - start_sec) * d->rows + row;
		cs[s].leaf = d->leaf[s];
	}
	qsort(cs, d->nr_samples, sizeof(*cs), cmp_cell_sample);
	fputs("\"cells\":[", fp);
	while (i < d->nr_samples) {
		uint64_t cell = cs[i].cell;

		fprintf(fp, "%s\n[%llu,%llu", i ? "," : "", (unsigned long long)(cell / d->rows),
			(unsigned long long)(cell % d->rows));
		while (i < d->nr_samples && cs[i].cell == cell) {
			int32_t leaf = cs[i].leaf;
			size_t n = 0;

			for (; i < d->nr_samples && cs[i].cell == cell && cs[i].leaf == leaf; i++)
				n++;
			fprintf(fp, ",%d,%zu", leaf, n);
		}
		fputc(']', fp);
	}
	fputs("]", fp);
	free(cs);
	return 0;
}

int ember_heatmap_density__write_html(const struct ember_heatmap_density *d,
				      const struct ember_heatmap_html_opts *opts, FILE *fp)
{
	const char *title = opts && opts->title ? opts->title : "Sample Heat Map";
	const char *subtitle = opts ? opts->subtitle : NULL;
	uint64_t tmin = UINT64_MAX, tmax = 0, start_sec, cols;
	int err;

	if (!d || !fp || (opts && opts->sz < sizeof(*opts)))
		return -EINVAL;
	if (!d->nr_samples)
		return -ENODATA;
	for (size_t s = 0; s < d->nr_samples; s++) {
		if (d->times[s] < tmin)
			tmin = d->times[s];
		if (d->times[s] > tmax)
			tmax = d->times[s];
	}
	start_sec = tmin / 1000000000ull;
	cols = tmax / 1000000000ull - start_sec + 1;
	/* A page of more cells than this would not draw in any browser. */
	if (cols > 1000000 || cols * d->rows > 20000000)
		return -E2BIG;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", fp);
	escape_puts(fp, title, ESCAPE_XML_TEXT);
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1 id=\"title\">",
		heatmap_html_style);
	escape_puts(fp, title, ESCAPE_XML_TEXT);
	fputs("</h1>\n<div id=\"subtitle\">", fp);
	if (subtitle)
		escape_puts(fp, subtitle, ESCAPE_XML_TEXT);
	fputs("</div>\n<svg id=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\"></svg>\n"
	      "<div id=\"details\">&#160;</div>\n"
	      "<div>Columns are seconds, rows the offset within the second (0 at the bottom). "
	      "Drag across cells, or click one and shift-click another, to see the flame graph "
	      "of the samples between them.</div>\n"
	      "<div id=\"selinfo\"></div>\n"
	      "<div><button id=\"reset\">Reset Zoom</button> <button id=\"search\" "
	      "title=\"Ctrl-F\">Search</button> <button id=\"ignorecase\" "
	      "title=\"Ctrl-I: ignore case\">ic</button><span id=\"matched\"></span></div>\n"
	      "<svg id=\"flame\" xmlns=\"http://www.w3.org/2000/svg\"></svg>\n"
	      "<script type=\"application/json\" id=\"ember-data\">{", fp);
	fputs("\"title\":", fp);
	write_json_string(fp, title);
	fprintf(fp, ",\"rows\":%u,\"cols\":%llu,\"start\":%llu,\"samples\":%zu,\n\"frames\":[",
		d->rows, (unsigned long long)cols, (unsigned long long)start_sec, d->nr_samples);
	for (size_t f = 0; f < d->nr_frames; f++) {
		if (f)
			fputc(',', fp);
		write_json_string(fp, d->frames[f]);
	}
	fputs("],\n\"nodes\":[", fp);
	for (size_t n = 0; n < d->nr_nodes; n++)
		fprintf(fp, "%s%d,%u", n ? "," : "", d->nodes[n].parent, d->nodes[n].frame);
	fputs("],\n", fp);
	err = write_cells(d, start_sec, fp);
	if (err)
		return err;
	fprintf(fp, "}</script>\n<script>\n%s</script>\n</body>\n</html>\n", heatmap_html_script);
	return ferror(fp) ? -EIO : 0;
}
