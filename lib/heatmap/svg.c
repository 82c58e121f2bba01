// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The latency heat map as SVG, laid out as trace2heatmap.pl lays it out
 * (title on top, a box per cell, lowest latencies at the bottom, a details
 * line under the map), with a <title> per cell so the tooltip works
 * without script too.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <ember/heatmap.h>
#include "heatmap/grid.h"
#include "core/escape.h"

/* The details line needs room even for a map of a few columns. */
#define MIN_WIDTH 400

struct svg_layout {
	const struct ember_heatmap_svg_opts *o;
	const char *font, *units;
	double box, fs, xpad, ypad1, ypad2, width, height;
};

static const char svg_script[] =
	"<style type=\"text/css\">\n"
	"\t#cells rect:hover { stroke:black; stroke-width:0.5; }\n"
	"</style>\n"
	"<script type=\"text/ecmascript\">\n"
	"<![CDATA[\n"
	"\tvar details;\n"
	"\tfunction init(evt) { details = document.getElementById(\"details\").firstChild; }\n"
	"\t// The hovered cell's <title> is its tooltip; the details line repeats it.\n"
	"\tfunction s(evt) {\n"
	"\t\tvar t = evt.target.getElementsByTagName(\"title\")[0];\n"
	"\t\tif (t && details) details.nodeValue = t.textContent;\n"
	"\t}\n"
	"\tfunction c() { if (details) details.nodeValue = ' '; }\n"
	"]]>\n"
	"</script>\n";

static void text(FILE *fp, const struct svg_layout *l, const char *color, double size, double x,
		 double y, const char *anchor, const char *extra, const char *str)
{
	fprintf(fp, "<text text-anchor=\"%s\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" "
		"font-family=\"", anchor, x, y, size);
	escape_puts(fp, l->font, ESCAPE_XML_TEXT);
	fprintf(fp, "\" fill=\"%s\"%s%s>", color, extra ? " " : "", extra ? extra : "");
	escape_puts(fp, str, ESCAPE_XML_TEXT);
	fputs("</text>\n", fp);
}

static void line(FILE *fp, double x1, double y1, double x2, double y2, const char *color)
{
	fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"1\" />\n", x1, y1, x2, y2, color);
}

/* trace2heatmap.pl's "linear" scale: white through orange to red. */
static void color(char *buf, size_t size, double ratio)
{
	snprintf(buf, size, "rgb(255,%.0f,%.0f)", 240 - 240 * ratio, 220 - 220 * ratio);
}

static void grid(FILE *fp, const struct ember_heatmap *hm, const struct svg_layout *l)
{
	double ytop = l->height - l->ypad2 - (hm->rows - 1) * l->box;
	double ybot = l->height - l->ypad2 + l->box;
	double xend = l->xpad + hm->cols * l->box;
	char label[64];

	line(fp, l->xpad, ybot, xend, ybot, "rgb(230,230,230)");
	line(fp, l->xpad, ytop, xend, ytop, "rgb(230,230,230)");
	for (unsigned int s = 0; s < hm->cols; s += 10) {
		double x = l->xpad + s * l->box;

		line(fp, x, ybot, x, ytop, "rgb(230,230,230)");
		snprintf(label, sizeof(label), "%.15gs", s * l->o->step_sec);
		text(fp, l, "rgb(190,190,190)", l->fs, x, ybot + l->fs, "start", NULL, label);
	}
}

static void grid_labels(FILE *fp, const struct ember_heatmap *hm, const struct svg_layout *l)
{
	double ytop = l->height - l->ypad2 - (hm->rows - 1) * l->box;
	double ybot = l->height - l->ypad2 + l->box;
	char label[256];

	fprintf(fp, "<g id=\"lat-labels\">\n");
	snprintf(label, sizeof(label), "%.15g%s", hm->min_lat, l->units);
	text(fp, l, "rgb(60,60,60)", l->fs, l->xpad + 5, ybot - l->fs + 4, "start", NULL, label);
	snprintf(label, sizeof(label), "%.15g%s", hm->max_lat, l->units);
	text(fp, l, "rgb(60,60,60)", l->fs, l->xpad + 5, ytop + l->fs + 4, "start", NULL, label);
	fprintf(fp, "</g>\n");
}

