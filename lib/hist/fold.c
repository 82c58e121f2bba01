// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A sample of the session folded into the stacks: its own address and
 * its callchain resolved as perf report resolves them (perf's filters,
 * -U, --max-stack), each address through the frame cache, the whole
 * stack added to the distinct stacks (stacks.h); a raw stack seen before
 * in the same maps goes straight to the stack it folded into then.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "hist/feed.h"
#include "hist/filters.h"
#include "hist/frameids.h"
#include "hist/inlines.h"
#include "hist/rawstacks.h"
#include "hist/stacks.h"
#include "hist/tracekey.h"
#include "hist/comms.h"
#include "machine/thread.h"

static struct ember_hist *hist_of(struct ember_hist_feed *feed, uint32_t idx)
{
	if (idx >= feed->nr_hists) {
		uint32_t nr = idx + 1, i;
		struct ember_hist **v = realloc(feed->hists, nr * sizeof(*v));

		if (!v)
			return NULL;
		for (i = feed->nr_hists; i < nr; i++)
			v[i] = NULL;
		feed->hists = v;
		feed->nr_hists = nr;
	}
	if (!feed->hists[idx])
		feed->hists[idx] = ember_hist__new(&feed->hopts);
	return feed->hists[idx];
}

#define RAW_KEY_MAX 256

/*
 * The raw key of a sample: everything its folded stack depends on, with
 * its ips as recorded, and the generation of the maps they resolve in.
 * 0 when the sample is not worth a key (no thread, a chain too long).
 */
static size_t raw_key(uint64_t *key, const struct ember_session_sample *ss, uint32_t hist,
		      int32_t cpu, uint8_t filtered)
{
	const struct ember_sample *sm = ss->sample;
	size_t n = 0;

	if (!ss->thread || sm->callchain_nr > RAW_KEY_MAX - 6)
		return 0;
	key[n++] = (uint64_t)hist | (uint64_t)ss->al.cpumode << 32 | (uint64_t)filtered << 40;
	key[n++] = (uintptr_t)ss->thread;
	key[n++] = (uintptr_t)ss->al.comm ^ (uint64_t)(uint32_t)cpu << 48;
	key[n++] = ember_thread__maps_gen(ss->thread);
	key[n++] = sm->ip;
	key[n++] = (uint64_t)(uint32_t)cpu;
	memcpy(&key[n], sm->callchain, sm->callchain_nr * sizeof(*key));
	return n + sm->callchain_nr;
}

/*
 * Whether the session left the sample's own address unresolved
 * (lazy_sample_ip): most samples repeat a raw stack or an address seen
 * before, and need no lookup of their own.
 */
static bool sample_ip_lazy(const struct ember_session_sample *ss)
{
	return !ss->al.level && ss->thread &&
	       (ss->al.cpumode == PERF_RECORD_MISC_KERNEL || ss->al.cpumode == PERF_RECORD_MISC_USER);
}

