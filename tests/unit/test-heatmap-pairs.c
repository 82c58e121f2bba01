// SPDX-License-Identifier: GPL-2.0-only
/* Start/end matching as the block I/O awk script does it. */
#include <errno.h>
#include <ember/heatmap.h>
#include "test.h"

TEST(heatmap_pairs_match)
{
	struct ember_heatmap_pairs *pp = ember_heatmap_pairs__new(2);
	uint64_t k1[2] = { 8, 100 }, k2[2] = { 8, 200 }, start = 0;

	CHECK(pp);
	if (!pp)
		return;
	CHECK_EQ(ember_heatmap_pairs__end(pp, k1, &start), 0);	/* an end before any start */
	CHECK_EQ(ember_heatmap_pairs__start(pp, k1, 10), 0);
	CHECK_EQ(ember_heatmap_pairs__start(pp, k2, 11), 0);
	CHECK_EQ(ember_heatmap_pairs__start(pp, k1, 12), 0);	/* replaces the first */
	CHECK_EQ(ember_heatmap_pairs__pending(pp), 2);
	CHECK_EQ(ember_heatmap_pairs__end(pp, k1, &start), 1);
	CHECK_EQ(start, 12);
	CHECK_EQ(ember_heatmap_pairs__end(pp, k1, &start), 0);	/* forgotten */
	CHECK_EQ(ember_heatmap_pairs__end(pp, k2, &start), 1);
	CHECK_EQ(start, 11);
	CHECK_EQ(ember_heatmap_pairs__pending(pp), 0);
	ember_heatmap_pairs__delete(pp);
	CHECK(!ember_heatmap_pairs__new(0));
	CHECK(!ember_heatmap_pairs__new(9));
}

TEST(heatmap_pairs_churn)
{
	struct ember_heatmap_pairs *pp = ember_heatmap_pairs__new(1);
	uint64_t k, start, bad = 0;

	/* Many keys alive at once, then a million come-and-go: growth and tombstones. */
	for (k = 0; k < 50000; k++)
		ember_heatmap_pairs__start(pp, &k, k * 3);
	for (k = 0; k < 50000; k++)
		bad += ember_heatmap_pairs__end(pp, &k, &start) != 1 || start != k * 3;
	CHECK_EQ(bad, 0);
	for (k = 0; k < 1000000; k++) {
		ember_heatmap_pairs__start(pp, &k, k);
		bad += ember_heatmap_pairs__end(pp, &k, &start) != 1 || start != k;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(ember_heatmap_pairs__pending(pp), 0);
	ember_heatmap_pairs__delete(pp);
}
