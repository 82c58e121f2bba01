// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The tree drawn as one SVG, laid out as flamegraph.pl lays it out
 * (same paddings, frame height, fonts, title, "Reset Zoom", "Search",
 * "ic", details and "Matched:" lines), so people find their way at once.
 * Siblings are sorted by name (bytewise); in a flame chart they keep
 * their time order. Frames narrower than minwidth are left out with
 * everything above them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "core/escape.h"
#include "flame-priv.h"
#include "flame-svg.h"

#define XPAD 10.0
#define FRAMEPAD 1.0
#define SEARCH_COLOR "rgb(230,0,230)"

struct svg {
	struct ember_flame *fl;
	FILE *fp;
	const char *title, *subtitle, *countname, *nametype, *fonttype, *notes;
	double width, frame_height, fontsize, fontwidth;
	enum ember_flame_palette palette;
	bool inverted, negate, diff;
	struct ember_flame_palette_map *map;
	const struct ember_flame_nameattr *nameattr;
	const char *encoding;	/* NULL: UTF-8 */
	bool bytes;		/* names written as bytes (another encoding) */
	char bg1[8], bg2[8];
	double factor;
	bool random_colors;
	uint64_t rng;		/* xorshift state for random colours */

	double timemax, wpt, minwidth_time;
	double ypad1, ypad2, ypad3, height;
	double maxdelta;
	unsigned int depthmax;
	uint32_t *order;	/* drawn nodes, in the order written */
	double *starts;		/* beside order: each one's left edge in counts */
	size_t nr_order;
};

static int child_cmp(const void *a, const void *b, void *arg)
{
	const struct ember_flame *fl = arg;
	const struct flame_node *x = &fl->nodes[*(const uint32_t *)a];
	const struct flame_node *y = &fl->nodes[*(const uint32_t *)b];
	const struct flame_frame *fx, *fy;
	size_t n;
	int c;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	fx = &fl->frames[x->frame];
	fy = &fl->frames[y->frame];
	n = fx->len < fy->len ? fx->len : fy->len;
	c = memcmp(fx->name, fy->name, n);
	if (c)
		return c;
	if (fx->len != fy->len)
		return fx->len < fy->len ? -1 : 1;
	return (int)fx->kind - (int)fy->kind;
}

/*
 * Picks node to draw, at start, when its parent is drawn and it is at
 * least minwidth wide; pos[] of a drawn node is its place in order + 1.
 */
static void pick(struct svg *s, uint32_t *pos, uint32_t idx, double start)
{
	const struct flame_node *n = &s->fl->nodes[idx];

	if (!pos[n->parent] || n->value <= 0 || n->value < s->minwidth_time)
		return;
	pos[idx] = s->nr_order + 1;
	s->starts[s->nr_order] = start;
	s->order[s->nr_order++] = idx;
	if (n->depth > s->depthmax)
		s->depthmax = n->depth;
}

/*
 * The children of parent into *kids by name (child_cmp()'s order), placed
 * side by side from the parent's start, and the ones to draw picked.
 */
static int place_children(struct svg *s, uint32_t *pos, uint32_t parent, uint32_t **kids,
			  size_t *alloc)
{
	struct ember_flame *fl = s->fl;
	double cursor = s->starts[pos[parent] - 1];
	size_t n = 0;

	for (uint32_t c = fl->nodes[parent].first_child; c != FLAME_NONE;
	     c = fl->nodes[c].next_sibling) {
		if (n == *alloc) {
			size_t grown_alloc = *alloc ? *alloc * 2 : 64;
			uint32_t *grown = realloc(*kids, grown_alloc * sizeof(*grown));

			if (!grown)
				return -ENOMEM;
			*kids = grown;
			*alloc = grown_alloc;
		}
		(*kids)[n++] = c;
	}
	if (n > 1)
		qsort_r(*kids, n, sizeof(**kids), child_cmp, fl);
	for (size_t i = 0; i < n; i++) {
		pick(s, pos, (*kids)[i], cursor);
		cursor += fl->nodes[(*kids)[i]].value;
	}
	return 0;
}

