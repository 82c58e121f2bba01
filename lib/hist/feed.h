/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A session's samples into histograms: the feed's state, shared by feed.c and fold.c. */
#ifndef EMBER_HIST_FEED_H
#define EMBER_HIST_FEED_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/hist.h>
#include <ember/session.h>

struct ember_hist_feed {
	struct ember_session *session;
	struct ember_data_reader *reader;
	struct ember_hist_feed_opts o;	/* o.hist is &hopts */
	struct ember_hist_opts hopts;	/* each event's histogram's; its layout is &layout */
	struct ember_hist_layout layout;
	const struct ember_hist_filters *filters;
	/* -U and the dso and symbol filters look at the sample's symbol first */
	bool needs_sample_symbol;
	struct ember_hist **hists;	/* by attr index */
	uint32_t nr_hists;
	uint32_t *ids;			/* scratch: a sample's frame indices, self + chain */
	uint32_t ids_alloc;
	struct hist_stacks *stacks;	/* samples folded by stack, while the session is read */
	struct hist_frameids *frameids;	/* addresses resolved to frames of stacks, likewise */
	struct hist_inlines *inlines;	/* unwound frames' inline levels, frames of stacks */
	struct hist_srclines *srclines;	/* srcline/srcfile strings, NULL unless shown */
	struct hist_traces *traces;	/* tracepoint texts, NULL unless sorted by trace */
	struct hist_comms *comms;	/* placeholder comms perf renames */
};

/* The session's sample callback: folds ss into feed->stacks (fold.c). */
int hist_feed__sample(struct ember_session *s, const struct ember_session_sample *ss, void *feed);

#endif
