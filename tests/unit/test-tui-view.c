// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lines of the report browser (src/tui/hist-view.c) on synthetic
 * samples, without a screen: folded entries, E's whole trees with perf's
 * offsets, values only where a level branches, + and - where perf's
 * has_children puts them, one level unfolded by +, a zoom and a symbol
 * filter; the text is what P writes to perf.hist.N.
 */
#include <stdlib.h>
#include <string.h>
#include "tui/hist-view.h"
#include "hist-fixture.h"
#include "test.h"

static const char DSO[] = "prog", LIB[] = "libc.so.6";

#define SYM(dso_, name_, start_) { .dso = dso_, .sym = #name_, .sym_name = #name_,		\
				   .dso_name = dso_, .dso_long_name = dso_,			\
				   .ip = 0x400000 + (start_) + 4, .addr = (start_) + 4,		\
				   .sym_start = (start_), .sym_end = (start_) + 0x80,		\
				   .level = '.', .cpumode = 2 }

static const struct ember_hist_frame f_main = SYM(DSO, main, 0x100);
static const struct ember_hist_frame f_foo = SYM(DSO, foo, 0x200);
static const struct ember_hist_frame f_bar = SYM(DSO, bar, 0x300);
static const struct ember_hist_frame f_baz = SYM(DSO, baz, 0x400);
static const struct ember_hist_frame f_memcpy = SYM(LIB, memcpy, 0x500);

struct fixture {
	struct hist_fixture hf;
	struct tui_hist_view v;
};

/*
 * main -> foo (4 samples), main -> foo -> bar (2), main -> baz (1),
 * main -> baz -> memcpy in libc (1): foo's callers branch, main's
 * callees branch.
 */
static int fill_mode(struct fixture *fx, bool children, enum ember_callchain_mode mode)
{
	const struct ember_hist_frame *foo[] = { &f_foo, &f_main };
	const struct ember_hist_frame *bar[] = { &f_bar, &f_foo, &f_main };
	const struct ember_hist_frame *baz[] = { &f_baz, &f_main };
	const struct ember_hist_frame *cpy[] = { &f_memcpy, &f_baz, &f_main };
	struct report_print_opts po = { .show_header = true };

	if (hist_fixture__setup(&fx->hf, children, mode, NULL))
		return -1;
	hist_fixture__add(&fx->hf, foo, 2, 4);
	hist_fixture__add(&fx->hf, bar, 3, 2);
	hist_fixture__add(&fx->hf, baz, 2, 1);
	hist_fixture__add(&fx->hf, cpy, 3, 1);
	if (ember_hist__resort(fx->hf.h))
		return -1;
	tui_hist_view__init(&fx->v, fx->hf.h, &po);
	return tui_hist_view__build(&fx->v);
}

static int fill(struct fixture *fx, bool children)
{
	return fill_mode(fx, children, EMBER_CALLCHAIN_GRAPH_ABS);
}

static void done(struct fixture *fx)
{
	tui_hist_view__exit(&fx->v);
	ember_hist__delete(fx->hf.h);
}

/* The view's lines as P writes them. */
static char *lines(struct fixture *fx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return strdup("");
	tui_hist_view__build(&fx->v);
	tui_hist_view__fprintf(&fx->v, fp);
	fclose(fp);
	return buf;
}

static void check_lines(struct unit_test *t, struct fixture *fx, const char *want)
{
	char *got = lines(fx);

	if (strcmp(got, want)) {
		fprintf(stderr, "  got:\n%s\n  want:\n%s\n", got, want);
		t->failures++;
	}
	free(got);
}