static int grow_ids(struct ember_hist_feed *feed, uint64_t n)
{
	uint32_t *v;

	if (n <= feed->ids_alloc)
		return 0;
	if (n > UINT32_MAX / 2)
		return -ENOMEM;
	v = realloc(feed->ids, 2 * n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	feed->ids = v;
	feed->ids_alloc = 2 * n;
	return 0;
}

/* Appends frame id to feed->ids[*k], unless hide_unresolved drops it. */
static void push_id(struct ember_hist_feed *feed, int64_t id, uint32_t *k)
{
	if (feed->o.hide_unresolved && !hist_stacks__frame_at(feed->stacks, (uint32_t)id)->sym)
		return;
	feed->ids[(*k)++] = (uint32_t)id;
}

/*
 * The chain's frames onto feed->ids from *k, as ember_session__callchain()
 * would resolve them (leaf first), each address through the frame cache,
 * an unwound user frame (a word the session added to a --call-graph dwarf
 * sample) with its inline levels; *added: how many frames, *added_words:
 * how many addresses come from the words the session added. Returns the
 * number of addresses (markers not counted) or -ENOMEM.
 */
static int chain_ids(struct ember_hist_feed *feed, struct ember_session *s,
		     const struct ember_session_sample *ss, uint32_t *k, uint32_t *added,
		     uint32_t *added_words)
{
	const struct ember_sample *sm = ss->sample;
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	uint32_t from = 0;	/* *k when the added words' frames began */
	int nr = 0;

	*added_words = 0;
	for (uint64_t i = 0; i < sm->callchain_nr; i++) {
		uint64_t ip = sm->callchain[i];
		const uint32_t *inl;
		int64_t id;
		int n = 0;

		/* a call only for perf's markers: most words are addresses */
		if (ip >= PERF_CONTEXT_MAX && ember_callchain__context(ip, &cpumode))
			continue;
		id = hist_frameids__ip(feed->frameids, feed->stacks, ss->thread, cpumode, ip);
		if (id < 0)
			return (int)id;
		if (i >= ss->callchain_recorded && !from)
			from = *k;
		if (i >= ss->callchain_recorded) {
			++*added_words;
			if (cpumode == PERF_RECORD_MISC_USER)
				n = hist_inlines__frames(feed->inlines, s, feed->stacks, (uint32_t)id,
							 ss->thread, ip, &inl);
			if (n < 0)
				return n;
			if (n > 0 && grow_ids(feed, *k + n + sm->callchain_nr - i))
				return -ENOMEM;
		}
		if (!n)
			push_id(feed, id, k);
		for (int j = 0; j < n; j++)
			push_id(feed, inl[j], k);
		nr++;
	}
	*added = from ? *k - from : 0;
	return nr;
}

/* The same from the session's resolved chain: for a chain it may find invalid, or no thread. */
static int session_chain_ids(struct ember_hist_feed *feed, struct ember_session *s,
			     const struct ember_session_sample *ss, uint32_t *k)
{
	const struct ember_addr_location *chain = NULL;
	struct ember_hist_frame fr;
	int nr = ember_session__callchain(s, ss, &chain);

	if (nr == -ENOMEM)
		return nr;
	for (int i = 0; i < nr; i++) {
		int64_t id;

		ember_hist_frame__from_al(&fr, &chain[i]);
		id = hist_stacks__frame(feed->stacks, &fr);
		if (id < 0)
			return (int)id;
		push_id(feed, id, k);
	}
	return nr < 0 ? 0 : nr;
}

/*
 * perf's --max-stack: it walks a chain leaf first (callee order) or root
 * first (caller order) and stops after max_stack addresses, so those are
 * the ones kept. The chain is at feed->ids[1..*k), its last `added` the
 * frames of the words the session added (a --call-graph dwarf sample's
 * user ip): perf's unwinder takes max_stack of its own, from the leaf in
 * either order. A stack's hash made of its words still names one
 * truncated chain: the cut depends on nothing else (an event's samples
 * either all have their user part recorded or none).
 */
static void limit_chain(struct ember_hist_feed *feed, uint32_t *k, uint32_t added,
			uint32_t added_words)
{
	uint32_t nr = *k - 1 - added, max = feed->o.max_stack;
	/* an unwound frame's inline levels come with it: max counts addresses */
	uint32_t keep = nr < max ? nr : max, keep_added = added_words <= max ? added : max;

	if (!feed->o.limit_stack || (nr <= max && added_words <= max))
		return;
	if (nr > max && feed->hopts.chain.order == EMBER_CALLCHAIN_CALLER)
		memmove(&feed->ids[1], &feed->ids[1 + nr - max], max * sizeof(*feed->ids));
	memmove(&feed->ids[1 + keep], &feed->ids[1 + nr], keep_added * sizeof(*feed->ids));
	*k = 1 + keep + keep_added;
}

/*
 * The sample's frames as indices onto feed->ids: its own address (al,
 * or resolved here when the session left it), then its chain when
 * with_chain; *n: how many, *hash: the stack's hash (stacks.h) with the
 * key of sm for histogram hist. Returns the chain's resolved addresses
 * (0 for a chain the session dropped) or -ENOMEM.
 */
static int sample_ids(struct ember_hist_feed *feed, struct ember_session *s,
		      const struct ember_session_sample *ss, const struct ember_addr_location *al,
		      uint32_t hist, const struct ember_hist_sample *sm, bool with_chain,
		      uint32_t *n, uint64_t *hash)
{
	uint64_t start = hist_stacks__hash_start(hist, sm), h = start;
	/*
	 * Only perf's host context markers in the chain (else the session
	 * walks it, and counts it invalid); its hash is made on the way.
	 */
	bool plain =
	    with_chain && ss->thread &&
	    hist_stacks__hash_words(&h, al->ip, ss->sample->callchain, ss->sample->callchain_nr);
	/* its addresses are the frames' unless hide_unresolved drops some */
	bool early = plain && !feed->o.hide_unresolved;
	uint32_t k = 1, added = 0, added_words = 0;
	int64_t id;
	int nr = 0;

	if (grow_ids(feed, (with_chain ? ss->sample->callchain_nr : 0) + 1))
		return -ENOMEM;
	hist_frameids__sample(feed->frameids, ss->thread);
	/* the stack's table slot is asked for first, and comes while the frames are looked up */
	if (early)
		hist_stacks__prefetch(feed->stacks, h);
	else
		h = start;
	if (al == &ss->al && sample_ip_lazy(ss)) {
		id = hist_frameids__ip(feed->frameids, feed->stacks, ss->thread, al->cpumode, al->ip);
	} else {
		struct ember_hist_frame fr;

		ember_hist_frame__from_al(&fr, al);
		id = hist_stacks__frame(feed->stacks, &fr);
	}
	if (id < 0)
		return (int)id;
	feed->ids[0] = (uint32_t)id;
	if (plain)
		nr = chain_ids(feed, s, ss, &k, &added, &added_words);
	else if (with_chain)	/* a chain the session voids: nothing to split */
		nr = session_chain_ids(feed, s, ss, &k);
	if (nr < 0)
		return nr;
	limit_chain(feed, &k, added, added_words);
	*n = k;
	*hash = early ? h : hist_stacks__hash_ids(feed->stacks, h, feed->ids, k);
	return nr;
}

int hist_feed__sample(struct ember_session *s, const struct ember_session_sample *ss, void *ctx)
{
	struct ember_hist_feed *feed = ctx;
	const struct ember_data_attr *a = ss->attr;
	const struct ember_addr_location *al = &ss->al;
	struct ember_addr_location resolved;
	struct ember_hist_sample sm;
	struct hist_raw *raw = NULL;
	uint64_t key[RAW_KEY_MAX], period, hash = 0;
	size_t nkey = 0;
	uint32_t idx, n = 0;
	uint8_t filtered;
	int32_t cpu;
	bool with_chain;
	int nr, err;

	if (!a)
		return 0;
	if (hist_filters__skip_cpu(feed->filters, ss->sample, a->attr.sample_type))
		return 0;
	if (feed->needs_sample_symbol && sample_ip_lazy(ss)) {
		resolved = ss->al;
		ember_thread__resolve(ss->thread, resolved.cpumode, resolved.ip, &resolved);
		al = &resolved;
	}
	if (feed->o.hide_unresolved && !al->sym)
		return 0;
	if (!hist_of(feed, a->idx))
		return errno ? -errno : -ENOMEM;
	period = (a->attr.sample_type & PERF_SAMPLE_PERIOD) ? ss->sample->period :
							       a->attr.sample_period;
	cpu = (a->attr.sample_type & PERF_SAMPLE_CPU) ? (int32_t)ss->sample->cpu : -1;
	filtered = hist_filters__mask(feed->filters, al);
	with_chain = feed->o.callchains && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	/* a stack seen before, in the same maps: it folds where it did then */
	if (with_chain)
		raw = hist_stacks__raw(feed->stacks);
	/* raw stacks know no time and no tracepoint text */
	if (raw && (!hist_raw__useful(raw) ||
		    (feed->layout.key_mask &
		     (EMBER_HIST_KEY(EMBER_HIST_DIM_TIME) | EMBER_HIST_KEY(EMBER_HIST_DIM_TRACE)))))
		raw = NULL;
	if (raw && (nkey = raw_key(key, ss, a->idx, cpu, filtered))) {
		int64_t v = hist_raw__find(raw, key, nkey);

		if (v >= 0) {
			hist_stacks__add_to(feed->stacks, (uint32_t)v, period, 1);
			return 0;
		}
	}
	sm = (struct ember_hist_sample){
		.sz = sizeof(sm),
		.period = period,
		.nr_samples = 1,
		.pid = ss->thread ? ember_thread__pid(ss->thread) : (int32_t)ss->sample->pid,
		.tid = ss->thread ? ember_thread__tid(ss->thread) : (int32_t)ss->sample->tid,
		.cpu = cpu,
		.comm = ss->al.comm,
		.thread = ss->thread,
		.filtered = filtered,
	};
	/* perf's hist_time(): the time key in steps of --time-quantum (100 ms) */
	if ((feed->layout.key_mask & EMBER_HIST_KEY(EMBER_HIST_DIM_TIME)) &&
	    (a->attr.sample_type & PERF_SAMPLE_TIME))
		sm.time = ss->sample->time - ss->sample->time % 100000000;
	if (feed->traces && a->attr.type == PERF_TYPE_TRACEPOINT && ss->sample->raw_data) {
		sm.trace = hist_traces__get(feed->traces, ember_session__trace(s), cpu,
					    ss->sample->raw_data, ss->sample->raw_size);
		if (!sm.trace)
			return -ENOMEM;
	}
	nr = sample_ids(feed, s, ss, al, a->idx, &sm, with_chain, &n, &hash);
	if (nr < 0)
		return nr;
	/* perf renames ":TID" when the thread's first COMM comes: folded stacks are renamed then */
	if (ss->thread && ss->al.comm && thread__comm_is_placeholder(ss->thread) &&
	    hist_comms__placeholder(feed->comms, ss->thread, ss->al.comm))
		return -ENOMEM;
	err = hist_stacks__add_ids(feed->stacks, a->idx, &sm, feed->ids, n, hash, &idx);
	/*
	 * Remembered only for a chain that resolved whole (an invalid one is
	 * dropped and counted per sample), keyed by the maps generation the
	 * lookups saw (they may have created the kernel's maps).
	 */
	if (!err && nkey && (nr || !ss->sample->callchain_nr)) {
		uint64_t gen = ember_thread__maps_gen(ss->thread);

		if (gen == key[3] || hist_raw__find(raw, (key[3] = gen, key), nkey) < 0)
			err = hist_raw__add(raw, key, nkey, idx);
	}
	return err;
}

