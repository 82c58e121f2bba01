// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember report's run: the session's samples into one histogram per event
 * (libember's ember_hist_feed, with the options of the command line),
 * then the report printed event by event, with perf's header lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include "report/run.h"

static const char *thread_comm(const void *thread)
{
	return ember_thread__comm((const struct ember_thread *)thread);
}

int report__process(struct report *rep)
{
	struct ember_hist_feed_opts fo = {
		.sz = sizeof(fo),
		.hist = &rep->hopts,
		.filters = rep->filters,
		.callchains = rep->have_callchain,
		.hide_unresolved = rep->o.hide_unresolved,
		.limit_stack = true,
		.max_stack = rep->o.max_stack,
		.filter_relative = rep->o.filter_relative,
		.min_percent = rep->o.min_percent,
	};

	rep->hopts.sz = sizeof(rep->hopts);
	rep->hopts.layout = &rep->layout;
	rep->feed = ember_hist_feed__new(rep->session, &fo);
	if (!rep->feed)
		return -errno;
	return ember_hist_feed__process(rep->feed);
}

void report__print(struct report *rep, FILE *fp)
{
	const struct ember_session_stats *st = ember_session__stats(rep->session);
	struct report_print_opts po = {
		.show_header = !rep->o.quiet,
		.filter_relative = rep->o.filter_relative,
		.min_percent = rep->o.min_percent,
		.field_sep = rep->o.field_sep,
		.dso_filter = rep->o.dsos != NULL,
		.thread_comm = thread_comm,
	};
	uint32_t i, nr_hists = ember_hist_feed__nr_hists(rep->feed);

	if (!rep->o.quiet)
		fprintf(fp, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", st->nr_lost_samples);
	for (i = 0; i < nr_hists; i++) {
		const struct ember_hist *h = ember_hist_feed__hist(rep->feed, i);
		const struct ember_hist_stats *hs;
		const struct ember_data_attr *a = ember_data_reader__attr(rep->reader, i);
		unsigned long nr;
		char unit, name[256];

		/* perf skips events without samples (--skip-empty) */
		if (!h || !a)
			continue;
		hs = ember_hist__stats(h);
		if (!hs->nr_samples)
			continue;
		if (!rep->o.quiet) {
			nr = rep->o.filter_relative ? hs->nr_non_filtered_samples : hs->nr_samples;
			nr = report_convert_unit(nr, &unit);
			report_event_name(rep->session, a, name, sizeof(name));
			fprintf(fp, "# Samples: %lu%c of event '%s'\n", nr, unit, name);
			fprintf(fp, "# Event count (approx.): %" PRIu64 "\n#\n",
				ember_hist__total_period(h, rep->o.filter_relative));
		}
		report__fprintf_hist(h, &po, fp);
		fprintf(fp, "\n\n");
	}
}
