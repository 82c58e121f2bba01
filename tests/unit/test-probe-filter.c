// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember probe's event filters (-l, -d): perf's strfilter rules, globs on
 * the event or on "group:event", | & ! and parentheses, and filters that
 * do not parse.
 */
#include <errno.h>
#include "probe/probe.h"
#include "test.h"

TEST(probe_filter)
{
	CHECK_EQ(probe_filter__match("add", "probe_t", "add"), 1);
	CHECK_EQ(probe_filter__match("add", "probe_t", "add_1"), 0);
	CHECK_EQ(probe_filter__match("add*", "probe_t", "add_1"), 1);
	CHECK_EQ(probe_filter__match("probe_t:*", "probe_t", "x"), 1);
	CHECK_EQ(probe_filter__match("probe_t:*", "probe_tx", "x"), 0);
	CHECK_EQ(probe_filter__match("*", "g", "e"), 1);
	CHECK_EQ(probe_filter__match("a|b", "g", "b"), 1);
	CHECK_EQ(probe_filter__match("a|b", "g", "c"), 0);
	CHECK_EQ(probe_filter__match("g:*&!*return", "g", "f__return"), 0);
	CHECK_EQ(probe_filter__match("g:*&!*return", "g", "f"), 1);
	CHECK_EQ(probe_filter__match("!(a|b)", "g", "c"), 1);
	/*
	 * perf tries the event, then "group:event", each against the whole
	 * filter: "g:a" is not "a", so !a holds for it; and no one name is
	 * both "b" and "g:*".
	 */
	CHECK_EQ(probe_filter__match("!(a|b)", "g", "a"), 1);
	CHECK_EQ(probe_filter__match("(a|b)&g:*", "g", "b"), 0);
	CHECK_EQ(probe_filter__match("x:[ab]?", "x", "ac"), 1);
	CHECK_EQ(probe_filter__match("", "g", "e"), -EINVAL);
	CHECK_EQ(probe_filter__match("a|", "g", "e"), -EINVAL);
	CHECK_EQ(probe_filter__match("(a", "g", "e"), -EINVAL);
	CHECK_EQ(probe_filter__match("a)", "g", "e"), -EINVAL);
	CHECK_EQ(probe_filter__match("((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))))",
					 "g", "a"), -EINVAL);
}
