// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flame graph SVG (lib/flame/svg.c) and its palettes: frames laid out
 * from the counts (each frame's data-v is its count, children side by side
 * within their parent), minwidth pruning, escaping of any bytes a name
 * may hold, flamegraph.pl's colours, the consistent palette file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ember/flame.h>

#include "test.h"

static struct ember_flame *tree_of(const char *folded)
{
	struct ember_flame *fl = ember_flame__new(NULL);
	FILE *fp = fmemopen((void *)folded, strlen(folded), "r");

	ember_flame__read_folded(fl, fp, NULL, NULL);
	fclose(fp);
	return fl;
}

/* The SVG in a heap string (the memstream's pointers live on the heap too). */
struct mem {
	char *buf;
	size_t len;
};

static char *svg_of(struct ember_flame *fl, const struct ember_flame_svg_opts *o,
		    struct ember_flame_svg_stats *st, int *err)
{
	struct mem *m = calloc(1, sizeof(*m));
	FILE *fp = open_memstream(&m->buf, &m->len);
	char *buf;

	*err = ember_flame__write_svg(fl, fp, o, st);
	fclose(fp);
	buf = m->buf;
	free(m);
	return buf;
}

static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The data-v of the frame whose title starts with name + " (". */
static double frame_value(const char *svg, const char *name, double *start, int *depth)
{
	char want[256];
	const char *t, *g;

	snprintf(want, sizeof(want), "<title>%s (", name);
	t = strstr(svg, want);
	if (!t)
		return -1;
	for (g = t; g > svg && strncmp(g, "<g ", 3); g--)
		;
	if (start)
		*start = strtod(strstr(g, "data-s=\"") + 8, NULL);
	if (depth)
		*depth = atoi(strstr(g, "data-d=\"") + 8);
	return strtod(strstr(g, "data-v=\"") + 8, NULL);
}

TEST(flame_svg_layout_from_counts)
{
	struct ember_flame *fl = tree_of("m;a;x 30\nm;a;y 10\nm;b 60\nn 100\n");
	struct ember_flame_svg_stats st;
	double s;
	int err, d;
	char *svg = svg_of(fl, NULL, &st, &err);

	CHECK_EQ(err, 0);
	CHECK_EQ(st.frames, 7);
	CHECK_EQ(st.pruned, 0);
	CHECK_EQ(st.depth, 3);
	CHECK_EQ(count_of(svg, "<g data-s="), 7);
	CHECK_EQ(frame_value(svg, "all", &s, &d), 200);
	CHECK_EQ(d, 0);
	/* Siblings by name, side by side: m [0,100), n [100,200); in m: a [0,40), b [40,100). */
	CHECK_EQ(frame_value(svg, "m", &s, &d), 100);
	CHECK_EQ(s, 0);
	CHECK_EQ(d, 1);
	CHECK_EQ(frame_value(svg, "n", &s, NULL), 100);
	CHECK_EQ(s, 100);
	CHECK_EQ(frame_value(svg, "a", &s, NULL), 40);
	CHECK_EQ(s, 0);
	CHECK_EQ(frame_value(svg, "b", &s, &d), 60);
	CHECK_EQ(s, 40);
	CHECK_EQ(d, 2);
	CHECK_EQ(frame_value(svg, "y", &s, &d), 10);
	CHECK_EQ(s, 30);
	CHECK_EQ(d, 3);
	/* Tooltips as flamegraph.pl's. */
	CHECK(strstr(svg, "<title>b (60 samples, 30.00%)</title>") != NULL);
	CHECK(strstr(svg, "<title>all (200 samples, 100%)</title>") != NULL);
	CHECK(strstr(svg, ">Reset Zoom</text>") != NULL);
	CHECK(strstr(svg, "<text id=\"title\"") != NULL);
	CHECK(strstr(svg, "Flame Graph</text>") != NULL);
	free(svg);
	ember_flame__delete(fl);
}

