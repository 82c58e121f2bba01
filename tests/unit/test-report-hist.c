// SPDX-License-Identifier: GPL-2.0-only
/*
 * libember's histogram and report's printer on synthetic samples: merging by
 * the sort keys, self and children periods (a recursive frame counted
 * once), perf's row order, and the exact --stdio text of graph, flat and
 * folded callchains.
 */
#include <stdlib.h>
#include <string.h>
#include "report/report.h"
#include "hist-fixture.h"
#include "test.h"

static const char DSO[] = "prog";	/* identity and name of the one dso */

#define SYM(name_, start_) { .dso = DSO, .sym = #name_, .sym_name = #name_, .dso_name = DSO,	\
			     .dso_long_name = "/bin/prog", .ip = 0x400000 + (start_) + 4,	\
			     .addr = (start_) + 4, .sym_start = (start_), .sym_end = (start_) + 0x80,	\
			     .level = '.', .cpumode = 2 }

static const struct ember_hist_frame f_main = SYM(main, 0x100);
static const struct ember_hist_frame f_foo = SYM(foo, 0x200);
static const struct ember_hist_frame f_bar = SYM(bar, 0x300);

/* Three samples in foo (called by main), one in bar (main -> foo -> bar). */
static void fill(struct hist_fixture *fx)
{
	const struct ember_hist_frame *foo[] = {&f_foo, &f_main};
	const struct ember_hist_frame *bar[] = {&f_bar, &f_foo, &f_main};

	hist_fixture__add(fx, foo, 2, 3);
	hist_fixture__add(fx, bar, 3, 1);
}

static char *render(struct hist_fixture *fx)
{
	struct report_print_opts po = {.show_header = true};
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ember_hist__resort(fx->h);
	report__fprintf_hist(fx->h, &po, fp);
	fclose(fp);
	return buf;
}

static void check_text(struct unit_test *t, const char *got, const char *want)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "  got:\n%s\n  want:\n%s\n", got, want);
		t->failures++;
	}
}

TEST(report_hist_self_graph)
{
	struct hist_fixture fx;
	char *out;

	if (hist_fixture__setup(&fx, false, EMBER_CALLCHAIN_GRAPH_ABS, NULL))
		SKIP("no memory");
	fill(&fx);
	CHECK_EQ(ember_hist__stats(fx.h)->nr_samples, 4);
	out = render(&fx);
	check_text(t, out,
		   "# Overhead  Command  Shared Object  Symbol \n"
		   "# ........  .......  .............  .......\n"
		   "#\n"
		   "    75.00%  prog     prog           [.] foo\n"
		   "            |\n"
		   "            ---foo\n"
		   "               main\n"
		   "\n"
		   "    25.00%  prog     prog           [.] bar\n"
		   "            |\n"
		   "            ---bar\n"
		   "               foo\n"
		   "               main\n"
		   "\n");
	free(out);
	ember_hist__delete(fx.h);
}

TEST(report_hist_children)
{
	const struct ember_hist_frame *rec[] = {&f_foo, &f_foo, &f_main};
	struct hist_fixture fx;
	char *out;

	if (hist_fixture__setup(&fx, true, EMBER_CALLCHAIN_GRAPH_ABS, NULL))
		SKIP("no memory");
	fill(&fx);
	/* a recursive foo counts once in foo's children */
	hist_fixture__add(&fx, rec, 3, 1);
	out = render(&fx);
	check_text(t, out,
		   "# Children      Self  Command  Shared Object  Symbol  \n"
		   "# ........  ........  .......  .............  ........\n"
		   "#\n"
		   /* equal children: the larger self period first */
		   "   100.00%    80.00%  prog     prog           [.] foo\n"
		   "            |          \n"
		   "            |--80.00%--main\n"
		   "            |          foo\n"
		   "            |          |          \n"
		   "            |           --20.00%--foo\n"
		   "            |          \n"
		   "             --20.00%--foo\n"
		   "                       bar\n"
		   "\n"
		   "   100.00%     0.00%  prog     prog           [.] main\n"
		   "            |\n"
		   "            ---main\n"
		   "               foo\n"
		   "               |          \n"
		   "               |--20.00%--bar\n"
		   "               |          \n"
		   "                --20.00%--foo\n"
		   "\n"
		   "    20.00%    20.00%  prog     prog           [.] bar\n"
		   "            |\n"
		   "            ---main\n"
		   "               foo\n"
		   "               bar\n"
		   "\n");
	free(out);
	ember_hist__delete(fx.h);
}

