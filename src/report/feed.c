// SPDX-License-Identifier: GPL-2.0-only
/*
 * From the session to the histograms: each resolved sample (and its
 * resolved callchain) becomes a rep_sample for its event's histogram,
 * with perf's filters applied; then the report is printed event by
 * event, with perf's header lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "report/run.h"
#include "report/rawstacks.h"
#include "report/srcline.h"
#include "report/tracekey.h"
#include "report/comms.h"
#include "session/thread.h"
#include "report/stacks.h"
#include "report/frameids.h"

static const char *thread_comm(const void *thread)
{
	return ember_thread__comm((const struct ember_thread *)thread);
}

static struct rep_hist *hist_of(struct report *rep, uint32_t idx)
{
	if (idx >= rep->nr_hists) {
		uint32_t nr = idx + 1, i;
		struct rep_hist **v = realloc(rep->hists, nr * sizeof(*v));

		if (!v)
			return NULL;
		for (i = rep->nr_hists; i < nr; i++)
			v[i] = NULL;
		rep->hists = v;
		rep->nr_hists = nr;
	}
	if (!rep->hists[idx])
		rep->hists[idx] = rep_hist__new(&rep->hopts);
	return rep->hists[idx];
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

/* --hide-unresolved and the --dsos and --symbols filters look at the sample's symbol first. */
static bool needs_sample_symbol(const struct report *rep)
{
	return rep->o.hide_unresolved || rep->filters.dsos || rep->filters.syms;
}

