// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf report's percentage rules: what percentages are of, which entries
 * are shown (--percent-limit) and which callchain branches (the -g
 * threshold). The printer and the histogram's second pass, which builds
 * only the callchains that will be shown, both go by them; the ones about
 * an entry are inline in hist-priv.h, that pass asks them of every entry
 * of every stack.
 */
#include "hist/hist-priv.h"

uint64_t ember_hist__entry_period(const struct ember_hist *h, const struct ember_hist_entry *e)
{
	return hist__entry_period(h, e);
}

uint64_t ember_hist__total_period(const struct ember_hist *h, bool filter_relative)
{
	return hist__total_period(h, filter_relative);
}

bool ember_hist__shows(const struct ember_hist *h, const struct ember_hist_entry *e,
		       bool filter_relative, double min_percent)
{
	return hist__shows(h, e, filter_relative, min_percent);
}

uint64_t ember_hist__callchain_min_hit(const struct ember_hist *h, bool filter_relative)
{
	const struct ember_callchain_param *cp = &h->opts.chain;
	uint64_t total = filter_relative ? h->stats.callchain_non_filtered_period :
					   h->stats.callchain_period;

	if (cp->mode == EMBER_CALLCHAIN_GRAPH_REL)
		return 0;
	return (uint64_t)(total * (cp->min_percent / 100));
}
