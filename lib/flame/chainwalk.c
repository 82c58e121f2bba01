// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The callchain walk of the sample folding (sample-fold.c): a plain
 * callchain's entries are folded from the words recorded, each entry's frames cached
 * by (maps generation, mode, ip) in the ipframes table, so that an entry
 * seen before costs one probe and no address resolution.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>

#include <ember/session.h>

#include "symbol/dso.h"
#include "sample-fold.h"

/*
 * Whether every marker in the callchain is one the session takes (the
 * host's: ember_session__callchain() voids a chain with any other, and
 * counts it): then the entries it would resolve are the chain's words
 * below PERF_CONTEXT_MAX, in the cpumode of the marker before them.
 */
bool flame_chain_is_plain(const struct ember_sample *sm)
{
	if (!sm->callchain)
		return false;
	for (uint64_t i = 0; i < sm->callchain_nr; i++) {
		uint64_t ip = sm->callchain[i];

		if (ip >= PERF_CONTEXT_MAX && ip != PERF_CONTEXT_HV && ip != PERF_CONTEXT_KERNEL &&
		    ip != PERF_CONTEXT_USER)
			return false;
	}
	return true;
}

static int entries_reserve(struct ember_flame_fold *c, size_t n)
{
	if (n <= c->alloc_entries)
		return 0;
	size_t alloc = c->alloc_entries ? c->alloc_entries * 2 : 128;

	while (alloc < n)
		alloc *= 2;
	struct chain_entry *grown = realloc(c->entries, alloc * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	c->entries = grown;
	c->alloc_entries = alloc;
	return 0;
}

/*
 * The maps generation an entry's frames depend on. A kernel address
 * resolves in the kernel's maps alone, the same for every process: its
 * entries are keyed by the kernel's generation only, the low half of
 * ember_thread__maps_gen() (lib/machine/machine.c), so that they are
 * shared by all threads and outlive the processes' mmaps.
 */
static uint64_t ip_gen(uint64_t gen, uint8_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL ? gen & UINT32_MAX : gen;
}

/*
 * The frames of a callchain entry in the thread's maps: from the ipframes
 * cache, else resolved, named through flame_fold_entry_lookup() and cached under the
 * maps generation the lookup ended in (it may have made the kernel's
 * maps). A kernel address left without its symbol is not cached: the
 * session may be deferring kernel symbols (ember_session__resolve_late()).
 */
static int ip_entry(struct ember_flame_fold *c, struct ember_thread *thread, uint64_t *gen,
		    uint8_t cpumode, uint64_t ip, bool java, struct chain_entry *e)
{
	uint32_t mode = cpumode | (uint32_t)java << 8 | 1u << 16;
	struct ember_addr_location al;
	int err;

	if (flame_ipframes__find(c->ipf, ip_gen(*gen, cpumode), mode, ip, &e->first, &e->nr))
		return 0;
	ember_thread__resolve(thread, cpumode, ip, &al);
	/* Only a lookup changes the generation (it may make the kernel's maps). */
	*gen = ember_thread__maps_gen(thread);
	err = flame_fold_entry_lookup(c, &al, flame_fold_cpumode_kind(c, &al), java,
					  &e->first, &e->nr);
	if (err)
		return err;
	if (al.sym || !al.dso || al.dso->kind != DSO_KIND_KERNEL)
		flame_ipframes__add(c->ipf, ip_gen(*gen, cpumode), mode, ip, e->first, e->nr);
	return 0;
}

/*
 * The callchain's frames, root first onto c->stack, from the recorded
 * words rather than the session's resolved chain (only for a plain chain,
 * see flame_chain_is_plain()): entries seen before cost a probe each. Returns
 * the number of entries (at most max_stack of the recorded ones and of
 * those the session added, the leaf's end kept), or -errno.
 */
int flame_chain_frames(struct ember_flame_fold *c, const struct ember_session_sample *ss,
		       bool java, size_t *nr)
{
	const struct ember_sample *sm = ss->sample;
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	uint64_t gen = ember_thread__maps_gen(ss->thread);
	/*
	 * The recorded words, then those the session added (a --call-graph
	 * dwarf sample's user ip): max_stack entries each, as perf script.
	 */
	uint64_t recorded = ss->callchain_recorded < sm->callchain_nr ? ss->callchain_recorded
								      : sm->callchain_nr;
	uint64_t ends[2] = { recorded, sm->callchain_nr };
	size_t n = 0;
	int err;

	err = entries_reserve(c, sm->callchain_nr < 2 * (uint64_t)c->opts.max_stack
					 ? sm->callchain_nr
					 : 2 * (uint64_t)c->opts.max_stack);
	if (err)
		return err;
	/* Leaf first as recorded; pushed root first below. */
	for (uint64_t part = 0, i = 0; part < 2; i = ends[part++]) {
		for (size_t taken = 0; i < ends[part] && taken < c->opts.max_stack; i++) {
			struct chain_entry *e = &c->entries[n];
			uint64_t ip = sm->callchain[i];

			if (ip >= PERF_CONTEXT_MAX) {
				ember_callchain__context(ip, &cpumode);
				continue;
			}
			e->keep = keep_frame(c, cpumode);
			if (e->keep) {
				err = ip_entry(c, ss->thread, &gen, cpumode, ip, java, e);
				if (err)
					return err;
			}
			n++;
			taken++;
		}
	}
	for (size_t i = n; i-- > 0;) {
		const struct chain_entry *e = &c->entries[i];

		for (uint32_t k = 0; e->keep && k < e->nr; k++) {
			err = stack_push(c, nr, c->ids[e->first + k]);
			if (err)
				return err;
		}
	}
	return (int)n;
}