TEST(flame_svg_minwidth)
{
	struct ember_flame *fl = tree_of("big;x 100000\nsmall;y 1\n");
	struct ember_flame_svg_opts o = { .sz = sizeof(o), .minwidth = -1 };
	struct ember_flame_svg_stats st;
	int err;
	char *svg;

	/* 1 of 100001 is 0.0118 pixels of 1180: below the default 0.1, gone with its child. */
	svg = svg_of(fl, &o, &st, &err);
	CHECK_EQ(err, 0);
	CHECK_EQ(st.frames, 3);
	CHECK_EQ(st.pruned, 2);
	CHECK(!strstr(svg, "small"));
	free(svg);
	o.minwidth = 0;
	svg = svg_of(fl, &o, &st, &err);
	CHECK_EQ(st.frames, 5);
	free(svg);
	/* As a percentage of the total. */
	o.minwidth = 50;
	o.minwidth_percent = true;
	svg = svg_of(fl, &o, &st, &err);
	CHECK_EQ(st.frames, 3);
	free(svg);
	ember_flame__delete(fl);
}

TEST(flame_svg_escaping)
{
	/* Markup, quotes, a broken UTF-8 byte, a control character, "]]>". */
	struct ember_flame *fl = tree_of("a<b>&\"c';\xff\xc3\x28;ok\xc3\xa9 5\nx]]>y;z 2\n");
	struct ember_flame_svg_opts o = { .sz = sizeof(o), .minwidth = -1,
					  .title = "T<i>tle & \"co\"",
					  .nametype = "Func\"]]></script>:", .notes = "a--b-" };
	uint32_t stack[1];
	int err;
	char *svg;

	/* Folded text refuses control characters; symbol names may still hold them. */
	stack[0] = ember_flame__frame(fl, "\x1b[1m", 4, EMBER_FLAME_USER);
	ember_flame__add(fl, stack, 1, 3, 3, EMBER_FLAME_AFTER);
	svg = svg_of(fl, &o, NULL, &err);
	CHECK_EQ(err, 0);
	CHECK(strstr(svg, "a&lt;b&gt;&amp;&quot;c&apos; (") != NULL);
	CHECK(strstr(svg, "\xef\xbf\xbd\xef\xbf\xbd( (") != NULL);
	CHECK(strstr(svg, "ok\xc3\xa9 (") != NULL);
	CHECK(strstr(svg, "\xef\xbf\xbd[1m (") != NULL);
	CHECK(strstr(svg, "T&lt;i&gt;tle &amp; &quot;co&quot;") != NULL);
	CHECK(!strstr(svg, "\xff"));
	CHECK(!strstr(svg, "\x1b"));
	/* The only "]]>" is the one closing the script. */
	CHECK_EQ(count_of(svg, "]]>"), 1);
	/* Only the comments' own "<!--" and "-->": the notes' "--" is broken up. */
	CHECK_EQ(count_of(svg, "--"), 4);
	free(svg);
	ember_flame__delete(fl);
}

TEST(flame_svg_many_children_merge)
{
	/*
	 * A parent of more than a few children finds them in a table, the
	 * others walk their list: stacks seen again merge either way.
	 */
	struct ember_flame *fl = tree_of("r;c1 1\nr;c2 1\nr;c3 1\nr;c4 1\nq;c1 1\nr;c5 1\n"
					 "r;c6 1\nr;c3 1\nr;c7 2\nr;c1 1\nr;c7 1\nq;c1;x 1\n");
	struct ember_flame_svg_opts o = { .sz = sizeof(o), .minwidth = -1 };
	int err;
	char *svg = svg_of(fl, &o, NULL, &err);

	CHECK_EQ(err, 0);
	/* all, r, q, c1 to c7 under r, c1 and x under q */
	CHECK_EQ((int)ember_flame__nr_nodes(fl), 12);
	CHECK_EQ(frame_value(svg, "r", NULL, NULL), 11);
	CHECK_EQ(frame_value(svg, "c3", NULL, NULL), 2);
	CHECK_EQ(frame_value(svg, "c7", NULL, NULL), 3);
	CHECK_EQ(frame_value(svg, "q", NULL, NULL), 2);
	CHECK_EQ(frame_value(svg, "x", NULL, NULL), 1);
	free(svg);
	ember_flame__delete(fl);
}