static int grow_ids(struct report *rep, uint64_t n)
{
	uint32_t *v;

	if (n <= rep->ids_alloc)
		return 0;
	if (n > UINT32_MAX / 2)
		return -ENOMEM;
	v = realloc(rep->ids, 2 * n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	rep->ids = v;
	rep->ids_alloc = 2 * n;
	return 0;
}

/* Appends frame id to rep->ids[*k], unless --hide-unresolved drops it. */
static void push_id(struct report *rep, int64_t id, uint32_t *k)
{
	if (rep->o.hide_unresolved && !rep_stacks__frame_at(rep->stacks, (uint32_t)id)->sym)
		return;
	rep->ids[(*k)++] = (uint32_t)id;
}

/*
 * The chain's frames onto rep->ids from *k, as ember_session__callchain()
 * would resolve them (leaf first), each address through the frame cache.
 * Returns the number of addresses (markers not counted) or -ENOMEM.
 */
static int chain_ids(struct report *rep, const struct ember_session_sample *ss, bool need_end,
		     uint32_t *k)
{
	const struct ember_sample *sm = ss->sample;
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	int nr = 0;

	for (uint64_t i = 0; i < sm->callchain_nr; i++) {
		uint64_t ip = sm->callchain[i];
		int64_t id;

		/* a call only for perf's markers: most words are addresses */
		if (ip >= PERF_CONTEXT_MAX && ember_callchain__context(ip, &cpumode))
			continue;
		id = rep_frameids__ip(rep->frameids, rep->stacks, ss->thread, cpumode, ip, need_end);
		if (id < 0)
			return (int)id;
		push_id(rep, id, k);
		nr++;
	}
	return nr;
}

/* The same from the session's resolved chain: for a chain it may find invalid, or no thread. */
static int session_chain_ids(struct report *rep, struct ember_session *s,
			     const struct ember_session_sample *ss, bool need_end, uint32_t *k)
{
	const struct ember_addr_location *chain = NULL;
	struct rep_frame f;
	int nr = ember_session__callchain(s, ss, &chain);

	if (nr == -ENOMEM)
		return nr;
	for (int i = 0; i < nr; i++) {
		int64_t id;

		rep_frame__from_al(&f, &chain[i], need_end);
		id = rep_stacks__frame(rep->stacks, &f);
		if (id < 0)
			return (int)id;
		push_id(rep, id, k);
	}
	return nr < 0 ? 0 : nr;
}

/*
 * perf's --max-stack: it walks a chain leaf first (callee order) or root
 * first (caller order) and stops after max_stack addresses, so those are
 * the ones kept. The chain is at rep->ids[1..*k). A stack's hash made of
 * its recorded words still names one truncated chain: the cut depends on
 * nothing else.
 */
static void limit_chain(struct report *rep, uint32_t *k)
{
	uint32_t nr = *k - 1, max = rep->o.max_stack;

	if (nr <= max)
		return;
	if (rep->hopts.chain.order == REP_ORDER_CALLER)
		memmove(&rep->ids[1], &rep->ids[1 + nr - max], max * sizeof(*rep->ids));
	*k = 1 + max;
}

/*
 * The sample's frames as indices onto rep->ids: its own address (al,
 * or resolved here when the session left it), then its chain when
 * with_chain; *n: how many, *hash: the stack's hash (stacks.h) with the
 * key of sm for histogram hist. Returns the chain's resolved addresses
 * (0 for a chain the session dropped) or -ENOMEM.
 */
static int sample_ids(struct report *rep, struct ember_session *s,
		      const struct ember_session_sample *ss, const struct ember_addr_location *al,
		      uint32_t hist, const struct rep_sample *sm, bool with_chain, uint32_t *n,
		      uint64_t *hash)
{
	/* chain frames become entries with --children: their symbols' ends matter then */
	bool need_end = rep->hopts.children || (rep->layout.key_mask & (1U << REP_DIM_SYMBOL_SIZE));
	uint64_t start = rep_stacks__hash_start(hist, sm), h = start;
	/*
	 * Only perf's host context markers in the chain (else the session
	 * walks it, and counts it invalid); its hash is made on the way.
	 */
	bool plain = with_chain && ss->thread &&
		     rep_stacks__hash_words(&h, al->ip, ss->sample->callchain,
					    ss->sample->callchain_nr);
	/* its addresses are the frames' unless --hide-unresolved drops some */
	bool early = plain && !rep->o.hide_unresolved;
	uint32_t k = 1;
	int64_t id;
	int nr = 0;

	if (grow_ids(rep, (with_chain ? ss->sample->callchain_nr : 0) + 1))
		return -ENOMEM;
	rep_frameids__sample(rep->frameids, ss->thread);
	/* the stack's table slot is asked for first, and comes while the frames are looked up */
	if (early)
		rep_stacks__prefetch(rep->stacks, h);
	else
		h = start;
	if (al == &ss->al && sample_ip_lazy(ss)) {
		id = rep_frameids__ip(rep->frameids, rep->stacks, ss->thread, al->cpumode, al->ip,
				      true);
	} else {
		struct rep_frame f;

		rep_frame__from_al(&f, al, true);
		id = rep_stacks__frame(rep->stacks, &f);
	}
	if (id < 0)
		return (int)id;
	rep->ids[0] = (uint32_t)id;
	if (plain)
		nr = chain_ids(rep, ss, need_end, &k);
	else if (with_chain)
		nr = session_chain_ids(rep, s, ss, need_end, &k);
	if (nr < 0)
		return nr;
	limit_chain(rep, &k);
	*n = k;
	*hash = early ? h : rep_stacks__hash_ids(rep->stacks, h, rep->ids, k);
	return nr;
}

static int on_sample(struct ember_session *s, const struct ember_session_sample *ss, void *ctx)
{
	struct report *rep = ctx;
	const struct ember_data_attr *a = ss->attr;
	const struct ember_addr_location *al = &ss->al;
	struct ember_addr_location resolved;
	struct rep_sample sm;
	struct rep_hist *h;
	struct rep_raw *raw = NULL;
	uint64_t key[RAW_KEY_MAX], period, hash = 0;
	size_t nkey = 0;
	uint32_t idx, n = 0;
	uint8_t filtered;
	int32_t cpu;
	bool with_chain;
	int nr, err;

	if (!a)
		return 0;
	if (report_filters__skip_cpu(&rep->filters, ss->sample, a->attr.sample_type))
		return 0;
	if (needs_sample_symbol(rep) && sample_ip_lazy(ss)) {
		resolved = ss->al;
		ember_thread__resolve(ss->thread, resolved.cpumode, resolved.ip, &resolved);
		al = &resolved;
	}
	if (rep->o.hide_unresolved && !al->sym)
		return 0;
	h = hist_of(rep, a->idx);
	if (!h)
		return -ENOMEM;
	period = (a->attr.sample_type & PERF_SAMPLE_PERIOD) ? ss->sample->period :
							       a->attr.sample_period;
	cpu = (a->attr.sample_type & PERF_SAMPLE_CPU) ? (int32_t)ss->sample->cpu : -1;
	filtered = report_filters__mask(&rep->filters, al);
	with_chain = rep->have_callchain && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	/* a stack seen before, in the same maps: it folds where it did then */
	if (with_chain)
		raw = rep_stacks__raw(rep->stacks);
	/* raw stacks know no time and no tracepoint text */
	if (raw && (!rep_raw__useful(raw) ||
		    (rep->layout.key_mask & ((1U << REP_DIM_TIME) | (1U << REP_DIM_TRACE)))))
		raw = NULL;
	if (raw && (nkey = raw_key(key, ss, a->idx, cpu, filtered))) {
		int64_t v = rep_raw__find(raw, key, nkey);

		if (v >= 0) {
			rep_stacks__add_to(rep->stacks, (uint32_t)v, period, 1);
			return 0;
		}
	}
	sm = (struct rep_sample){
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
	if ((rep->layout.key_mask & (1U << REP_DIM_TIME)) &&
	    (a->attr.sample_type & PERF_SAMPLE_TIME))
		sm.time = ss->sample->time - ss->sample->time % 100000000;
	if (rep->traces && a->attr.type == PERF_TYPE_TRACEPOINT && ss->sample->raw_data) {
		sm.trace = rep_traces__get(rep->traces, ember_session__trace(s), cpu,
					   ss->sample->raw_data, ss->sample->raw_size);
		if (!sm.trace)
			return -ENOMEM;
	}
	nr = sample_ids(rep, s, ss, al, a->idx, &sm, with_chain, &n, &hash);
	if (nr < 0)
		return nr;
	/* perf renames ":TID" when the thread's first COMM comes: folded stacks are renamed then */
	if (ss->thread && ss->al.comm && thread__comm_is_placeholder(ss->thread) &&
	    rep_comms__placeholder(rep->comms, ss->thread, ss->al.comm))
		return -ENOMEM;
	err = rep_stacks__add_ids(rep->stacks, a->idx, &sm, rep->ids, n, hash, &idx);
	/*
	 * Remembered only for a chain that resolved whole (an invalid one is
	 * dropped and counted per sample), keyed by the maps generation the
	 * lookups saw (they may have created the kernel's maps).
	 */
	if (!err && nkey && (nr || !ss->sample->callchain_nr)) {
		uint64_t gen = ember_thread__maps_gen(ss->thread);

		if (gen == key[3] || rep_raw__find(raw, (key[3] = gen, key), nkey) < 0)
			err = rep_raw__add(raw, key, nkey, idx);
	}
	return err;
}

static int on_record(struct ember_session *s, const struct ember_data_record *rec,
		     const struct ember_sample *id, void *ctx)
{
	struct report *rep = ctx;
	const struct ember_record_comm *c = (const void *)rec->hdr;
	struct ember_thread *t;

	/* after the machine took it: the thread has its new comm */
	if (rec->hdr->type == PERF_RECORD_COMM && rec->hdr->size >= sizeof(*c) &&
	    (t = ember_machine__find_thread(ember_session__machine(s), c->pid, c->tid)))
		rep_comms__set(rep->comms, t, ember_thread__comm(t));
	return 0;
}

/*
 * Kernel symbols can wait until the samples are folded (the kernel's
 * /proc/kallsyms, read meanwhile by a thread, takes it tens of
 * milliseconds to print) when nothing looks at them before: no --dsos
 * or --symbols filter, no --hide-unresolved; and only when an event may
 * have kernel samples.
 */
static bool can_defer_kernel(const struct report *rep)
{
	uint32_t i, nr = ember_data_reader__nr_attrs(rep->reader);

	if (!rep->stacks || rep->o.hide_unresolved || rep->filters.dsos || rep->filters.syms)
		return false;
	for (i = 0; i < nr; i++) {
		const struct ember_data_attr *a = ember_data_reader__attr(rep->reader, i);

		if (a && !a->attr.exclude_kernel)
			return true;
	}
	return false;
}

/* A frame left unresolved in the kernel, completed as if it had been resolved at once. */
static void resolve_late(struct rep_frame *f, void *ctx)
{
	struct report *rep = ctx;
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
	ember_session__resolve_late(rep->session, &al);
	/* the kernel's symbols have one per start: their ends never split entries */
	if (al.sym || !al.dso)
		rep_frame__from_al(f, &al, true);
}

static int replay_one(uint32_t hist, const struct rep_sample *sm, void *ctx)
{
	struct report *rep = ctx;
	struct rep_sample renamed = *sm;

	renamed.comm = rep_comms__get(rep->comms, sm->thread, sm->comm);
	return rep_hist__add(rep->hists[hist], &renamed);
}

int report__process(struct report *rep)
{
	struct ember_session_ops ops = { .sample = on_sample, .record = on_record };
	bool lines = rep->layout.key_mask & ((1U << REP_DIM_SRCLINE) | (1U << REP_DIM_SRCFILE));
	bool chain_lines = rep->hopts.use_callchain && rep->hopts.chain.key == REP_CCKEY_ADDRESS;
	bool deferred;
	int err;

	rep->hopts.layout = &rep->layout;
	rep->hopts.thread_comm = thread_comm;
	if (!rep->comms && !(rep->comms = rep_comms__new()))
		return -ENOMEM;
	/* source lines are looked up only when a key or an address-keyed chain shows them */
	if ((lines || chain_lines) && !rep->srclines) {
		rep->srclines = rep_srclines__new();
		if (!rep->srclines)
			return -ENOMEM;
		rep->hopts.srcline_ctx = rep->srclines;
	}
	if (lines)
		rep->hopts.srcline = rep_srclines__get;
	if (chain_lines)
		rep->hopts.chain_srcline = rep_srclines__chain;
	/* each tracepoint sample's text is part of its key, its stack's too */
	if ((rep->layout.key_mask & (1U << REP_DIM_TRACE)) && !rep->traces) {
		rep->traces = rep_traces__new();
		if (!rep->traces)
			return -ENOMEM;
	}
	/* frames fold by address: address-keyed chains fold as well */
	rep->stacks = rep_stacks__new();
	rep->frameids = rep_frameids__new();
	if (!rep->stacks || !rep->frameids) {
		err = -ENOMEM;
		goto out;
	}
	deferred = can_defer_kernel(rep) && !ember_session__defer_kernel_symbols(rep->session);
	err = ember_session__process(rep->session, &ops, rep);
	if (!err && deferred)
		rep_stacks__update_frames(rep->stacks, resolve_late, rep);
	if (!err) {
		struct rep_print_opts po = {
			.filter_relative = rep->o.filter_relative,
			.min_percent = rep->o.min_percent,
		};
		uint32_t i;

		/*
		 * Entries first; then only the callchains that will be
		 * printed: most entries of a big profile are under the
		 * threshold, and with --children each would take a chain
		 * per frame of every stack it is in.
		 */
		for (i = 0; i < rep->nr_hists; i++)
			if (rep->hists[i])
				rep_hist__begin_entries(rep->hists[i]);
		err = rep_stacks__replay(rep->stacks, replay_one, rep);
		for (i = 0; !err && i < rep->nr_hists; i++)
			if (rep->hists[i])
				rep_hist__begin_chains(rep->hists[i], &po);
		if (!err && rep->hopts.use_callchain)
			err = rep_stacks__replay(rep->stacks, replay_one, rep);
	}
out:
	rep_stacks__delete(rep->stacks);
	rep->stacks = NULL;
	rep_frameids__delete(rep->frameids);
	rep->frameids = NULL;
	if (err)
		return err;
	for (uint32_t i = 0; i < rep->nr_hists; i++)
		if (rep->hists[i] && (err = rep_hist__resort(rep->hists[i], rep->o.filter_relative)))
			return err;
	return 0;
}

void report__print(struct report *rep, FILE *fp)
{
	const struct ember_session_stats *st = ember_session__stats(rep->session);
	struct rep_print_opts po = {
		.show_header = !rep->o.quiet,
		.filter_relative = rep->o.filter_relative,
		.min_percent = rep->o.min_percent,
		.field_sep = rep->o.field_sep,
	};
	uint32_t i;

	if (!rep->o.quiet)
		fprintf(fp, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", st->nr_lost_samples);
	for (i = 0; i < rep->nr_hists; i++) {
		struct rep_hist *h = rep->hists[i];
		const struct rep_hist_stats *hs;
		const struct ember_data_attr *a = ember_data_reader__attr(rep->reader, i);
		unsigned long nr;
		uint64_t events;
		char unit, name[256];

		/* perf skips events without samples (--skip-empty) */
		if (!h || !a)
			continue;
		hs = rep_hist__stats(h);
		if (!hs->nr_samples)
			continue;
		if (!rep->o.quiet) {
			nr = rep->o.filter_relative ? hs->nr_non_filtered_samples : hs->nr_samples;
			events = rep->o.filter_relative ? hs->total_non_filtered_period :
							  hs->total_period;
			nr = rep_convert_unit(nr, &unit);
			report_event_name(rep->session, a, name, sizeof(name));
			fprintf(fp, "# Samples: %lu%c of event '%s'\n", nr, unit, name);
			fprintf(fp, "# Event count (approx.): %" PRIu64 "\n#\n", events);
		}
		rep_hist__fprintf(h, &po, fp);
		fprintf(fp, "\n\n");
	}
}
