// SPDX-License-Identifier: GPL-2.0-only
/* ember_set_log(): diagnostics reach the callback with its context, and the old sink comes back. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <ember/common.h>
#include "core/log.h"
#include "test.h"

struct caught {
	char text[128];
	enum ember_log_level level;
	int nr;
};

static int catch_line(enum ember_log_level level, void *ctx, const char *fmt, va_list ap)
{
	struct caught *c = ctx;

	c->level = level;
	c->nr++;
	return vsnprintf(c->text, sizeof(c->text), fmt, ap);
}

TEST(log_reaches_the_callback_with_its_context)
{
	struct caught a = { 0 }, b = { 0 };
	struct ember_log old = ember_set_log(catch_line, &a), mid;

	pr_warn("cannot open %s: %d\n", "x", 2);
	pr_debug("detail\n");
	CHECK_EQ(a.nr, 2);
	CHECK_EQ(a.level, EMBER_DEBUG);
	CHECK_STR(a.text, "detail\n");

	/* a second sink: the first one's context sees nothing more */
	mid = ember_set_log(catch_line, &b);
	CHECK(mid.fn == catch_line && mid.ctx == &a);
	pr_info("to b\n");
	CHECK_EQ(a.nr, 2);
	CHECK_EQ(b.nr, 1);
	CHECK_STR(b.text, "to b\n");

	/* NULL silences */
	ember_set_log(NULL, NULL);
	pr_warn("nowhere\n");
	CHECK_EQ(b.nr, 1);

	mid = ember_set_log(old.fn, old.ctx);
	CHECK(mid.fn == NULL && mid.ctx == NULL);
	CHECK(old.fn != NULL);
}
