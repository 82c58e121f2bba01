// SPDX-License-Identifier: GPL-2.0-only
/*
 * Folded stacks in and out (lib/flame): flamegraph.pl's reading rules
 * (the count after the last blank, trailing empty frames, differential
 * lines), what is ignored, what is refused, and stackcollapse's sorted,
 * merged output; the tree under flame charts and --reverse.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ember/flame.h>

#include "test.h"

struct folded_run {
	struct ember_flame *fl;
	struct ember_flame_folded_stats st;
	int err;
	char *out;	/* write_folded output, malloc'd */
};

static void run_folded(struct folded_run *r, const char *text, bool flamechart, bool reverse)
{
	struct ember_flame_opts o = { .sz = sizeof(o), .flamechart = flamechart, .reverse = reverse };
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	size_t len = 0;
	FILE *out;

	memset(r, 0, sizeof(*r));
	r->fl = ember_flame__new(&o);
	/* fmemopen of an empty buffer is refused: read an empty stream instead. */
	if (!in)
		in = fopen("/dev/null", "r");
	r->err = ember_flame__read_folded(r->fl, in, NULL, &r->st);
	fclose(in);
	out = open_memstream(&r->out, &len);
	ember_flame__write_folded(r->fl, out, 0);
	fclose(out);
}

static void run_free(struct folded_run *r)
{
	ember_flame__delete(r->fl);
	free(r->out);
}

TEST(flame_folded_sorted_and_merged)
{
	struct folded_run r;

	run_folded(&r, "b;x 2\na;y 1\nb;x 3\na 4\na;y;z 5\n", false, false);
	CHECK_EQ(r.err, 0);
	CHECK_EQ(r.st.lines, 5);
	CHECK_EQ(r.st.stacks, 5);
	CHECK_EQ(r.st.ignored, 0);
	CHECK_EQ(ember_flame__total(r.fl), 15);
	/* Root, a, a;y, a;y;z, b, b;x. */
	CHECK_EQ(ember_flame__nr_nodes(r.fl), 6);
	CHECK_STR(r.out, "a 4\na;y 1\na;y;z 5\nb;x 5\n");
	run_free(&r);
}

TEST(flame_folded_bytewise_order)
{
	struct folded_run r;

	/* Perl's sort compares bytes: ';' (0x3b) sorts after '-' (0x2d) and before 'A'. */
	run_folded(&r, "m;x;y 1\nm;x-1 1\nm;xA 1\nm;x 1\n", false, false);
	CHECK_STR(r.out, "m;x 1\nm;x-1 1\nm;x;y 1\nm;xA 1\n");
	run_free(&r);
}

TEST(flame_folded_count_rules)
{
	struct folded_run r;

	/*
	 * The count is the last field, after exactly one blank that separates:
	 * "a;b  5" is stack "a;b " (flamegraph.pl). Trailing empty frames drop,
	 * middle ones stay; fractional counts are taken; CRLF is fine.
	 */
	run_folded(&r, "a;b  5\r\nc;;d;; 2.5\nspaced name;f 1\n", false, false);
	CHECK_EQ(r.err, 0);
	CHECK_EQ(r.st.stacks, 3);
	CHECK_EQ(ember_flame__total(r.fl) * 2, 17);
	CHECK_STR(r.out, "a;b  5\nc;;d 2.5\nspaced name;f 1\n");
	run_free(&r);
}

TEST(flame_folded_ignored_lines)
{
	struct folded_run r;

	run_folded(&r,
		   "no count here\n"
		   "justtext5\n"
		   "5\n"
		   "x;y 1e5\n"
		   "x;y .5\n"
		   "x;y -3\n"
		   "\n"
		   "good;one 7\n"
		   "bin\001ary 3\n",
		   false, false);
	CHECK_EQ(r.err, 0);
	CHECK_EQ(r.st.lines, 9);
	CHECK_EQ(r.st.stacks, 1);
	CHECK_EQ(r.st.ignored, 8);
	CHECK_EQ(r.st.first_ignored, 1);
	CHECK_EQ(r.st.binary, 1);
	CHECK_STR(r.out, "good;one 7\n");
	run_free(&r);
}

TEST(flame_folded_empty_and_noise)
{
	static const unsigned char noise[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, '\n', 0xff,
					       0xfe, ' ', '1', '\n', 0, 0, ' ', '3' };
	struct ember_flame *fl = ember_flame__new(NULL);
	struct ember_flame_folded_stats st;
	FILE *fp;

	fp = fopen("/dev/null", "r");
	CHECK_EQ(ember_flame__read_folded(fl, fp, NULL, &st), 0);
	fclose(fp);
	CHECK_EQ(st.lines, 0);
	CHECK_EQ(ember_flame__total(fl), 0);

	/* Binary noise: no crash; invalid UTF-8 alone is not binary, NUL is. */
	fp = fmemopen((void *)noise, sizeof(noise), "r");
	CHECK_EQ(ember_flame__read_folded(fl, fp, NULL, &st), 0);
	fclose(fp);
	CHECK_EQ(st.lines, 3);
	CHECK_EQ(st.stacks, 1);
	CHECK_EQ(st.binary, 2);
	CHECK_EQ(ember_flame__total(fl), 1);
	ember_flame__delete(fl);
}

