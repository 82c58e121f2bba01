// SPDX-License-Identifier: GPL-2.0-only
/* Histograms' sort keys and columns as perf's setup_sorting() builds them; -g parsing. */
#include <errno.h>
#include <ember/hist.h>
#include "test.h"

static int layout(struct ember_hist_layout *l, const char *sort, const char *fields, bool children)
{
	struct ember_hist_layout_opts o = {
		.sz = sizeof(o),
		.sort_order = sort,
		.field_order = fields,
		.children = children,
	};
	char bad[64];

	return ember_hist_layout__setup(l, &o, bad, sizeof(bad));
}

TEST(hist_layout_default)
{
	struct ember_hist_layout l;

	CHECK_EQ(layout(&l, NULL, NULL, false), 0);
	CHECK_EQ(l.nr_cols, 4);
	CHECK_EQ(l.cols[0], EMBER_HIST_DIM_OVERHEAD);
	CHECK_EQ(l.cols[1], EMBER_HIST_DIM_COMM);
	CHECK_EQ(l.cols[2], EMBER_HIST_DIM_DSO);
	CHECK_EQ(l.cols[3], EMBER_HIST_DIM_SYM);
	CHECK_EQ(l.sort[0], EMBER_HIST_DIM_OVERHEAD);
	CHECK(!l.self_header);
	CHECK_EQ(l.key_mask, EMBER_HIST_KEY(EMBER_HIST_DIM_COMM) |
				 EMBER_HIST_KEY(EMBER_HIST_DIM_DSO) |
				 EMBER_HIST_KEY(EMBER_HIST_DIM_SYM));
}

TEST(hist_layout_children)
{
	struct ember_hist_layout l;

	CHECK_EQ(layout(&l, NULL, NULL, true), 0);
	CHECK_EQ(l.nr_cols, 5);
	CHECK_EQ(l.cols[0], EMBER_HIST_DIM_OVERHEAD_CHILDREN);
	CHECK_EQ(l.cols[1], EMBER_HIST_DIM_OVERHEAD);
	CHECK_EQ(l.sort[0], EMBER_HIST_DIM_OVERHEAD_CHILDREN);
	CHECK_EQ(l.sort[1], EMBER_HIST_DIM_OVERHEAD);
	CHECK(l.self_header);
}

TEST(hist_layout_sort_keys)
{
	struct ember_hist_layout l;

	/* "sym" is a prefix of "symbol"; a --sort starting with it skips the chain's root */
	CHECK_EQ(layout(&l, "sym,dso", NULL, false), 0);
	CHECK_EQ(l.cols[1], EMBER_HIST_DIM_SYM);
	CHECK_EQ(l.cols[2], EMBER_HIST_DIM_DSO);
	CHECK(l.first_sort_is_sym);
	/* overhead_sys contains "overhead": perf then does not put overhead first */
	CHECK_EQ(layout(&l, "overhead_sys,dso", NULL, false), 0);
	CHECK_EQ(l.sort[0], EMBER_HIST_DIM_OVERHEAD_SYS);
	CHECK_EQ(l.cols[0], EMBER_HIST_DIM_OVERHEAD);
	/* "+key" appends to the default */
	CHECK_EQ(layout(&l, "+cpu", NULL, false), 0);
	CHECK_EQ(l.nr_cols, 5);
	CHECK_EQ(l.cols[4], EMBER_HIST_DIM_CPU);
	CHECK_EQ(layout(&l, "nosuchkey", NULL, false), -EINVAL);
}

TEST(hist_layout_fields)
{
	struct ember_hist_layout l;

	/* -F: only those columns, sorted by them in order */
	CHECK_EQ(layout(&l, NULL, "overhead,sym,comm", true), 0);
	CHECK_EQ(l.nr_cols, 3);
	CHECK_EQ(l.cols[1], EMBER_HIST_DIM_SYM);
	CHECK_EQ(l.sort[0], EMBER_HIST_DIM_OVERHEAD);
	CHECK_EQ(l.sort[1], EMBER_HIST_DIM_SYM);
	CHECK(!l.self_header);
}

TEST(hist_callchain_param)
{
	struct ember_callchain_param p = {.mode = EMBER_CALLCHAIN_GRAPH_ABS, .min_percent = 0.5};

	CHECK_EQ(ember_callchain_param__parse(&p, "fractal,2,10,caller,address,count"), 0);
	CHECK_EQ(p.mode, EMBER_CALLCHAIN_GRAPH_REL);
	CHECK(p.min_percent == 2.0);
	CHECK_EQ(p.print_limit, 10);
	CHECK_EQ(p.order, EMBER_CALLCHAIN_CALLER);
	CHECK(p.order_set);
	CHECK_EQ(p.key, EMBER_CALLCHAIN_ADDRESS);
	CHECK_EQ(p.value, EMBER_CALLCHAIN_COUNT);
	CHECK_EQ(ember_callchain_param__parse(&p, "folded"), 0);
	CHECK_EQ(p.mode, EMBER_CALLCHAIN_FOLDED);
	CHECK_EQ(ember_callchain_param__parse(&p, "graph,abc"), -EINVAL);
}
