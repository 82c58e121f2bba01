// SPDX-License-Identifier: GPL-2.0-only
#include <stdbool.h>
#include "test.h"
#include "util/parse-options.h"

static const char *const usage[] = { "ember t [<options>]", NULL };

struct opts {
	bool all, big;
	int verbose, repeat;
	const char *event, *output;
};

static int run(struct opts *o, int argc, const char **argv, int flags)
{
	const struct option options[] = {
		OPT_BOOLEAN('a', "all-cpus", &o->all, "system-wide"),
		OPT_BOOLEAN('B', "big-num", &o->big, "big numbers"),
		OPT_INCR('v', "verbose", &o->verbose, "verbose"),
		OPT_INTEGER('r', "repeat", &o->repeat, "n", "repeat"),
		OPT_STRING('e', "event", &o->event, "event", "event"),
		OPT_STRING('o', "output", &o->output, "file", "output"),
		OPT_END(),
	};
	return parse_options(argc, argv, options, usage, flags);
}

TEST(parse_options_forms)
{
	struct opts o = { .big = true };
	const char *argv[] = { "t", "-av", "-e", "cycles", "--repeat=3", "--no-big-num",
			       "-ofile", "sleep", "1", NULL };
	int n = run(&o, 9, argv, PARSE_OPT_STOP_AT_NON_OPTION);

	CHECK_EQ(n, 2);
	CHECK(o.all);
	CHECK(!o.big);
	CHECK_EQ(o.verbose, 1);
	CHECK_EQ(o.repeat, 3);
	CHECK_STR(o.event, "cycles");
	CHECK_STR(o.output, "file");
	CHECK_STR(argv[0], "sleep");
	CHECK_STR(argv[1], "1");
}

TEST(parse_options_stop_at_command)
{
	struct opts o = { 0 };
	const char *argv[] = { "t", "-a", "--", "ls", "-l", NULL };
	int n = run(&o, 5, argv, PARSE_OPT_STOP_AT_NON_OPTION);

	CHECK_EQ(n, 2);
	CHECK_STR(argv[0], "ls");
	CHECK_STR(argv[1], "-l");

	const char *argv2[] = { "t", "ls", "-a", NULL };
	o.all = false;
	n = run(&o, 3, argv2, PARSE_OPT_STOP_AT_NON_OPTION);
	CHECK_EQ(n, 2);
	CHECK(!o.all);
}

TEST(parse_options_prefix_and_errors)
{
	struct opts o = { 0 };
	const char *a1[] = { "t", "--verb", "--all", NULL };
	CHECK_EQ(run(&o, 3, a1, 0), 0);
	CHECK_EQ(o.verbose, 1);

	const char *a2[] = { "t", "--nosuch", NULL };
	CHECK_EQ(run(&o, 2, a2, 0), PARSE_OPT_ERROR);
	const char *a3[] = { "t", "-e", NULL };
	CHECK_EQ(run(&o, 2, a3, 0), PARSE_OPT_ERROR);
	const char *a4[] = { "t", "-r", "x", NULL };
	CHECK_EQ(run(&o, 3, a4, 0), PARSE_OPT_ERROR);
	const char *a5[] = { "t", "-z", NULL };
	CHECK_EQ(run(&o, 2, a5, 0), PARSE_OPT_ERROR);
}
