// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * From the session to the histograms, as perf report goes: each sample
 * is resolved and folded into the distinct stacks while the session is
 * read (fold.c); then the stacks are added to their event's histogram,
 * first their entries, then the callchains of the entries that will be
 * shown, and each histogram is sorted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "hist/comms.h"
#include "hist/feed.h"
#include "hist/filters.h"
#include "hist/frameids.h"
#include "hist/hist-priv.h"
#include "hist/opts.h"
#include "hist/srcline.h"
#include "hist/inlines.h"
#include "hist/stacks.h"
#include "hist/tracekey.h"

void ember_hist_feed__delete(struct ember_hist_feed *feed)
{
	if (!feed)
		return;
	for (uint32_t i = 0; i < feed->nr_hists; i++)
		ember_hist__delete(feed->hists[i]);
	free(feed->hists);
	hist_stacks__delete(feed->stacks);
	hist_frameids__delete(feed->frameids);
	hist_inlines__delete(feed->inlines);
	hist_srclines__delete(feed->srclines);
	hist_traces__delete(feed->traces);
	hist_comms__delete(feed->comms);
	free(feed->ids);
	free(feed);
}

/* The helpers the histograms' keys need: source lines, tracepoint texts, comm renames. */
static int make_helpers(struct ember_hist_feed *feed)
{
	uint64_t lines =
	    EMBER_HIST_KEY(EMBER_HIST_DIM_SRCLINE) | EMBER_HIST_KEY(EMBER_HIST_DIM_SRCFILE);
	bool chain_lines =
	    feed->hopts.use_callchain && feed->hopts.chain.key == EMBER_CALLCHAIN_ADDRESS;

	feed->comms = hist_comms__new();
	if (!feed->comms)
		return -ENOMEM;
	/* source lines are looked up only when a key or an address-keyed chain shows them */
	feed->hopts.srcline = NULL;
	feed->hopts.chain_srcline = NULL;
	feed->hopts.srcline_ctx = NULL;
	if ((feed->layout.key_mask & lines) || chain_lines) {
		feed->srclines = hist_srclines__new();
		if (!feed->srclines)
			return -ENOMEM;
		feed->hopts.srcline_ctx = feed->srclines;
	}
	if (feed->layout.key_mask & lines)
		feed->hopts.srcline = hist_srclines__get;
	if (chain_lines)
		feed->hopts.chain_srcline = hist_srclines__chain;
	/* each tracepoint sample's text is part of its key, its stack's too */
	if (feed->layout.key_mask & EMBER_HIST_KEY(EMBER_HIST_DIM_TRACE)) {
		feed->traces = hist_traces__new();
		if (!feed->traces)
			return -ENOMEM;
	}
	return 0;
}

struct ember_hist_feed *ember_hist_feed__new(struct ember_session *s,
					     const struct ember_hist_feed_opts *opts)
{
	struct ember_hist_feed *feed;
	int err;

	if (!s || !opts || !opts->sz || !opts->hist || !opts->hist->sz || !opts->hist->layout) {
		errno = EINVAL;
		return NULL;
	}
	feed = calloc(1, sizeof(*feed));
	if (!feed)
		return NULL;
	feed->session = s;
	feed->reader = ember_session__reader(s);
	hist_opts_copy(&feed->o, sizeof(feed->o), opts, opts->sz);
	hist_opts_copy(&feed->hopts, sizeof(feed->hopts), opts->hist, opts->hist->sz);
	feed->hopts.sz = sizeof(feed->hopts);
	feed->layout = *opts->hist->layout;
	feed->hopts.layout = &feed->layout;
	feed->o.sz = sizeof(feed->o);
	feed->o.hist = &feed->hopts;
	feed->filters = feed->o.filters;
	feed->needs_sample_symbol =
	    feed->o.hide_unresolved || hist_filters__by_symbol(feed->filters);
	err = make_helpers(feed);
	if (err) {
		ember_hist_feed__delete(feed);
		errno = -err;
		return NULL;
	}
	return feed;
}

static int on_record(struct ember_session *s, const struct ember_data_record *rec,
		     const struct ember_sample *id, void *ctx)
{
	struct ember_hist_feed *feed = ctx;
	const struct ember_record_comm *c = (const void *)rec->hdr;
	struct ember_thread *t;

	/* after the machine took it: the thread has its new comm */
	if (rec->hdr->type == PERF_RECORD_COMM && rec->hdr->size >= sizeof(*c) &&
	    (t = ember_machine__find_thread(ember_session__machine(s), c->pid, c->tid)))
		hist_comms__set(feed->comms, t, ember_thread__comm(t));
	return 0;
}