/* The top row also holds what lies above its whole step, up to max_lat. */
static double row_end(const struct ember_heatmap *hm, unsigned int r)
{
	double end = hm->min_lat + (r + 1) * hm->step_lat;

	return r == hm->rows - 1 && hm->max_lat > end ? hm->max_lat : end;
}

static void cells(FILE *fp, const struct ember_heatmap *hm, const struct svg_layout *l)
{
	char fill[40];

	fputs("<g id=\"cells\" onmouseover=\"s(evt)\" onmouseout=\"c()\">\n", fp);
	for (unsigned int s = 0; s < hm->cols; s++) {
		const uint64_t *col = &hm->counts[(size_t)s * hm->rows];
		uint64_t total = 0, acc = 0;
		double t0 = s * l->o->step_sec;

		for (unsigned int r = 0; r < hm->rows; r++)
			total += col[r];
		for (unsigned int r = 0; r < hm->rows; r++) {
			uint64_t c = col[r];
			double y = l->height - (l->ypad2 + r * l->box);

			if (!c)
				continue;
			acc += c;
			color(fill, sizeof(fill), (double)c / hm->max_count);
			fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>time %.15g", l->xpad + s * l->box, y, l->box,
				l->box, fill, t0);
			/* The script shows a column's span when it is wider than a second. */
			if (l->o->step_sec > 1)
				fprintf(fp, "-%.15g", t0 - 1 + l->o->step_sec);
			fprintf(fp, "s, range %.15g-%.15g", hm->min_lat + r * hm->step_lat,
				row_end(hm, r));
			escape_puts(fp, l->units, ESCAPE_XML_TEXT);
			fprintf(fp, ", count: %llu, pct: %.0f%%, acc: %llu, acc pct: %.0f%%</title>"
				"</rect>\n", (unsigned long long)c, floor((double)c / total * 100),
				(unsigned long long)acc, floor((double)acc / total * 100));
		}
	}
	fputs("</g>\n", fp);
}

int ember_heatmap__write_svg(const struct ember_heatmap *hm,
			     const struct ember_heatmap_svg_opts *opts, FILE *fp)
{
	struct ember_heatmap_svg_opts o = { .sz = sizeof(o) };
	struct svg_layout l = { .o = &o };
	const char *title;

	if (!hm || !fp || (opts && opts->sz < sizeof(*opts)))
		return -EINVAL;
	if (opts)
		o = *opts;
	if (!(o.step_sec > 0) || !isfinite(o.step_sec))
		o.step_sec = 1;
	title = o.title ? o.title : "Latency Heat Map";
	l.font = o.font_type ? o.font_type : "Verdana";
	l.units = o.units_lat ? o.units_lat : "";
	l.fs = o.font_size ? o.font_size : 12;
	l.box = o.box_size ? o.box_size : 8;
	l.xpad = 10;
	l.ypad1 = l.fs * 3;
	l.ypad2 = l.fs * 4.5 + (o.grid ? l.fs * 1.2 : 0);
	l.width = hm->cols * l.box + 2 * l.xpad;
	if (l.width < MIN_WIDTH)
		l.width = MIN_WIDTH;
	l.height = hm->rows * l.box + l.ypad1 + l.ypad2;

	fprintf(fp, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
		"\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
		"<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" onload=\"init(evt)\" "
		"viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		l.width, l.height, l.width, l.height);
	fputs(svg_script, fp);
	fprintf(fp, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"rgb(255,255,255)\" />\n",
		l.width, l.height);
	text(fp, &l, "rgb(0,0,0)", l.fs + 5, floor(l.width / 2), l.fs * 2, "middle", NULL, title);
	text(fp, &l, "rgb(0,0,0)", l.fs, floor(l.width / 2), l.height - l.fs - 1, "middle", NULL,
	     "Time");
	text(fp, &l, "rgb(0,0,0)", l.fs, l.xpad, l.height - 2.5 * l.fs, "start", "id=\"details\"",
	     " ");
	if (o.grid)
		grid(fp, hm, &l);
	cells(fp, hm, &l);
	if (o.grid)
		grid_labels(fp, hm, &l);
	fputs("</svg>\n", fp);
	return ferror(fp) ? -EIO : 0;
}