TEST(flame_svg_samples_once_weighted)
{
	/* Integral stacks first: their samples are their counts until one's are not. */
	struct ember_flame *fl = tree_of("a;b 2\na;c 3\n");
	struct ember_flame_svg_opts o = { .sz = sizeof(o), .minwidth = -1 };
	uint32_t stack[2];
	int err;
	char *svg;

	stack[0] = ember_flame__frame(fl, "a", 1, EMBER_FLAME_USER);
	stack[1] = ember_flame__frame(fl, "d", 1, EMBER_FLAME_USER);
	/* 10 counted by one sample: a weighted graph, whose titles count samples. */
	ember_flame__add(fl, stack, 2, 10, 1, EMBER_FLAME_AFTER);
	svg = svg_of(fl, &o, NULL, &err);
	CHECK_EQ(err, 0);
	CHECK(strstr(svg, "<title>all (6 samples, 100%)") != NULL);
	CHECK(strstr(svg, "<title>a (6 samples,") != NULL);
	CHECK(strstr(svg, "<title>c (3 samples,") != NULL);
	CHECK(strstr(svg, "<title>d (1 samples,") != NULL);
	CHECK_EQ(frame_value(svg, "a", NULL, NULL), 15);
	CHECK_EQ(frame_value(svg, "d", NULL, NULL), 10);
	free(svg);
	ember_flame__delete(fl);
}

TEST(flame_svg_nothing_to_draw)
{
	struct ember_flame *fl = ember_flame__new(NULL);
	struct ember_flame_svg_opts o = { .sz = sizeof(o), .minwidth = -1, .width = 5 };
	int err;
	char *svg = svg_of(fl, NULL, NULL, &err);

	CHECK_EQ(err, -ENODATA);
	free(svg);
	ember_flame__delete(fl);
	fl = tree_of("a 1\n");
	svg = svg_of(fl, &o, NULL, &err);
	CHECK_EQ(err, -EINVAL);
	free(svg);
	ember_flame__delete(fl);
}

TEST(flame_svg_diff_colours)
{
	/* a grew (red), b shrank (blue), c unchanged (white). */
	struct ember_flame *fl = tree_of("m;a 10 30\nm;b 30 10\nm;c 5 5\n");
	struct ember_flame_svg_opts o = { .sz = sizeof(o), .minwidth = -1 };
	int err;
	char *svg = svg_of(fl, &o, NULL, &err);
	const char *a = strstr(svg, "<title>a ("), *b = strstr(svg, "<title>b ("),
		   *c = strstr(svg, "<title>c (");

	CHECK_EQ(err, 0);
	CHECK(a && b && c);
	CHECK(strstr(svg, "<title>a (30 samples, 66.67%; +44.44%)</title>") != NULL);
	CHECK(strstr(svg, "<title>b (10 samples, 22.22%; -44.44%)</title>") != NULL);
	CHECK(!strncmp(strstr(a, "fill=\""), "fill=\"rgb(255,0,0)\"", 19));
	CHECK(!strncmp(strstr(b, "fill=\""), "fill=\"rgb(0,0,255)\"", 19));
	CHECK(!strncmp(strstr(c, "fill=\""), "fill=\"rgb(255,255,255)\"", 23));
	free(svg);
	o.negate = true;
	svg = svg_of(fl, &o, NULL, &err);
	a = strstr(svg, "<title>a (");
	CHECK(!strncmp(strstr(a, "fill=\""), "fill=\"rgb(0,0,255)\"", 19));
	free(svg);
	ember_flame__delete(fl);
}