/*
 * Kernel symbols can wait until the samples are folded (the kernel's
 * /proc/kallsyms, read meanwhile by a thread, takes it tens of
 * milliseconds to print) when nothing looks at them before: no dso or
 * symbol filter, no hide_unresolved; and only when an event may have
 * kernel samples.
 */
static bool can_defer_kernel(const struct ember_hist_feed *feed)
{
	uint32_t i, nr = ember_data_reader__nr_attrs(feed->reader);

	if (feed->needs_sample_symbol)
		return false;
	for (i = 0; i < nr; i++) {
		const struct ember_data_attr *a = ember_data_reader__attr(feed->reader, i);

		if (a && !a->attr.exclude_kernel)
			return true;
	}
	return false;
}

/* A frame left unresolved in the kernel, completed as if it had been resolved at once. */
static void resolve_late(struct ember_hist_frame *f, void *ctx)
{
	struct ember_hist_feed *feed = ctx;
	struct ember_addr_location al;

	if (!f->dso || f->sym)
		return;
	al = (struct ember_addr_location){
		.dso = (struct ember_dso *)f->dso,
		.dso_name = f->dso_long_name,
		.dso_short_name = f->dso_name,
		.ip = f->ip,
		.addr = f->addr,
		.level = f->level,
		.cpumode = f->cpumode,
	};
	ember_session__resolve_late(feed->session, &al);
	/* the kernel's symbols have one per start: their ends never split entries */
	if (al.sym || !al.dso)
		ember_hist_frame__from_al(f, &al);
}

static int replay_one(uint32_t hist, const struct ember_hist_sample *sm, void *ctx)
{
	struct ember_hist_feed *feed = ctx;
	struct ember_hist_sample renamed = *sm;

	renamed.comm = hist_comms__get(feed->comms, sm->thread, sm->comm);
	return hist__add(feed->hists[hist], &renamed);
}

/*
 * Entries first; then only the callchains that will be shown: most
 * entries of a big profile are under the thresholds, and with
 * --children each would take a chain per frame of every stack it is in.
 */
static int replay(struct ember_hist_feed *feed)
{
	uint32_t i;
	int err;

	for (i = 0; i < feed->nr_hists; i++)
		if (feed->hists[i])
			hist__begin_entries(feed->hists[i]);
	err = hist_stacks__replay(feed->stacks, replay_one, feed);
	for (i = 0; !err && i < feed->nr_hists; i++)
		if (feed->hists[i])
			hist__begin_chains(feed->hists[i], feed->o.filter_relative,
					   feed->o.min_percent);
	if (!err && feed->hopts.use_callchain)
		err = hist_stacks__replay(feed->stacks, replay_one, feed);
	return err;
}

int ember_hist_feed__process(struct ember_hist_feed *feed)
{
	struct ember_session_ops ops = {.sample = hist_feed__sample, .record = on_record};
	bool deferred;
	int err;

	/* frames fold by address: address-keyed chains fold as well */
	feed->stacks = hist_stacks__new();
	feed->frameids = hist_frameids__new();
	feed->inlines = hist_inlines__new();
	if (!feed->stacks || !feed->frameids || !feed->inlines) {
		err = -ENOMEM;
		goto out;
	}
	deferred = can_defer_kernel(feed) && !ember_session__defer_kernel_symbols(feed->session);
	err = ember_session__process(feed->session, &ops, feed);
	if (!err && deferred)
		hist_stacks__update_frames(feed->stacks, resolve_late, feed);
	if (!err)
		err = replay(feed);
out:
	hist_stacks__delete(feed->stacks);
	feed->stacks = NULL;
	hist_frameids__delete(feed->frameids);
	feed->frameids = NULL;
	hist_inlines__delete(feed->inlines);
	feed->inlines = NULL;
	for (uint32_t i = 0; !err && i < feed->nr_hists; i++)
		if (feed->hists[i])
			err = ember_hist__resort(feed->hists[i]);
	return err;
}

uint32_t ember_hist_feed__nr_hists(const struct ember_hist_feed *feed)
{
	return feed->nr_hists;
}

struct ember_hist *ember_hist_feed__hist(const struct ember_hist_feed *feed, uint32_t idx)
{
	return idx < feed->nr_hists ? feed->hists[idx] : NULL;
}
