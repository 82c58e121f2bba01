// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf 6.1's warnings about what the kernel dropped, word for word: lost
 * chunks whenever there are LOST records, lost samples only over 5 %, and
 * then counted among the processed ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <ember/session.h>
#include "test.h"

/* What ember_session_stats__fprintf_lost() prints for st; the caller frees it. */
static char *lost_text(const struct ember_session_stats *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return NULL;
	ember_session_stats__fprintf_lost(st, fp);
	fclose(fp);
	return buf;
}

TEST(session_lost_nothing_lost_says_nothing)
{
	struct ember_session_stats st = { .nr_records = 1000, .nr_samples = 900 };
	char *text = lost_text(&st);

	CHECK_STR(text, "");
	free(text);
}

TEST(session_lost_chunks)
{
	struct ember_session_stats st = {
		.nr_records = 508096, .nr_samples = 490109, .nr_lost_records = 464,
		.nr_lost_samples = 2000,	/* 0.4 %: no second warning */
	};
	char *text = lost_text(&st);

	CHECK_STR(text, "Warning:\nProcessed 508096 events and lost 464 chunks!\n\n"
		     "Check IO/CPU overload!\n\n");
	free(text);
}

TEST(session_lost_samples_over_five_percent)
{
	/* the figures perf report printed for the same counts */
	struct ember_session_stats st = {
		.nr_records = 508096, .nr_samples = 490109, .nr_lost_records = 464,
		.nr_lost_samples = 50757,
	};
	char *text = lost_text(&st);

	CHECK_STR(text, "Warning:\nProcessed 508096 events and lost 464 chunks!\n\n"
		     "Check IO/CPU overload!\n\n"
		     "Warning:\nProcessed 540866 samples and lost 9.38%!\n\n");
	free(text);
}

TEST(session_lost_samples_at_five_percent_is_quiet)
{
	/* exactly 5 %: perf warns only above it */
	struct ember_session_stats st = { .nr_samples = 95, .nr_lost_samples = 5 };
	char *text = lost_text(&st);

	CHECK_STR(text, "");
	free(text);
}