TEST(flame_palette_colours)
{
	char buf[32], again[32];

	CHECK_EQ(ember_flame_palette__parse("hot"), EMBER_FLAME_PALETTE_HOT);
	CHECK_EQ(ember_flame_palette__parse("orange"), EMBER_FLAME_PALETTE_ORANGE);
	CHECK_EQ(ember_flame_palette__parse("nope"), -EINVAL);
	CHECK_STR(ember_flame_palette__name(EMBER_FLAME_PALETTE_JS), "js");
	/* An empty name hashes to 1 everywhere: hot's brightest yellow, as flamegraph.pl. */
	ember_flame_palette__color(EMBER_FLAME_PALETTE_HOT, "", EMBER_FLAME_USER, buf, sizeof(buf));
	CHECK_STR(buf, "rgb(255,230,55)");
	/* Same name, same colour; within the palette's range. */
	ember_flame_palette__color(EMBER_FLAME_PALETTE_HOT, "main", EMBER_FLAME_USER, buf, 32);
	ember_flame_palette__color(EMBER_FLAME_PALETTE_HOT, "main", EMBER_FLAME_USER, again, 32);
	CHECK_STR(buf, again);
	for (int p = 0; p < EMBER_FLAME_NR_PALETTES; p++) {
		int r, g, b;

		ember_flame_palette__color(p, "do_syscall_64", EMBER_FLAME_USER, buf, sizeof(buf));
		CHECK_EQ(sscanf(buf, "rgb(%d,%d,%d)", &r, &g, &b), 3);
		CHECK(r >= 0 && r <= 255 && g >= 0 && g <= 255 && b >= 0 && b <= 255);
	}
	/* Kinds: kernel orange (no blue), JIT green in the hot palette. */
	ember_flame_palette__color(EMBER_FLAME_PALETTE_HOT, "schedule", EMBER_FLAME_KERNEL, buf, 32);
	CHECK(strstr(buf, ",0)") != NULL);
	ember_flame_palette__color(EMBER_FLAME_PALETTE_JAVA, "Lcom/x/Y;.z", EMBER_FLAME_USER, buf, 32);
	{
		int r, g, b;

		sscanf(buf, "rgb(%d,%d,%d)", &r, &g, &b);
		CHECK(g >= 200 && r == b);
	}
	/* Single-hue palettes ignore kinds. */
	ember_flame_palette__color(EMBER_FLAME_PALETTE_BLUE, "x", EMBER_FLAME_KERNEL, buf, 32);
	ember_flame_palette__color(EMBER_FLAME_PALETTE_BLUE, "x", EMBER_FLAME_USER, again, 32);
	CHECK_STR(buf, again);
}

TEST(flame_palette_map_file)
{
	char path[] = "/tmp/ember-palette-XXXXXX";
	int fd = mkstemp(path);
	struct ember_flame_palette_map *map;
	FILE *fp;
	char line[128];

	CHECK(fd >= 0);
	close(fd);
	unlink(path);
	/* Missing: empty. */
	map = ember_flame_palette_map__read(path);
	CHECK(map != NULL);
	CHECK_EQ(ember_flame_palette_map__nr(map), 0);
	CHECK_EQ(ember_flame_palette_map__set(map, "zeta", "rgb(1,2,3)"), 0);
	CHECK_EQ(ember_flame_palette_map__set(map, "a->b", "rgb(4,5,6)"), 0);
	CHECK_EQ(ember_flame_palette_map__set(map, "zeta", "rgb(7,8,9)"), 0);
	CHECK_EQ(ember_flame_palette_map__write(map, path), 0);
	ember_flame_palette_map__delete(map);

	fp = fopen(path, "r");
	CHECK(fp && fgets(line, sizeof(line), fp));
	CHECK_STR(line, "a->b->rgb(4,5,6)\n");
	CHECK(fgets(line, sizeof(line), fp) != NULL);
	CHECK_STR(line, "zeta->rgb(7,8,9)\n");
	fclose(fp);

	map = ember_flame_palette_map__read(path);
	CHECK_STR(ember_flame_palette_map__get(map, "a->b"), "rgb(4,5,6)");
	CHECK_STR(ember_flame_palette_map__get(map, "zeta"), "rgb(7,8,9)");
	CHECK(ember_flame_palette_map__get(map, "nope") == NULL);
	ember_flame_palette_map__delete(map);

	/* A line that is no "name->rgb(r,g,b)": refused. */
	fp = fopen(path, "w");
	fputs("good->rgb(1,1,1)\nbad line\n", fp);
	fclose(fp);
	errno = 0;
	CHECK(ember_flame_palette_map__read(path) == NULL);
	CHECK_EQ(errno, EINVAL);
	unlink(path);
}

TEST(flame_svg_consistent_palette)
{
	struct ember_flame *fl = tree_of("m;f 1\n");
	struct ember_flame_palette_map *map = ember_flame_palette_map__read(NULL);
	struct ember_flame_svg_opts o = { .sz = sizeof(o), .minwidth = -1, .palette_map = map };
	int err;
	char *svg;

	ember_flame_palette_map__set(map, "f", "rgb(1,2,3)");
	svg = svg_of(fl, &o, NULL, &err);
	CHECK_EQ(err, 0);
	CHECK(strstr(svg, "fill=\"rgb(1,2,3)\"") != NULL);
	/* New names are added with the colour they got. */
	CHECK(ember_flame_palette_map__get(map, "m") != NULL);
	CHECK(ember_flame_palette_map__get(map, "") != NULL);
	free(svg);
	ember_flame_palette_map__delete(map);
	ember_flame__delete(fl);
}