TEST(tui_view_self_folded_then_all)
{
	struct fixture fx;

	if (fill(&fx, false))
		SKIP("no memory");
	check_lines(t, &fx,
		    "+   50.00%  prog     prog           [.] foo\n"
		    "+   25.00%  prog     prog           [.] bar\n"
		    "+   12.50%  prog     libc.so.6      [.] memcpy\n"
		    "+   12.50%  prog     prog           [.] baz\n");
	CHECK_EQ(tui_hist_view__fold_all(&fx.v, true), 0);
	/* single chains holding all of their entry: no values, one offset */
	check_lines(t, &fx,
		    "-   50.00%  prog     prog           [.] foo\n"
		    "     foo\n"
		    "     main\n"
		    "-   25.00%  prog     prog           [.] bar\n"
		    "     bar\n"
		    "     foo\n"
		    "     main\n"
		    "-   12.50%  prog     libc.so.6      [.] memcpy\n"
		    "     memcpy\n"
		    "     baz\n"
		    "     main\n"
		    "-   12.50%  prog     prog           [.] baz\n"
		    "     baz\n"
		    "     main\n");
	CHECK_EQ(tui_hist_view__fold_all(&fx.v, false), 0);
	CHECK_EQ(tui_hist_view__build(&fx.v), 0);
	CHECK_EQ(fx.v.nr_rows, 4);
	done(&fx);
}

/*
 * E's lines of the entries after main with --children: each of their
 * trees is one or two chains, drawn alike as a graph and as -g flat.
 */
#define CHILDREN_BELOW_MAIN							\
	"-   75.00%    50.00%  prog     prog           [.] foo\n"			\
	"   - 50.00% main\n"							\
	"        foo\n"								\
	"   - 25.00% foo\n"							\
	"        bar\n"								\
	"-   25.00%    25.00%  prog     prog           [.] bar\n"			\
	"     main\n"								\
	"     foo\n"								\
	"     bar\n"								\
	"-   25.00%    12.50%  prog     prog           [.] baz\n"			\
	"   - 12.50% baz\n"							\
	"        memcpy\n"							\
	"   - 12.50% main\n"							\
	"        baz\n"								\
	"-   12.50%    12.50%  prog     libc.so.6      [.] memcpy\n"			\
	"     main\n"								\
	"     baz\n"								\
	"     memcpy\n"

TEST(tui_view_children_branches)
{
	struct fixture fx;

	if (fill(&fx, true))
		SKIP("no memory");
	CHECK_EQ(tui_hist_view__fold_all(&fx.v, true), 0);
	/*
	 * main's tree branches below main: values there, a level deeper.
	 * An entry's tree has its callers down to it (a run: no value when
	 * alone) and, where it called others, a branch from it: foo's has
	 * both, 50 % and 25 % of all.
	 */
	check_lines(t, &fx,
		    "-  100.00%     0.00%  prog     prog           [.] main\n"
		    "   - main\n"
		    "      - 75.00% foo\n"
		    "           bar\n"
		    "      - 25.00% baz\n"
		    "           memcpy\n"
		    CHILDREN_BELOW_MAIN);
	done(&fx);
}

TEST(tui_view_toggle_one_level)
{
	struct fixture fx;

	if (fill(&fx, true))
		SKIP("no memory");
	/* + on main's row: its first level only, the branching line folded */
	CHECK_EQ(tui_hist_view__toggle(&fx.v, 0), 0);
	CHECK_EQ(tui_hist_view__build(&fx.v), 0);
	CHECK_EQ(fx.v.rows[0].sign, '-');
	CHECK_EQ(fx.v.rows[1].sign, '+');
	CHECK_STR(fx.v.rows[1].n->name, "main");
	/* + on that line: its children, each still folded */
	CHECK_EQ(tui_hist_view__toggle(&fx.v, 1), 0);
	CHECK_EQ(tui_hist_view__build(&fx.v), 0);
	CHECK_EQ(fx.v.rows[2].sign, '+');
	CHECK_EQ(fx.v.rows[2].offset, 6);
	CHECK(fx.v.rows[2].value);
	/* a line without children does nothing */
	CHECK_EQ(tui_hist_view__toggle(&fx.v, 999), 0);
	done(&fx);
}

TEST(tui_view_zoom_and_filter)
{
	struct fixture fx;

	if (fill(&fx, false))
		SKIP("no memory");
	fx.v.dso = LIB;
	fx.v.po.entry_widths = true;
	/* every key column as wide as its widest entry left, headers or not */
	check_lines(t, &fx, "+   12.50%  prog  libc.so.6  [.] memcpy\n");
	fx.v.dso = NULL;
	snprintf(fx.v.sym_filter, sizeof(fx.v.sym_filter), "ba");
	check_lines(t, &fx,
		    "+   25.00%  prog  prog  [.] bar\n"
		    "+   12.50%  prog  prog  [.] baz\n");
	done(&fx);
}