TEST(flame_folded_huge_counts)
{
	struct folded_run r;

	/* 2^53 is the most a flame graph holds exactly: the line is refused, clearly. */
	run_folded(&r, "a 1\nb 99999999999999999999999999\n", false, false);
	CHECK_EQ(r.err, -ERANGE);
	CHECK_EQ(r.st.error_line, 2);
	run_free(&r);

	run_folded(&r, "a 9007199254740992\n", false, false);
	CHECK_EQ(r.err, 0);
	CHECK_STR(r.out, "a 9007199254740992\n");
	run_free(&r);

	/* Each fits, the sum does not. */
	run_folded(&r, "a 9007199254740000\nb 9007199254740000\n", false, false);
	CHECK_EQ(r.err, -ERANGE);
	CHECK_EQ(r.st.error_line, 2);
	run_free(&r);

	/* A count of a thousand digits is no buffer overflow. */
	char *line = malloc(1100);

	memcpy(line, "x ", 2);
	memset(line + 2, '7', 1000);
	strcpy(line + 1002, "\n");
	run_folded(&r, line, false, false);
	CHECK_EQ(r.err, -ERANGE);
	run_free(&r);
	free(line);
}

TEST(flame_folded_diff_lines)
{
	struct folded_run r;

	/* "STACK BEFORE AFTER", as difffolded.pl writes it. */
	run_folded(&r, "a;b 10 4\na;c 0 6\nd 5 0\n", false, false);
	CHECK_EQ(r.err, 0);
	CHECK_EQ(r.st.diff_lines, 3);
	CHECK(ember_flame__is_diff(r.fl));
	CHECK_EQ(ember_flame__total(r.fl), 10);
	CHECK_EQ(ember_flame__total_before(r.fl), 15);
	CHECK_STR(r.out, "a;b 10 4\na;c 0 6\nd 5 0\n");
	/* Normalised: before scaled to the after total, each stack rounded down. */
	CHECK_EQ(ember_flame__normalize(r.fl), 0);
	CHECK_EQ(ember_flame__total_before(r.fl), 9);
	run_free(&r);
}

TEST(flame_folded_flamechart_order)
{
	struct folded_run r;

	/*
	 * Time order: a stack merges only with the one just before it, so the
	 * second "m;f" is a new frame, and so is the "m;f;g" after "m;f".
	 */
	run_folded(&r, "m;f;g 1\nm;f 1\nm;f;g 1\nm;h 1\nm;f 2\n", true, false);
	CHECK_EQ(r.err, 0);
	CHECK_EQ(ember_flame__total(r.fl), 6);
	/* root, m, f, g, g, h, f */
	CHECK_EQ(ember_flame__nr_nodes(r.fl), 7);
	CHECK_STR(r.out, "m;f 1\nm;f;g 1\nm;f;g 1\nm;h 1\nm;f 2\n");
	run_free(&r);
}

TEST(flame_folded_reverse)
{
	struct folded_run r;

	run_folded(&r, "m;a;leaf 2\nm;b;leaf 3\n", false, true);
	CHECK_EQ(r.err, 0);
	CHECK_STR(r.out, "leaf;a;m 2\nleaf;b;m 3\n");
	run_free(&r);
}

TEST(flame_tree_frames_and_add)
{
	struct ember_flame *fl = ember_flame__new(NULL);
	int a = ember_flame__frame(fl, "a", 1, EMBER_FLAME_USER);
	int ak = ember_flame__frame(fl, "a", 1, EMBER_FLAME_KERNEL);
	uint32_t stack[2];

	CHECK(a >= 0 && ak >= 0 && a != ak);
	CHECK_EQ(ember_flame__frame(fl, "a", 1, EMBER_FLAME_USER), a);
	CHECK_STR(ember_flame__frame_name(fl, ak), "a");
	CHECK_EQ(ember_flame__frame_kind(fl, ak), EMBER_FLAME_KERNEL);
	CHECK_EQ(ember_flame__frame(fl, "x", 1, 99), -EINVAL);
	stack[0] = a;
	stack[1] = ak;
	CHECK_EQ(ember_flame__add(fl, stack, 2, 3, 1, EMBER_FLAME_AFTER), 0);
	CHECK_EQ(ember_flame__add(fl, stack, 2, -1, 1, EMBER_FLAME_AFTER), -EINVAL);
	stack[1] = 12345;
	CHECK_EQ(ember_flame__add(fl, stack, 2, 1, 1, EMBER_FLAME_AFTER), -EINVAL);
	CHECK_EQ(ember_flame__add(fl, NULL, 0, 2, 1, EMBER_FLAME_AFTER), 0);
	CHECK_EQ(ember_flame__total(fl), 5);
	CHECK_EQ(ember_flame__samples(fl), 2);
	CHECK_EQ(ember_flame__nr_nodes(fl), 3);
	ember_flame__delete(fl);
	ember_flame__delete(NULL);
}

TEST(flame_tree_many_frames)
{
	struct ember_flame *fl = ember_flame__new(NULL);
	uint32_t stack[3];
	char name[32];
	int err = 0;

	/* Enough to grow every table several times. */
	for (int i = 0; i < 50000 && !err; i++) {
		snprintf(name, sizeof(name), "f%d", i % 7000);
		stack[0] = ember_flame__frame(fl, "root", 4, EMBER_FLAME_USER);
		stack[1] = ember_flame__frame(fl, name, strlen(name), EMBER_FLAME_USER);
		snprintf(name, sizeof(name), "g%d", i % 13);
		stack[2] = ember_flame__frame(fl, name, strlen(name), EMBER_FLAME_USER);
		err = ember_flame__add(fl, stack, 3, 1, 1, EMBER_FLAME_AFTER);
	}
	CHECK_EQ(err, 0);
	CHECK_EQ(ember_flame__total(fl), 50000);
	/* root, "root", 7000 f, and every (f, g) pair: lcm(7000, 13) > 50000. */
	CHECK_EQ(ember_flame__nr_nodes(fl), 2 + 7000 + 50000);
	ember_flame__delete(fl);
}