/*
 * Places the nodes (start in counts) and picks the ones to draw: root
 * first, then children grouped by parent in index order. Only the children
 * of drawn nodes are placed and sorted: in a tree of ten million nodes
 * narrower than a pixel, that is the few thousand that can be seen.
 */
static int layout(struct svg *s)
{
	struct ember_flame *fl = s->fl;
	uint32_t nr = fl->nr_nodes;
	uint32_t *pos = calloc(nr, sizeof(*pos));
	uint32_t *kids = NULL;
	size_t kids_alloc = 0;
	int err = 0;

	/* Pages of these that no drawn node reaches are never touched. */
	s->order = malloc(nr * sizeof(*s->order));
	s->starts = malloc(nr * sizeof(*s->starts));
	if (!pos || !s->order || !s->starts) {
		free(pos);
		return -ENOMEM;
	}
	pos[0] = 1;
	s->starts[0] = 0;
	s->order[s->nr_order++] = 0;
	s->depthmax = 0;
	s->maxdelta = 1;
	for (uint32_t i = 0; i < nr; i++) {
		double delta = fl->leaves[i].self - flame_before_self(fl, i);

		if (fabs(delta) > s->maxdelta)
			s->maxdelta = fabs(delta);
	}
	if (fl->flamechart) {
		/* A flame chart keeps time order: nodes were made left to right. */
		for (uint32_t i = 1; i < nr; i++)
			pick(s, pos, i, fl->chart_start[i]);
	} else {
		/* A parent precedes its children: it is drawn or not before they come. */
		for (uint32_t p = 0; p < nr && !err; p++)
			if (pos[p])
				err = place_children(s, pos, p, &kids, &kids_alloc);
	}
	free(pos);
	free(kids);
	return err;
}

static void kind_suffix(const struct flame_frame *f, char out[5])
{
	static const char letters[EMBER_FLAME_NR_KINDS] = { 0, 'k', 'j', 'i', 'w' };

	out[0] = '\0';
	if (f->kind != EMBER_FLAME_USER && flame_suffix_kind(f->name, f->len) != f->kind)
		snprintf(out, 5, "_[%c]", letters[f->kind]);
}

