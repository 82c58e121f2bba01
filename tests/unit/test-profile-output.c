// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember profile's outputs (src/profile/output.c): the format an -o name
 * asks for, the text's hottest-first order with leaf-first stacks, the
 * interval reads' FILE.N names, and the SVG equal to the one drawn from
 * the folded text it writes (what `ember flamegraph x.folded` draws).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/flame.h>
#include "profile/profile.h"
#include "test.h"

static struct ember_flame *tree(void)
{
	static const char *const stacks[][4] = {
		{ "hotloop", "main", "hot_b", NULL },
		{ "hotloop", "main", "hot_a", NULL },
		{ "hotloop", "main", "hot_a", "irq_[k]" },
	};
	static const double counts[] = { 30, 60, 2 };
	struct ember_flame_opts fo = { .sz = sizeof(fo) };
	struct ember_flame *fl = ember_flame__new(&fo);

	for (size_t i = 0; fl && i < sizeof(counts) / sizeof(counts[0]); i++) {
		uint32_t ids[4];
		size_t nr = 0;

		for (; nr < 4 && stacks[i][nr]; nr++)
			ids[nr] = ember_flame__frame(fl, stacks[i][nr], strlen(stacks[i][nr]),
						     EMBER_FLAME_USER);
		ember_flame__add(fl, ids, nr, counts[i], counts[i], EMBER_FLAME_AFTER);
	}
	return fl;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&buf, &size);
	int c;

	while (fp && mem && (c = fgetc(fp)) != EOF)
		fputc(c, mem);
	if (mem)
		fclose(mem);
	if (fp)
		fclose(fp);
	return buf;
}

TEST(profile_output_format_by_name)
{
	CHECK_EQ(profile_output__format("x.svg"), PROFILE_SVG);
	CHECK_EQ(profile_output__format("x.txt"), PROFILE_TEXT);
	CHECK_EQ(profile_output__format("x.folded"), PROFILE_FOLDED);
	CHECK_EQ(profile_output__format("-"), PROFILE_FOLDED);
	CHECK_EQ(profile_output__format(".svg"), PROFILE_FOLDED);	/* a name, not a suffix */
	CHECK_EQ(profile_output__format("svg"), PROFILE_FOLDED);
}

TEST(profile_output_text_hottest_first_leaf_first)
{
	char dir[] = "/tmp/ember-profile-out.XXXXXX", path[128], *text, *a, *b, *k;
	struct ember_flame *fl = tree();

	CHECK(fl != NULL && mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/x.txt", dir);
	CHECK_EQ(profile_output__write(fl, path, 0), 0);
	text = slurp(path);
	CHECK(text != NULL);
	a = text ? strstr(text, "hot_a <- main <- hotloop\n") : NULL;
	b = text ? strstr(text, "hot_b <- main <- hotloop\n") : NULL;
	k = text ? strstr(text, "irq_[k] <- hot_a <- main <- hotloop\n") : NULL;
	CHECK(a && b && k && a < b && b < k);
	CHECK(text && strstr(text, "# Samples: 92\n"));
	CHECK(text && strstr(text, "    65.22%        60  hot_a"));
	free(text);
	unlink(path);
	/* an interval's second read goes to x.txt.1 */
	snprintf(path, sizeof(path), "%s/x.txt", dir);
	CHECK_EQ(profile_output__write(fl, path, 1), 0);
	CHECK(access(path, F_OK) != 0);
	snprintf(path, sizeof(path), "%s/x.txt.1", dir);
	CHECK_EQ(access(path, F_OK), 0);
	unlink(path);
	rmdir(dir);
	ember_flame__delete(fl);
}

TEST(profile_output_svg_is_the_folded_texts)
{
	char dir[] = "/tmp/ember-profile-out.XXXXXX", folded[128], svg[128], *a, *b;
	struct ember_flame_opts fo = { .sz = sizeof(fo) };
	struct ember_flame_folded_opts ro = { .sz = sizeof(ro) };
	struct ember_flame_svg_opts so = { .sz = sizeof(so), .minwidth = -1 };
	struct ember_flame_folded_stats st;
	struct ember_flame *fl = tree(), *again = ember_flame__new(&fo);
	FILE *in, *out;

	CHECK(fl && again && mkdtemp(dir) != NULL);
	snprintf(folded, sizeof(folded), "%s/x.folded", dir);
	snprintf(svg, sizeof(svg), "%s/x.svg", dir);
	CHECK_EQ(profile_output__write(fl, folded, 0), 0);
	CHECK_EQ(profile_output__write(fl, svg, 0), 0);
	/* what ember flamegraph does with the folded file */
	in = fopen(folded, "r");
	CHECK(in != NULL);
	CHECK_EQ(in ? ember_flame__read_folded(again, in, &ro, &st) : -1, 0);
	if (in)
		fclose(in);
	out = fopen(folded, "w");
	CHECK_EQ(out ? ember_flame__write_svg(again, out, &so, NULL) : -1, 0);
	if (out)
		fclose(out);
	a = slurp(svg);
	b = slurp(folded);
	CHECK(a && b && !strcmp(a, b));
	free(a);
	free(b);
	unlink(folded);
	unlink(svg);
	rmdir(dir);
	ember_flame__delete(again);
	ember_flame__delete(fl);
}
