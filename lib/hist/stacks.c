// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Samples folded into distinct stacks before they reach the histogram.
 * A profile repeats the same few stacks many times; adding a sample costs
 * a lookup per frame and, with --children, a chain per frame, so each
 * distinct stack (event, thread, comm, cpu when sorted by, filter bits,
 * the frames by identity) is kept once with its summed period and count
 * and added once at the end. Stacks are replayed in the order they first
 * appeared, so entries are created in the same order as sample by sample
 * (perf's ties depend on that order).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "core/array.h"
#include "core/hash.h"
#include "core/hashtab.h"
#include "hist/rawstacks.h"
#include "hist/stacks.h"

struct stack {
	uint64_t period, count;
	uint64_t time;		/* the time key's step, 0 unless sorted by time */
	const char *trace;	/* the trace key's text (one pointer per text), or NULL */
	const char *comm;
	const void *thread;
	int32_t pid, tid, cpu;
	uint32_t hist;
	uint32_t first;		/* index of the self frame in pool */
	uint32_t nr;		/* chain frames after it */
	uint8_t filtered;
};

/* A recently used frame, its identity inline: no trip to the big tables when it repeats. */
struct recent_frame {
	const void *dso, *sym;
	const char *srcline;
	uint64_t ip, addr, map_size;
	uint32_t idx;		/* + 1; 0: empty */
	char level;
	uint8_t cpumode;
};

#define RECENT_FRAMES 2048

struct hist_stacks {
	struct recent_frame recent[RECENT_FRAMES];
	/* distinct frames */
	struct ember_hist_frame *frames;
	size_t nr_frames, frames_alloc;
	struct hashtab ftable;	/* narrow: frame_hash(), the frame's index + 1 */
	/* distinct stacks, in first-seen order */
	struct stack *stacks;
	size_t nr_stacks, stacks_alloc;
	struct hashtab stable;	/* narrow: the stack's hash (stacks.h), its index + 1 */
	/* frame indices of all stacks */
	uint32_t *pool;
	size_t pool_len, pool_alloc;
	struct hist_raw *raw;
};

struct hist_stacks *hist_stacks__new(void)
{
	struct hist_stacks *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	/* looked up for every frame and stack: narrow slots, twice a cache line */
	s->ftable.stride = sizeof(struct hashtab_slot32);
	s->stable.stride = sizeof(struct hashtab_slot32);
	if (hashtab__reserve(&s->ftable, 512) || hashtab__reserve(&s->stable, 2048)) {
		hist_stacks__delete(s);
		return NULL;
	}
	return s;
}

void hist_stacks__delete(struct hist_stacks *s)
{
	if (!s)
		return;
	free(s->frames);
	hashtab__exit(&s->ftable);
	free(s->stacks);
	hashtab__exit(&s->stable);
	free(s->pool);
	hist_raw__delete(s->raw);
	free(s);
}

struct hist_raw *hist_stacks__raw(struct hist_stacks *s)
{
	if (!s->raw)
		s->raw = hist_raw__new();
	return s->raw;
}

/*
 * What makes two frames the same for the report: their address, not
 * only their symbol. Keys like srcline and addr look at it, and so does
 * perf's callchain lookup, which compares a resolved frame with an
 * unresolved one by raw address (callchain.c).
 */
static bool frame_eq(const struct ember_hist_frame *a, const struct ember_hist_frame *b)
{
	return a->dso == b->dso && a->sym == b->sym && a->level == b->level &&
	       a->cpumode == b->cpumode && a->map_size == b->map_size && a->ip == b->ip &&
	       a->addr == b->addr && a->srcline == b->srcline;
}

/*
 * Of the address and mode alone, known before the address is resolved:
 * the frame's slots can be asked for then (hist_stacks__prefetch_frame()).
 * Frames apart with the same address are rare (another process's map
 * there), and only probe further.
 */
static inline uint64_t ip_frame_hash(uint64_t ip, uint8_t cpumode)
{
	return hash_mum(ip ^ HASH_K0, (uint64_t)cpumode ^ HASH_K1);
}

static uint64_t frame_hash(const struct ember_hist_frame *f)
{
	return ip_frame_hash(f->ip, f->cpumode);
}

static bool recent_eq(const struct recent_frame *r, const struct ember_hist_frame *f)
{
	return r->dso == f->dso && r->sym == f->sym && r->level == f->level &&
	       r->cpumode == f->cpumode && r->map_size == f->map_size && r->ip == f->ip &&
	       r->addr == f->addr && r->srcline == f->srcline;
}

static inline struct recent_frame *recent_of(struct hist_stacks *s, uint64_t hash)
{
	return &s->recent[(hash >> 32) & (RECENT_FRAMES - 1)];
}

struct frame_probe {
	const struct ember_hist_frame *frames, *f;
};

static inline bool frame_slot_eq(const struct hashtab_slot32 *slot, const void *key)
{
	const struct frame_probe *p = key;

	return frame_eq(&p->frames[slot->val - 1], p->f);
}

/* The index of frame f (of hash frame_hash()) in the frame table, added when new; -1 on ENOMEM. */
static int64_t frame_index(struct hist_stacks *s, const struct ember_hist_frame *f, uint64_t hash)
{
	struct recent_frame *r = recent_of(s, hash);
	struct frame_probe p = { s->frames, f };
	struct hashtab_slot32 *slot;
	uint32_t x;

	/* a profile's frames repeat: the last one with this slot is likely the one */
	if (r->idx && recent_eq(r, f))
		return r->idx - 1;
	if (hashtab__reserve(&s->ftable, 1))
		return -1;
	slot = hashtab32__slot(&s->ftable, hash, frame_slot_eq, &p);
	x = slot->val;
	if (!x) {
		/* indices + 1 in 32 bits */
		if (s->nr_frames >= UINT32_MAX - 1 ||
		    array__reserve((void **)&s->frames, &s->frames_alloc, s->nr_frames,
				   sizeof(*s->frames)))
			return -1;
		s->frames[s->nr_frames] = *f;
		x = ++s->nr_frames;
		hashtab32__fill(&s->ftable, slot, hash, x);
	}
	*r = (struct recent_frame){
		.dso = f->dso, .sym = f->sym, .ip = f->ip, .addr = f->addr, .map_size = f->map_size,
		.srcline = f->srcline, .idx = x, .level = f->level, .cpumode = f->cpumode,
	};
	return x - 1;
}

static bool stack_eq(const struct hist_stacks *s, const struct stack *st, const struct stack *k,
		     const uint32_t *frames)
{
	return st->nr == k->nr && st->hist == k->hist &&
	       st->comm == k->comm && st->thread == k->thread && st->cpu == k->cpu &&
	       st->pid == k->pid && st->tid == k->tid && st->filtered == k->filtered &&
	       st->time == k->time && st->trace == k->trace &&
	       !memcmp(&s->pool[st->first], frames, (k->nr + 1) * sizeof(*frames));
}

struct stack_probe {
	const struct hist_stacks *s;
	const struct stack *k;
	const uint32_t *ids;
};

static inline bool stack_slot_eq(const struct hashtab_slot32 *slot, const void *key)
{
	const struct stack_probe *p = key;

	return stack_eq(p->s, &p->s->stacks[slot->val - 1], p->k, p->ids);
}

void hist_stacks__add_to(struct hist_stacks *s, uint32_t idx, uint64_t period, uint64_t count)
{
	s->stacks[idx].period += period;
	s->stacks[idx].count += count;
}

int64_t hist_stacks__frame(struct hist_stacks *s, const struct ember_hist_frame *f)
{
	int64_t fi = frame_index(s, f, frame_hash(f));

	return fi < 0 ? -ENOMEM : fi;
}

void hist_stacks__prefetch_frame(const struct hist_stacks *s, uint64_t ip, uint8_t cpumode)
{
	uint64_t h = ip_frame_hash(ip, cpumode);

	__builtin_prefetch(&s->recent[(h >> 32) & (RECENT_FRAMES - 1)]);
	hashtab__prefetch(&s->ftable, h);
}

const struct ember_hist_frame *hist_stacks__frame_at(const struct hist_stacks *s, uint32_t id)
{
	return &s->frames[id];
}

uint64_t hist_stacks__hash_start(uint32_t hist, const struct ember_hist_sample *sm)
{
	const uint64_t key[4] = {
		(uintptr_t)sm->comm,
		(uintptr_t)sm->thread,
		(uint64_t)hist << 40 ^ (uint64_t)(uint32_t)sm->cpu << 8 ^ sm->filtered,
		sm->time ^ (uintptr_t)sm->trace,
	};

	return hash_words(key, 4);
}

/* One pass over the chain: its words were not read before (the first touch waits for memory). */
bool hist_stacks__hash_words(uint64_t *h, uint64_t self, const uint64_t *words, uint64_t n)
{
	uint64_t x = hash_step(*h, self);

	for (uint64_t i = 0; i < n; i++) {
		uint64_t w = words[i];

		if (w < PERF_CONTEXT_MAX)
			x = hash_step(x, w);
		else if (w != PERF_CONTEXT_HV && w != PERF_CONTEXT_KERNEL && w != PERF_CONTEXT_USER)
			return false;
	}
	*h = x;
	return true;
}

uint64_t hist_stacks__hash_ids(const struct hist_stacks *s, uint64_t h, const uint32_t *ids,
			       uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		h = hash_step(h, s->frames[ids[i]].ip);
	return h;
}

void hist_stacks__prefetch(const struct hist_stacks *s, uint64_t h)
{
	hashtab__prefetch(&s->stable, h);
}

int hist_stacks__add_ids(struct hist_stacks *s, uint32_t hist, const struct ember_hist_sample *sm,
			 const uint32_t *ids, uint32_t n, uint64_t h, uint32_t *idx)
{
	struct stack k = {
		.comm = sm->comm,
		.thread = sm->thread,
		.pid = sm->pid,
		.tid = sm->tid,
		.cpu = sm->cpu,
		.hist = hist,
		.nr = n - 1,
		.filtered = sm->filtered,
		.time = sm->time,
		.trace = sm->trace,
	};
	struct stack_probe p = { s, &k, ids };
	struct hashtab_slot32 *slot;

	if (hashtab__reserve(&s->stable, 1))
		return -ENOMEM;
	slot = hashtab32__slot(&s->stable, h, stack_slot_eq, &p);
	if (slot->val) {
		struct stack *st = &s->stacks[slot->val - 1];

		st->period += sm->period;
		st->count += sm->nr_samples;
		if (idx)
			*idx = slot->val - 1;
		return 0;
	}
	if (s->pool_len + n > s->pool_alloc) {
		size_t alloc = (s->pool_alloc + n) * 2;
		uint32_t *np = realloc(s->pool, alloc * sizeof(*np));

		if (!np)
			return -ENOMEM;
		s->pool = np;
		s->pool_alloc = alloc;
	}
	if (s->nr_stacks >= UINT32_MAX - 1 ||
	    array__reserve((void **)&s->stacks, &s->stacks_alloc, s->nr_stacks, sizeof(*s->stacks)))
		return -ENOMEM;
	k.first = s->pool_len;
	k.period = sm->period;
	k.count = sm->nr_samples;
	memcpy(&s->pool[s->pool_len], ids, n * sizeof(*ids));
	s->pool_len += n;
	s->stacks[s->nr_stacks] = k;
	if (idx)
		*idx = s->nr_stacks;
	hashtab32__fill(&s->stable, slot, h, ++s->nr_stacks);
	return 0;
}

void hist_stacks__update_frames(struct hist_stacks *s,
				void (*fn)(struct ember_hist_frame *f, void *ctx), void *ctx)
{
	/* the frame table's hashes go stale: nothing is added after this */
	for (size_t i = 0; i < s->nr_frames; i++)
		fn(&s->frames[i], ctx);
}

/* Asks for stack i's frames: they are all over the frame table, the next stack's wait for none. */
static void prefetch_frames(const struct hist_stacks *s, uint32_t i)
{
	const struct stack *st = &s->stacks[i];
	const uint32_t *idx = &s->pool[st->first];

	for (uint32_t j = 0; j <= st->nr; j++)
		__builtin_prefetch(&s->frames[idx[j]]);
}

int hist_stacks__replay(struct hist_stacks *s, hist_stacks_fn fn, void *ctx)
{
	const struct ember_hist_frame **chain = NULL;
	uint32_t alloc = 0, i, j;
	int err = 0;

	for (i = 0; i < s->nr_stacks && !err; i++) {
		const struct stack *st = &s->stacks[i];
		const uint32_t *idx = &s->pool[st->first];
		struct ember_hist_sample sm;

		if (i + 1 < s->nr_stacks)
			prefetch_frames(s, i + 1);

		if (st->nr > alloc) {
			const struct ember_hist_frame **v = realloc(chain, st->nr * 2 * sizeof(*v));

			if (!v) {
				err = -ENOMEM;
				break;
			}
			chain = v;
			alloc = st->nr * 2;
		}
		/* pointers, not copies: most frames are not read again (only the self of each entry) */
		for (j = 0; j < st->nr; j++)
			chain[j] = &s->frames[idx[1 + j]];
		sm = (struct ember_hist_sample){
			.self = &s->frames[idx[0]],
			.chain = chain,
			.nr_chain = st->nr,
			.period = st->period,
			.nr_samples = st->count,
			.pid = st->pid,
			.tid = st->tid,
			.cpu = st->cpu,
			.comm = st->comm,
			.thread = st->thread,
			.filtered = st->filtered,
			.time = st->time,
			.trace = st->trace,
		};
		err = fn(st->hist, &sm, ctx);
	}
	free(chain);
	return err;
}