/* A number in [0, 1), xorshift64*: random colours need no quality, only variety. */
static double rand01(struct svg *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return (double)((s->rng * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

int ember_flame_bgcolors__parse(const char *spec, char stop1[8], char stop2[8])
{
	static const struct {
		const char *name, *c1, *c2;
	} grads[] = {
		{ "yellow", "#eeeeee", "#eeeeb0" },
		{ "blue", "#eeeeee", "#e0e0ff" },
		{ "green", "#eef2ee", "#e0ffe0" },
		{ "grey", "#f8f8f8", "#e8e8e8" },
	};

	if (!spec)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(grads) / sizeof(grads[0]); i++) {
		if (!strcmp(spec, grads[i].name)) {
			memcpy(stop1, grads[i].c1, 8);
			memcpy(stop2, grads[i].c2, 8);
			return 0;
		}
	}
	/*
	 * flamegraph.pl takes '#' and any six characters; only hex digits
	 * make a colour, and the value goes into an attribute unescaped.
	 */
	if (strlen(spec) != 7 || spec[0] != '#' || strspn(spec + 1, "0123456789abcdefABCDEF") != 6)
		return -EINVAL;
	memcpy(stop1, spec, 8);
	memcpy(stop2, spec, 8);
	return 0;
}

/* The background flamegraph.pl picks for a palette when --bgcolors is not given. */
static const char *default_bgcolors(enum ember_flame_palette palette)
{
	switch (palette) {
	case EMBER_FLAME_PALETTE_MEM:
		return "green";
	case EMBER_FLAME_PALETTE_IO:
	case EMBER_FLAME_PALETTE_WAKEUP:
	case EMBER_FLAME_PALETTE_CHAIN:
		return "blue";
	case EMBER_FLAME_PALETTE_HOT:
	case EMBER_FLAME_PALETTE_JAVA:
	case EMBER_FLAME_PALETTE_JS:
	case EMBER_FLAME_PALETTE_PERL:
		return "yellow";
	default:
		return "grey";
	}
}

static void xml_text(const struct svg *s, const char *str, size_t len)
{
	escape_write(s->fp, str, len, s->bytes ? ESCAPE_XML_BYTES : ESCAPE_XML);
}

static int frame_color(struct svg *s, const struct flame_node *n, char *buf, size_t size)
{
	const struct flame_frame *f = n->frame == FLAME_NONE ? NULL : &s->fl->frames[n->frame];
	const char *name = f ? f->name : "";
	char suffix[5] = "";
	char *key = NULL;
	const char *found;
	int err = 0;

	if (!strcmp(name, "--")) {
		snprintf(buf, size, "rgb(160,160,160)");
		return 0;
	}
	if (!strcmp(name, "-")) {
		snprintf(buf, size, "rgb(200,200,200)");
		return 0;
	}
	if (s->diff) {
		/* Red grew, blue shrank, by what ends in this frame (flamegraph.pl). */
		uint32_t idx = n - s->fl->nodes;
		double v = s->fl->leaves[idx].self - flame_before_self(s->fl, idx);
		int r = 255, g = 255, b = 255;

		if (s->negate)
			v = -v;
		if (v > 0)
			g = b = (int)(210 * (s->maxdelta - v) / s->maxdelta);
		else if (v < 0)
			r = g = (int)(210 * (s->maxdelta + v) / s->maxdelta);
		snprintf(buf, size, "rgb(%d,%d,%d)", r, g, b);
		return 0;
	}
	/* Colour by the name as folded text spells it, kind suffix included. */
	if (f)
		kind_suffix(f, suffix);
	if (suffix[0]) {
		key = malloc(f->len + sizeof(suffix));
		if (!key)
			return -ENOMEM;
		memcpy(key, f->name, f->len);
		strcpy(key + f->len, suffix);
		name = key;
	}
	found = s->map ? ember_flame_palette_map__get(s->map, name) : NULL;
	if (found) {
		snprintf(buf, size, "%s", found);
	} else {
		enum ember_flame_kind kind = f ? f->kind : EMBER_FLAME_USER;

		if (s->random_colors)
			flame_palette_color_v(s->palette, name, kind, rand01(s), rand01(s), rand01(s),
					      buf, size);
		else
			ember_flame_palette__color(s->palette, name, kind, buf, size);
		if (s->map)
			err = ember_flame_palette_map__set(s->map, name, buf);
	}
	free(key);
	return err;
}

static void write_header(struct svg *s)
{
	FILE *fp = s->fp;

	fputs("<?xml version=\"1.0\" encoding=\"", fp);
	escape_puts(fp, s->encoding ? s->encoding : "UTF-8", ESCAPE_XML);
	fputs("\" standalone=\"no\"?>\n", fp);
	fprintf(fp,
		"<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" onload=\"init(evt)\" "
		"viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\" "
		"xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n",
		s->width, s->height, s->width, s->height);
	fprintf(fp, "<!-- Flame graph drawn by ember flamegraph: click a frame to zoom, "
		    "Ctrl-F to search. -->\n");
	if (s->notes) {
		const char *run = s->notes;

		fputs("<!-- NOTES: ", fp);
		/* "--" may not appear inside a comment, nor '-' at its end. */
		for (const char *p = s->notes; *p; p++) {
			if (*p == '-' && (p[1] == '-' || !p[1])) {
				xml_text(s, run, p - run);
				fputs("- ", fp);
				run = p + 1;
			}
		}
		xml_text(s, run, strlen(run));
		fputs(" -->\n", fp);
	}
	fprintf(fp, "<defs>\n\t<linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\" >\n");
	fprintf(fp, "\t\t<stop stop-color=\"%s\" offset=\"5%%\" />\n"
		    "\t\t<stop stop-color=\"%s\" offset=\"95%%\" />\n",
		s->bg1, s->bg2);
	fprintf(fp, "\t</linearGradient>\n</defs>\n");
	fprintf(fp, "<style type=\"text/css\">\n\ttext { font-family:");
	escape_puts(fp, s->fonttype, ESCAPE_XML);
	fprintf(fp,
		"; font-size:%gpx; fill:rgb(0,0,0); }\n"
		"\t#search, #ignorecase { opacity:0.1; cursor:pointer; }\n"
		"\t#search:hover, #search.show, #ignorecase:hover, #ignorecase.show { opacity:1; }\n"
		"\t#subtitle { text-anchor:middle; fill:rgb(160,160,160); }\n"
		"\t#title { text-anchor:middle; font-size:%gpx; }\n"
		"\t#unzoom { cursor:pointer; }\n"
		"\t#frames > *:hover { stroke:black; stroke-width:0.5; cursor:pointer; }\n"
		"\t.hide { display:none; }\n"
		"\t.parent { opacity:0.5; }\n"
		"</style>\n",
		s->fontsize, s->fontsize + 5);
	fprintf(fp, "<script type=\"text/ecmascript\">\n<![CDATA[\n");
	fprintf(fp, "var cfg = { width: %.0f, xpad: %g, fontsize: %g, fontwidth: %g, nametype: ",
		s->width, XPAD, s->fontsize, s->fontwidth);
	fputc('"', fp);
	escape_puts(fp, s->nametype, ESCAPE_JS);
	fputc('"', fp);
	fprintf(fp, ", searchcolor: \"%s\" };\n", SEARCH_COLOR);
	fputs(flame_svg_script, fp);
	fprintf(fp, "]]>\n</script>\n");
	fprintf(fp, "<rect x=\"0.0\" y=\"0\" width=\"%.1f\" height=\"%.1f\" fill=\"url(#background)\" />\n",
		s->width, s->height);
}

static void write_text(struct svg *s, const char *id, double x, double y, const char *text,
		       const char *extra)
{
	fprintf(s->fp, "<text id=\"%s\" x=\"%.2f\" y=\"%g\"%s>", id, x, y, extra ? extra : "");
	xml_text(s, text, strlen(text));
	fprintf(s->fp, "</text>\n");
}

static void write_controls(struct svg *s)
{
	write_text(s, "title", floor(s->width / 2), s->fontsize * 2, s->title, NULL);
	if (s->subtitle)
		write_text(s, "subtitle", floor(s->width / 2), s->fontsize * 4, s->subtitle, NULL);
	write_text(s, "details", XPAD, s->height - s->ypad2 / 2, " ", NULL);
	write_text(s, "unzoom", XPAD, s->fontsize * 2, "Reset Zoom", " class=\"hide\"");
	write_text(s, "search", s->width - XPAD - 100, s->fontsize * 2, "Search", NULL);
	write_text(s, "ignorecase", s->width - XPAD - 16, s->fontsize * 2, "ic", NULL);
	write_text(s, "matched", s->width - XPAD - 100, s->height - s->ypad2 / 2, " ", NULL);
}

/* The frame's label for its width: all of it, or its start and "..". */
static void write_label(FILE *fp, const char *name, size_t len, double px, struct svg *s)
{
	double cw = s->fontsize * s->fontwidth;
	size_t chars = cw > 0 ? (size_t)floor(px / cw) : 0, total;
	size_t cut;

	if (chars < 3)
		return;
	cut = flame_utf8_prefix(name, len, chars, &total);
	if (total <= chars) {
		xml_text(s, name, len);
		return;
	}
	cut = flame_utf8_prefix(name, len, chars - 2, NULL);
	xml_text(s, name, cut);
	fputs("..", fp);
}

/* A --nameattr value for the frame: by its folded spelling (kind suffix), then its bare name. */
static const char *attr_of(const struct svg *s, const struct flame_frame *f, const char *key)
{
	char suffix[5], *full;
	const char *v;

	if (!s->nameattr || !f)
		return NULL;
	kind_suffix(f, suffix);
	full = malloc(f->len + sizeof(suffix));
	if (!full)
		return NULL;
	memcpy(full, f->name, f->len);
	strcpy(full + f->len, suffix);
	v = ember_flame_nameattr__get(s->nameattr, full, key);
	if (!v) {
		full[flame_display_len(f->name, f->len)] = '\0';
		v = ember_flame_nameattr__get(s->nameattr, full, key);
	}
	free(full);
	return v;
}

/* The frame's <g> attributes and, with href, the opening of its link (flamegraph.pl's group_start). */
static bool write_group_attrs(struct svg *s, const struct flame_frame *f)
{
	static const char *const keys[] = { "class", "style", "onmouseover", "onmouseout",
					     "onclick" };
	const char *v;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if ((v = attr_of(s, f, keys[i]))) {
			fprintf(s->fp, " %s=\"", keys[i]);
			xml_text(s, v, strlen(v));
			fputc('"', s->fp);
		}
	}
	if ((v = attr_of(s, f, "g_extra")) && *v)
		fprintf(s->fp, " %s", v);
	return attr_of(s, f, "href") != NULL;
}

static void write_link(struct svg *s, const struct flame_frame *f)
{
	const char *href = attr_of(s, f, "href"), *target = attr_of(s, f, "target");
	const char *extra = attr_of(s, f, "a_extra");

	fputs("<a xlink:href=\"", s->fp);
	xml_text(s, href, strlen(href));
	fputs("\" target=\"", s->fp);
	target = target && *target ? target : "_top";
	xml_text(s, target, strlen(target));
	fputc('"', s->fp);
	if (extra && *extra)
		fprintf(s->fp, " %s", extra);
	fputs(">", s->fp);
}

/*
 * A frame's fixed text gathered before one fwrite: a few dozen fprintf
 * calls a frame, each parsing its format, cost more than the rest of
 * the frame.
 */
struct out {
	char buf[512];
	size_t len;
};

static void out_flush(struct out *o, FILE *fp)
{
	if (o->len)
		fwrite(o->buf, 1, o->len, fp);
	o->len = 0;
}

static void out_put(struct out *o, FILE *fp, const char *str, size_t len)
{
	if (o->len + len > sizeof(o->buf)) {
		out_flush(o, fp);
		if (len > sizeof(o->buf)) {
			fwrite(str, 1, len, fp);
			return;
		}
	}
	memcpy(o->buf + o->len, str, len);
	o->len += len;
}

#define OUT_LIT(o, fp, lit) out_put(o, fp, lit, sizeof(lit) - 1)

static void out_str(struct out *o, FILE *fp, const char *str)
{
	out_put(o, fp, str, strlen(str));
}

/* v as "%.<prec>f" prints it. */
static void out_fixed(struct out *o, FILE *fp, double v, int prec)
{
	char num[400];
	int n = flame_fmt_fixed(num, sizeof(num), v, prec);

	out_put(o, fp, num, n > 0 ? (size_t)n : 0);
}

/*
 * A "%.1f" edge, and the double strtod() reads back from that text: the
 * nearest one to q / 10, which the (correctly rounded) division is.
 */
static double edge_1f(char *buf, size_t size, double x)
{
	int n = flame_fmt_fixed(buf, size, x, 1);

	if (n > 0 && (size_t)n < size && x >= 0 && x < 0x1p50) {
		uint64_t q = 0;
		bool neg = false;

		for (int i = 0; i < n; i++) {
			if (buf[i] == '-')
				neg = true;
			else if (buf[i] != '.')
				q = q * 10 + (buf[i] - '0');
		}
		if (!neg)
			return (double)q / 10;
	}
	return strtod(buf, NULL);
}

/* The frame of s->order[k]. */
static int write_frame(struct svg *s, size_t k)
{
	uint32_t idx = s->order[k];
	struct ember_flame *fl = s->fl;
	const struct flame_node *n = &fl->nodes[idx];
	const struct flame_frame *f = idx ? &fl->frames[n->frame] : NULL;
	const char *name = "all";
	size_t len = 3;
	double value = idx ? n->value : s->timemax;
	double start = idx ? s->starts[k] : 0;
	double x1 = XPAD + start * s->wpt, x2 = XPAD + (start + value) * s->wpt;
	double y1, y2;
	char color[64], count[64], num[64], x1s[400], x2s[400];
	double x1r, x2r;
	const char *title = NULL;
	FILE *fp = s->fp;
	struct out o = { .len = 0 };
	bool link = false;
	int err;

	if (f) {
		name = f->name;
		len = flame_display_len(f->name, f->len);
	}
	if (!s->inverted) {
		y1 = s->height - s->ypad2 - (n->depth + 1) * s->frame_height + FRAMEPAD;
		y2 = s->height - s->ypad2 - n->depth * s->frame_height;
	} else {
		y1 = s->ypad1 + (s->subtitle ? s->ypad3 : 0) + n->depth * s->frame_height;
		y2 = y1 + s->frame_height - FRAMEPAD;
	}
	err = frame_color(s, n, color, sizeof(color));
	if (err)
		return err;

	OUT_LIT(&o, fp, "<g data-s=\"");
	flame_fmt_num(num, sizeof(num), start);
	out_str(&o, fp, num);
	OUT_LIT(&o, fp, "\" data-v=\"");
	flame_fmt_num(num, sizeof(num), value);
	out_str(&o, fp, num);
	OUT_LIT(&o, fp, "\" data-d=\"");
	flame_fmt_num(num, sizeof(num), n->depth);
	out_str(&o, fp, num);
	OUT_LIT(&o, fp, "\"");
	if (s->nameattr) {
		out_flush(&o, fp);
		link = write_group_attrs(s, f);
		title = attr_of(s, f, "title");
	}
	OUT_LIT(&o, fp, "><title>");
	out_flush(&o, fp);
	if (title && *title) {
		xml_text(s, title, strlen(title));
	} else {
		xml_text(s, name, len);
		/* --factor scales what the tooltip counts, as flamegraph.pl's $samples_txt. */
		/* Rounded by printf's "%.0f" (half to even) as the script's sprintf. */
		flame_fmt_count(count, sizeof(count),
				s->factor *
					(fl->weighted ? (double)flame_node_samples(fl, idx)
						      : (idx ? n->value : fl->nodes[0].value)));
		OUT_LIT(&o, fp, " (");
		out_str(&o, fp, count);
		OUT_LIT(&o, fp, " ");
		out_flush(&o, fp);
		xml_text(s, s->countname, strlen(s->countname));
		if (!idx) {
			OUT_LIT(&o, fp, ", 100%)");
		} else {
			OUT_LIT(&o, fp, ", ");
			out_fixed(&o, fp, 100 * n->value / s->timemax, 2);
			OUT_LIT(&o, fp, "%");
			if (s->diff) {
				double d = fl->leaves[idx].self - flame_before_self(fl, idx);

				if (s->negate)
					d = -d;
				OUT_LIT(&o, fp, "; ");
				if (d > 0)
					OUT_LIT(&o, fp, "+");
				out_fixed(&o, fp, 100 * d / s->timemax, 2);
				OUT_LIT(&o, fp, "%");
			}
			OUT_LIT(&o, fp, ")");
		}
	}
	OUT_LIT(&o, fp, "</title>");
	if (link) {
		out_flush(&o, fp);
		write_link(s, f);
	}
	/* Rounded as flamegraph.pl rounds: the edges, then the width between them. */
	x1r = edge_1f(x1s, sizeof(x1s), x1);
	x2r = edge_1f(x2s, sizeof(x2s), x2);
	OUT_LIT(&o, fp, "<rect x=\"");
	out_str(&o, fp, x1s);
	OUT_LIT(&o, fp, "\" y=\"");
	out_fixed(&o, fp, y1, 1);
	OUT_LIT(&o, fp, "\" width=\"");
	out_fixed(&o, fp, x2r - x1r, 1);
	OUT_LIT(&o, fp, "\" height=\"");
	out_fixed(&o, fp, y2 - y1, 1);
	OUT_LIT(&o, fp, "\" fill=\"");
	out_str(&o, fp, color);
	OUT_LIT(&o, fp, "\" rx=\"2\" ry=\"2\" />\n<text x=\"");
	out_fixed(&o, fp, x1 + 3, 2);
	OUT_LIT(&o, fp, "\" y=\"");
	out_fixed(&o, fp, 3 + (y1 + y2) / 2, 1);
	OUT_LIT(&o, fp, "\">");
	out_flush(&o, fp);
	write_label(fp, name, len, x2 - x1, s);
	if (link)
		OUT_LIT(&o, fp, "</text>\n</a>\n</g>\n");
	else
		OUT_LIT(&o, fp, "</text>\n</g>\n");
	out_flush(&o, fp);
	return 0;
}

int ember_flame__write_svg(struct ember_flame *fl, FILE *fp, const struct ember_flame_svg_opts *o,
			   struct ember_flame_svg_stats *stats)
{
	struct ember_flame_svg_opts def = { .sz = sizeof(def), .minwidth = -1 };
	struct svg s = { .fl = fl, .fp = fp };
	double minwidth, total;
	int err = 0;

	if (!fl || !fp)
		return -EINVAL;
	if (!o || !o->sz)
		o = &def;
	if (o->sz < offsetof(struct ember_flame_svg_opts, notes) + sizeof(o->notes))
		return -EINVAL;
	s.title = o->title ? o->title
		  : fl->flamechart ? "Flame Chart"
		  : o->inverted	   ? "Icicle Graph"
				   : "Flame Graph";
	s.subtitle = o->subtitle && *o->subtitle ? o->subtitle : NULL;
	s.countname = o->countname ? o->countname : "samples";
	s.nametype = o->nametype ? o->nametype : "Function:";
	s.fonttype = o->fonttype ? o->fonttype : "Verdana";
	s.notes = o->notes;
	s.width = o->width ? o->width : 1200;
	s.frame_height = o->height ? o->height : 16;
	s.fontsize = o->fontsize > 0 ? o->fontsize : 12;
	s.fontwidth = o->fontwidth > 0 ? o->fontwidth : 0.59;
	s.palette = o->palette;
	s.inverted = o->inverted;
	s.negate = o->negate;
	s.map = o->palette_map;
	s.diff = fl->is_diff;
	s.factor = 1;
	if (o->sz >= offsetof(struct ember_flame_svg_opts, nameattr) + sizeof(o->nameattr)) {
		s.encoding = o->encoding && *o->encoding ? o->encoding : NULL;
		s.bytes = s.encoding && strcasecmp(s.encoding, "UTF-8") && strcasecmp(s.encoding, "UTF8");
		if (o->factor)
			s.factor = o->factor;
		s.random_colors = o->random_colors;
		s.nameattr = o->nameattr;
		if (o->bgcolors && ember_flame_bgcolors__parse(o->bgcolors, s.bg1, s.bg2))
			return -EINVAL;
	}
	if (!s.bg1[0])
		ember_flame_bgcolors__parse(default_bgcolors(o->palette), s.bg1, s.bg2);
	if (!isfinite(s.factor) || s.factor <= 0 ||
	    (s.encoding && strpbrk(s.encoding, "\"<>&'")))
		return -EINVAL;
	if (s.random_colors) {
		s.rng = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid() ^
			(uintptr_t)&s;
		if (!s.rng)
			s.rng = 1;
	}
	minwidth = o->minwidth >= 0 ? o->minwidth : 0.1;
	if (s.width <= 2 * XPAD || s.width > 1e6 || s.frame_height > 1e4 || !isfinite(s.fontsize) ||
	    s.fontsize > 1e4 || !isfinite(s.fontwidth) || !isfinite(minwidth) ||
	    (unsigned int)s.palette >= EMBER_FLAME_NR_PALETTES)
		return -EINVAL;

	err = flame_sum(fl);
	if (err)
		return err;
	total = fl->nodes[0].value;
	if (total <= 0)
		return -ENODATA;
	s.timemax = o->total > total ? o->total : total;
	s.wpt = (s.width - 2 * XPAD) / s.timemax;
	s.minwidth_time = o->minwidth_percent ? s.timemax * minwidth / 100 : minwidth / s.wpt;
	s.ypad1 = s.fontsize * 3;
	s.ypad2 = s.fontsize * 2 + 10;
	s.ypad3 = s.fontsize * 2;

	err = layout(&s);
	if (err)
		goto out;
	s.height = (s.depthmax + 1) * s.frame_height + s.ypad1 + s.ypad2 + (s.subtitle ? s.ypad3 : 0);

	write_header(&s);
	write_controls(&s);
	fprintf(fp, "<g id=\"frames\">\n");
	for (size_t i = 0; i < s.nr_order && !err; i++)
		err = write_frame(&s, i);
	fprintf(fp, "</g>\n</svg>\n");
	if (!err && (fflush(fp) || ferror(fp)))
		err = -EIO;
	if (stats) {
		stats->frames = s.nr_order;
		stats->pruned = fl->nr_nodes - s.nr_order;
		stats->depth = s.depthmax;
	}
out:
	free(s.order);
	free(s.starts);
	return err;
}
