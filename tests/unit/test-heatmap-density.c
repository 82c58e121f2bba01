// SPDX-License-Identifier: GPL-2.0-only
/* The FlameScope page's data: cells by second and offset, the stack trie, escaping. */
#include <errno.h>
#include <stdlib.h>
#include <ember/heatmap.h>
#include "test.h"

static char *page(const struct ember_heatmap_density *d, int *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	*err = ember_heatmap_density__write_html(d, NULL, fp);
	fclose(fp);
	return buf;
}

TEST(heatmap_density_cells)
{
	static const char *const a[] = { "app", "main", "work" };
	static const char *const b[] = { "app", "main", "idle" };
	static const char *const evil[] = { "</script><b>", "\x01\xff" };
	struct ember_heatmap_density *d = ember_heatmap_density__new(10);
	char *html;
	int err;

	CHECK(d);
	if (!d)
		return;
	html = page(d, &err);
	CHECK_EQ(err, -ENODATA);
	free(html);
	/* 5.05 s: row 0 of column 0; 5.95 s: row 9; 6.5 s: row 5 of column 1, three samples. */
	CHECK_EQ(ember_heatmap_density__add(d, 5050000000ull, a, 3), 0);
	CHECK_EQ(ember_heatmap_density__add(d, 5950000000ull, b, 3), 0);
	CHECK_EQ(ember_heatmap_density__add(d, 6500000000ull, a, 3), 0);
	CHECK_EQ(ember_heatmap_density__add(d, 6500000001ull, a, 3), 0);
	CHECK_EQ(ember_heatmap_density__add(d, 6599999999ull, NULL, 0), 0);
	CHECK_EQ(ember_heatmap_density__add(d, 6000000000ull, evil, 2), 0);
	CHECK_EQ(ember_heatmap_density__add(d, 1, NULL, 1), -EINVAL);
	CHECK_EQ(ember_heatmap_density__nr_samples(d), 6);
	html = page(d, &err);
	CHECK_EQ(err, 0);
	if (!html)
		return;
	CHECK(strstr(html, "\"rows\":10,\"cols\":2,\"start\":5,\"samples\":6"));
	/* Frames interned once, in first-seen order; nodes share the "app;main" prefix. */
	CHECK(strstr(html, "\"frames\":[\"app\",\"main\",\"work\",\"idle\","));
	CHECK(strstr(html, "\"nodes\":[-1,0,0,1,1,2,1,3,"));
	CHECK(strstr(html, "[0,0,2,1]"));
	CHECK(strstr(html, "[0,9,3,1]"));
	CHECK(strstr(html, "[1,5,-1,1,2,2]"));		/* sorted by node: the empty stack first */
	/* Names cannot end the script element, nor carry bytes that are not UTF-8. */
	CHECK(strstr(html, "\"\\u003c/script\\u003e\\u003cb\\u003e\""));
	CHECK(strstr(html, "\"\\u0001\\ufffd\""));
	CHECK(!strstr(html, "</script><b>"));
	free(html);
	ember_heatmap_density__delete(d);
	CHECK(!ember_heatmap_density__new(1001));
}
