// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf top's histograms between refreshes: periods, counts and callchain
 * hits decay by 7/8 (integer division, as perf's he_stat__decay()), an
 * entry that reaches 0 is removed and its memory reused, -K/-U zap by
 * level, and ember_hist__clear() empties the histogram (-z).
 */
#include <linux/perf_event.h>
#include <ember/hist.h>
#include "test.h"

#define FRAME(name_, start_, level_) { .dso = "prog", .sym = #name_, .sym_name = #name_,	\
				       .dso_name = "prog", .dso_long_name = "/bin/prog",	\
				       .ip = 0x400000 + (start_) + 4, .addr = (start_) + 4,	\
				       .sym_start = (start_), .sym_end = (start_) + 0x80,	\
				       .level = (level_), .cpumode = PERF_RECORD_MISC_USER }

static const struct ember_hist_frame f_main = FRAME(main, 0x100, '.');
static const struct ember_hist_frame f_hot = FRAME(hot, 0x200, '.');
static const struct ember_hist_frame f_kern = FRAME(kfunc, 0x300, 'k');

static struct ember_hist *new_hist(struct ember_hist_layout *l)
{
	struct ember_hist_layout_opts lo = { .sz = sizeof(lo), .default_sort = "dso,sym" };
	struct ember_hist_opts ho = { .sz = sizeof(ho), .layout = l, .use_callchain = true };
	char bad[32];

	ember_callchain_param__init(&ho.chain);
	if (ember_hist_layout__setup(l, &lo, bad, sizeof(bad)))
		return NULL;
	return ember_hist__new(&ho);
}

static int add(struct ember_hist *h, const struct ember_hist_frame *self, uint64_t period)
{
	const struct ember_hist_frame *chain[] = { self, &f_main };
	struct ember_hist_sample s = {
		.sz = sizeof(s), .self = self, .chain = chain, .nr_chain = 2, .period = period,
		.nr_samples = 1, .pid = 7, .tid = 7, .comm = "prog", .thread = h,
	};

	return ember_hist__add(h, &s);
}

static const struct ember_hist_entry *find(const struct ember_hist *h, const char *sym)
{
	for (size_t i = 0; i < ember_hist__nr_entries(h); i++) {
		const struct ember_hist_entry *e = ember_hist__entry(h, i);

		if (e->sym_name && !strcmp(e->sym_name, sym))
			return e;
	}
	return NULL;
}

TEST(hist_decay_seven_eighths)
{
	struct ember_hist_layout l;
	struct ember_hist *h = new_hist(&l);
	const struct ember_hist_entry *e;
	const struct ember_callchain_node *n;

	if (!h)
		SKIP("no memory");
	for (int i = 0; i < 9; i++)
		CHECK_EQ(add(h, &f_hot, 100), 0);
	CHECK_EQ(add(h, &f_kern, 7), 0);
	CHECK_EQ(ember_hist__decay(h, false, false), 0);
	/* nothing shown between the decay and the resort */
	CHECK_EQ(ember_hist__nr_entries(h), 0);
	CHECK_EQ(ember_hist__resort(h), 0);
	e = find(h, "hot");
	CHECK(e != NULL);
	if (!e)
		goto out;
	CHECK_EQ(e->self.period, 900 * 7 / 8);
	CHECK_EQ(e->self.nr_events, 9 * 7 / 8);
	n = ember_callchain_node__first_child(ember_hist_entry__callchain(e));
	CHECK(n != NULL);
	if (n)
		CHECK_EQ(ember_callchain_node__cumul_hits(n), 900 * 7 / 8);
	/* 7 * 7 / 8 = 6, then 5, 4, 3, 2, 1, 0: gone after the seventh decay */
	e = find(h, "kfunc");
	CHECK(e != NULL && e->self.period == 6);
	for (int i = 0; i < 6; i++)
		CHECK_EQ(ember_hist__decay(h, false, false), 0);
	CHECK_EQ(ember_hist__resort(h), 0);
	CHECK(find(h, "kfunc") == NULL);
	CHECK(find(h, "hot") != NULL);
	CHECK_EQ(ember_hist__total_period(h, false), find(h, "hot")->self.period);
	/* a new entry takes the removed one's place, counted from zero */
	CHECK_EQ(add(h, &f_kern, 40), 0);
	CHECK_EQ(ember_hist__resort(h), 0);
	e = find(h, "kfunc");
	CHECK(e != NULL && e->self.period == 40 && e->self.nr_events == 1);
	/* its callchain tree is a new one, from nodes the removed one gave back */
	n = e ? ember_callchain_node__first_child(ember_hist_entry__callchain(e)) : NULL;
	CHECK(n != NULL);
	if (n) {
		CHECK_EQ(ember_callchain_node__cumul_hits(n), 40);
		CHECK(ember_callchain_node__next(n) == NULL);
		CHECK_EQ(ember_callchain_node__parent(n)->nr_children, 1);
	}
	/* and a tree still in use did not lose its nodes */
	n = ember_callchain_node__first_child(ember_hist_entry__callchain(find(h, "hot")));
	CHECK(n != NULL && n->name && !strcmp(n->name, "hot"));
out:
	ember_hist__delete(h);
}

TEST(hist_decay_zap_and_clear)
{
	struct ember_hist_layout l;
	struct ember_hist *h = new_hist(&l);

	if (!h)
		SKIP("no memory");
	CHECK_EQ(add(h, &f_hot, 800), 0);
	CHECK_EQ(add(h, &f_kern, 800), 0);
	/* -U: the user entries (level '.') go at once */
	CHECK_EQ(ember_hist__decay(h, true, false), 0);
	CHECK_EQ(ember_hist__resort(h), 0);
	CHECK(find(h, "hot") == NULL);
	CHECK(find(h, "kfunc") != NULL && find(h, "kfunc")->self.period == 700);
	/* -K: the others */
	CHECK_EQ(add(h, &f_hot, 800), 0);
	CHECK_EQ(ember_hist__decay(h, false, true), 0);
	CHECK_EQ(ember_hist__resort(h), 0);
	CHECK(find(h, "kfunc") == NULL);
	CHECK(find(h, "hot") != NULL);
	/* -z */
	ember_hist__clear(h);
	CHECK_EQ(ember_hist__resort(h), 0);
	CHECK_EQ(ember_hist__nr_entries(h), 0);
	CHECK_EQ(ember_hist__total_period(h, false), 0);
	CHECK_EQ(add(h, &f_hot, 10), 0);
	CHECK_EQ(ember_hist__resort(h), 0);
	CHECK_EQ(ember_hist__nr_entries(h), 1);
	ember_hist__delete(h);
}
