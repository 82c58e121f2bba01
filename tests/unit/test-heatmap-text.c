// SPDX-License-Identifier: GPL-2.0-only
/* The heat map's text reader: trace2heatmap.pl's input, and anything else. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <ember/heatmap.h>
#include "test.h"

static struct ember_heatmap_points *parse(const char *buf, size_t len,
					  struct ember_heatmap_text_stats *st)
{
	struct ember_heatmap_points *p = ember_heatmap_points__new();

	memset(st, 0, sizeof(*st));
	if (p && ember_heatmap_points__parse_text(p, buf, len, st)) {
		ember_heatmap_points__delete(p);
		return NULL;
	}
	return p;
}

TEST(heatmap_text_columns)
{
	static const char in[] = "time latency\n17442020318913 8026\n"
				 "17442020325950\t6798 extra columns\r\n\n   \n"
				 "17442020333082 6907.5";
	struct ember_heatmap_text_stats st;
	struct ember_heatmap_points *p = parse(in, sizeof(in) - 1, &st);
	double tm, l;

	CHECK(p);
	if (!p)
		return;
	CHECK_EQ(ember_heatmap_points__nr(p), 3);
	CHECK_EQ(st.header, 1);
	CHECK_EQ(st.skipped, 0);
	CHECK_EQ(st.lines, 6);
	CHECK_EQ(ember_heatmap_points__get(p, 1, &tm, &l), 0);
	CHECK(tm == 17442020325950.0 && l == 6798);
	CHECK_EQ(ember_heatmap_points__get(p, 2, &tm, &l), 0);
	CHECK(l == 6907.5);
	CHECK_EQ(ember_heatmap_points__get(p, 3, &tm, &l), -ERANGE);
	ember_heatmap_points__delete(p);
}

TEST(heatmap_text_garbage)
{
	/* Only the first line may be a header; later words, hex, inf, nan, lone numbers are skipped. */
	static const char in[] = "1 2\nfoo bar\n0x10 5\ninf 3\n4 nan\n7\n1e999 1\n"
				 "3 4\n-5 -6\n1e3 2e1\n";
	struct ember_heatmap_text_stats st;
	struct ember_heatmap_points *p = parse(in, sizeof(in) - 1, &st);
	double tm, l;

	CHECK(p);
	if (!p)
		return;
	CHECK_EQ(st.header, 0);
	CHECK_EQ(st.skipped, 6);
	CHECK_EQ(st.first_skipped, 2);
	CHECK_EQ(ember_heatmap_points__nr(p), 4);
	CHECK_EQ(ember_heatmap_points__get(p, 3, &tm, &l), 0);
	CHECK(tm == 1000 && l == 20);
	ember_heatmap_points__delete(p);
}

TEST(heatmap_text_binary_noise)
{
	struct ember_heatmap_text_stats st;
	struct ember_heatmap_points *p;
	unsigned char buf[65536];
	uint32_t x = 12345;

	/* NULs, 0xff, lines longer than any number: no crash, nothing made up. */
	for (size_t i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245 + 12345;
		buf[i] = x >> 24;
	}
	p = parse((const char *)buf, sizeof(buf), &st);
	CHECK(p);
	if (p)
		CHECK_EQ(st.points + st.skipped + st.header <= st.lines, 1);
	ember_heatmap_points__delete(p);

	/* A number split by a NUL is not a number. */
	p = parse("12\0003 4\n", 7, &st);
	CHECK(p);
	if (p)
		CHECK_EQ(ember_heatmap_points__nr(p), 0);
	ember_heatmap_points__delete(p);

	/* Empty input: no lines, no points. */
	p = parse("", 0, &st);
	CHECK(p && st.lines == 0 && ember_heatmap_points__nr(p) == 0);
	ember_heatmap_points__delete(p);
}

TEST(heatmap_text_long_token)
{
	char buf[300];
	struct ember_heatmap_text_stats st;
	struct ember_heatmap_points *p;

	memset(buf, '1', sizeof(buf));
	buf[100] = ' ';
	p = parse(buf, sizeof(buf), &st);
	CHECK(p && ember_heatmap_points__nr(p) == 0 && st.skipped == 1);
	ember_heatmap_points__delete(p);
}

TEST(heatmap_text_file)
{
	static const char in[] = "1 10\n2 20\nxx\n3 30";
	struct ember_heatmap_text_stats st = { 0 };
	struct ember_heatmap_points *p = ember_heatmap_points__new();
	FILE *fp = fmemopen((void *)in, sizeof(in) - 1, "r");

	CHECK(p && fp);
	if (!p || !fp)
		return;
	CHECK_EQ(ember_heatmap_points__read_text(p, fp, &st), 0);
	CHECK_EQ(ember_heatmap_points__nr(p), 3);
	CHECK_EQ(st.skipped, 1);
	CHECK_EQ(st.first_skipped, 3);
	fclose(fp);
	ember_heatmap_points__delete(p);
}