TEST(report_hist_flat_folded)
{
	struct hist_fixture fx;
	char *out;

	if (hist_fixture__setup(&fx, false, EMBER_CALLCHAIN_FLAT, NULL))
		SKIP("no memory");
	fill(&fx);
	out = render(&fx);
	check_text(t, strstr(out, "    75.00%"),
		   "    75.00%  prog     prog           [.] foo\n"
		   "           75.00%\n"
		   "                foo\n"
		   "                main\n"
		   "\n"
		   "    25.00%  prog     prog           [.] bar\n"
		   "           25.00%\n"
		   "                bar\n"
		   "                foo\n"
		   "                main\n"
		   "\n");
	free(out);
	ember_hist__delete(fx.h);

	if (hist_fixture__setup(&fx, false, EMBER_CALLCHAIN_FOLDED, NULL))
		SKIP("no memory");
	fill(&fx);
	out = render(&fx);
	check_text(t, strstr(out, "    75.00%"),
		   "    75.00%  prog     prog           [.] foo\n"
		   "75.00% foo;main\n"
		   "    25.00%  prog     prog           [.] bar\n"
		   "25.00% bar;foo;main\n");
	free(out);
	ember_hist__delete(fx.h);
}

TEST(report_hist_sort_dso_merges)
{
	struct hist_fixture fx;
	char *out;

	/* by dso alone every sample is one row */
	if (hist_fixture__setup(&fx, false, EMBER_CALLCHAIN_NONE, "dso"))
		SKIP("no memory");
	fill(&fx);
	out = render(&fx);
	check_text(t, out,
		   "# Overhead  Shared Object\n"
		   "# ........  .............\n"
		   "#\n"
		   "   100.00%  prog         \n");
	free(out);
	ember_hist__delete(fx.h);
}

TEST(report_convert_unit)
{
	char unit;

	CHECK_EQ(report_convert_unit(767, &unit), 767);
	CHECK_EQ(unit, ' ');
	CHECK_EQ(report_convert_unit(1000, &unit), 1000);
	CHECK_EQ(unit, ' ');
	CHECK_EQ(report_convert_unit(4999, &unit), 4);
	CHECK_EQ(unit, 'K');
	CHECK_EQ(report_convert_unit(2500000, &unit), 2);
	CHECK_EQ(unit, 'M');
}

/* perf top's screen: at most max_rows entries, widths of those, rows cut at max_cols - 1. */
TEST(report_hist_screen_cut)
{
	struct hist_fixture fx;
	struct report_print_opts po = {.max_rows = 1, .max_cols = 30};
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	if (hist_fixture__setup(&fx, false, EMBER_CALLCHAIN_NONE, "dso,sym"))
		SKIP("no memory");
	fill(&fx);
	ember_hist__resort(fx.h);
	fp = open_memstream(&buf, &len);
	report__fprintf_hist(fx.h, &po, fp);
	fclose(fp);
	/* "    75.00%  prog           [.] foo" cut to 29 characters, bar not shown */
	check_text(t, buf, "    75.00%  prog           [.\n");
	free(buf);
	/* no cut, two rows: as report prints them */
	po.max_rows = 0;
	po.max_cols = 0;
	buf = NULL;
	fp = open_memstream(&buf, &len);
	report__fprintf_hist(fx.h, &po, fp);
	fclose(fp);
	check_text(t, buf,
		   "    75.00%  prog           [.] foo\n"
		   "    25.00%  prog           [.] bar\n");
	free(buf);
	ember_hist__delete(fx.h);
}