/* main's flat chains, each below main's frame, folded to that line (E leaves them so). */
#define FLAT_MAIN								\
	"-  100.00%     0.00%  prog     prog           [.] main\n"			\
	"   + 75.00% main\n"							\
	"   + 25.00% main\n"							\
	"   + 12.50% main\n"							\
	"   + 25.00% main\n"

/*
 * -g flat: a chain's frames under its value (the run's cumulated hits);
 * below a parent's frames its first line folds the others, and E leaves
 * it so; a chain that is its own run is unfolded by E; a lone chain has
 * no value and no sign.
 */
TEST(tui_view_flat_chains)
{
	struct fixture fx;

	if (fill_mode(&fx, true, EMBER_CALLCHAIN_FLAT))
		SKIP("no memory");
	CHECK_EQ(tui_hist_view__toggle(&fx.v, 0), 0);
	check_lines(t, &fx,
		    FLAT_MAIN
		    "+   75.00%    50.00%  prog     prog           [.] foo\n"
		    "+   25.00%    25.00%  prog     prog           [.] bar\n"
		    "+   25.00%    12.50%  prog     prog           [.] baz\n"
		    "+   12.50%    12.50%  prog     libc.so.6      [.] memcpy\n");
	CHECK_EQ(tui_hist_view__fold_all(&fx.v, true), 0);
	check_lines(t, &fx,
		    FLAT_MAIN
		    CHILDREN_BELOW_MAIN);
	/* + on a chain below its parent's frames: all of its frames */
	CHECK_EQ(tui_hist_view__toggle(&fx.v, 1), 0);
	CHECK_EQ(tui_hist_view__build(&fx.v), 0);
	CHECK_EQ(fx.v.rows[1].sign, '-');
	CHECK_STR(fx.v.rows[2].n->name, "foo");
	CHECK_EQ(fx.v.rows[2].offset, 6);
	CHECK(!fx.v.rows[2].value);
	done(&fx);
}

/* -g folded: a line a chain, its own hits, its frames joined by ';'. */
TEST(tui_view_folded_chains)
{
	struct fixture fx;

	if (fill_mode(&fx, true, EMBER_CALLCHAIN_FOLDED))
		SKIP("no memory");
	CHECK_EQ(tui_hist_view__fold_all(&fx.v, true), 0);
	check_lines(t, &fx,
		    "-  100.00%     0.00%  prog     prog           [.] main\n"
		    "   + 50.00% main;foo\n"
		    "   + 25.00% main;foo;bar\n"
		    "   + 12.50% main;baz;memcpy\n"
		    "   + 12.50% main;baz\n"
		    "-   75.00%    50.00%  prog     prog           [.] foo\n"
		    "   - 50.00% main;foo\n"
		    "   - 25.00% foo;bar\n"
		    "-   25.00%    25.00%  prog     prog           [.] bar\n"
		    "     main;foo;bar\n"
		    "-   25.00%    12.50%  prog     prog           [.] baz\n"
		    "   - 12.50% baz;memcpy\n"
		    "   - 12.50% main;baz\n"
		    "-   12.50%    12.50%  prog     libc.so.6      [.] memcpy\n"
		    "     main;baz;memcpy\n");
	done(&fx);
}

/* L: the entries and the callchain branches under the limit hidden, what was unfolded folded. */
TEST(tui_view_percent_limit)
{
	struct fixture fx;

	if (fill(&fx, true))
		SKIP("no memory");
	CHECK_EQ(tui_hist_view__fold_all(&fx.v, true), 0);
	tui_hist_view__set_percent_limit(&fx.v, 30);
	check_lines(t, &fx,
		    "+  100.00%     0.00%  prog     prog           [.] main\n"
		    "+   75.00%    50.00%  prog     prog           [.] foo\n");
	CHECK_EQ(tui_hist_view__toggle(&fx.v, 0), 0);
	/* baz's 25 % is under the limit: main's one child shown, no value, folded */
	check_lines(t, &fx,
		    "-  100.00%     0.00%  prog     prog           [.] main\n"
		    "   + main\n"
		    "+   75.00%    50.00%  prog     prog           [.] foo\n");
	done(&fx);
}
