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
	uint32_t nr_frames, frames_alloc;
	uint64_t *ftable;	/* slots, see slot_make() */
	size_t fmask;
	/* distinct stacks, in first-seen order */
	struct stack *stacks;
	uint32_t nr_stacks, stacks_alloc;
	uint64_t *stable;	/* slots, see slot_make() */
	size_t smask;
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
	s->fmask = 1023;
	s->smask = 4095;
	s->ftable = calloc(s->fmask + 1, sizeof(*s->ftable));
	s->stable = calloc(s->smask + 1, sizeof(*s->stable));
	if (!s->ftable || !s->stable) {
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
	free(s->ftable);
	free(s->stacks);
	free(s->stable);
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
	       a->addr == b->addr;
}

/* 64 x 64 -> 128 multiply, folded: every bit of x and y reaches the result. */
static inline uint64_t mum(uint64_t x, uint64_t y)
{
	__uint128_t p = (__uint128_t)x * y;

	return (uint64_t)p ^ (uint64_t)(p >> 64);
}

#define K0 0xa0761d6478bd642fULL
#define K1 0xe7037ed1a0b428dbULL
#define K2 0x8ebc6af09c88c6e3ULL

/*
 * Of the address and mode alone, known before the address is resolved:
 * the frame's slots can be asked for then (hist_stacks__prefetch_frame()).
 * Frames apart with the same address are rare (another process's map
 * there), and only probe further.
 */
static inline uint64_t ip_frame_hash(uint64_t ip, uint8_t cpumode)
{
	return mum(ip ^ K0, (uint64_t)cpumode ^ K1);
}

static uint64_t frame_hash(const struct ember_hist_frame *f)
{
	return ip_frame_hash(f->ip, f->cpumode);
}

/*
 * A table slot: the index of its entry + 1 in the low half (0: empty),
 * the low half of the entry's hash in the high half. An entry's home is
 * hash & mask: probing passes other entries' slots without reading the
 * entries, and a bigger table places them without hashing them again
 * (tables stay below 2^32 slots).
 */
static inline uint64_t slot_make(uint64_t hash, uint32_t idx)
{
	return (uint64_t)(uint32_t)hash << 32 | (idx + 1);
}

static inline uint64_t slot_tag(uint64_t hash)
{
	return (uint64_t)(uint32_t)hash << 32;
}

#define SLOT_TAG_MASK 0xffffffff00000000ULL

static int grow_table(uint64_t **table, size_t *mask)
{
	size_t nmask = *mask * 2 + 1, i, j;
	uint64_t *nt;

	if (*mask >= UINT32_MAX)
		return -ENOMEM;
	nt = calloc(nmask + 1, sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	for (i = 0; i <= *mask; i++) {
		uint64_t v = (*table)[i];

		if (!v)
			continue;
		for (j = (v >> 32) & nmask; nt[j]; j = (j + 1) & nmask)
			;
		nt[j] = v;
	}
	free(*table);
	*table = nt;
	*mask = nmask;
	return 0;
}

static bool recent_eq(const struct recent_frame *r, const struct ember_hist_frame *f)
{
	return r->dso == f->dso && r->sym == f->sym && r->level == f->level &&
	       r->cpumode == f->cpumode && r->map_size == f->map_size && r->ip == f->ip &&
	       r->addr == f->addr;
}

static inline struct recent_frame *recent_of(struct hist_stacks *s, uint64_t hash)
{
	return &s->recent[(hash >> 32) & (RECENT_FRAMES - 1)];
}

/* The index of frame f (of hash frame_hash()) in the frame table, added when new; -1 on ENOMEM. */
static int64_t frame_index(struct hist_stacks *s, const struct ember_hist_frame *f, uint64_t hash)
{
	uint64_t tag = slot_tag(hash), v;
	struct recent_frame *r = recent_of(s, hash);
	size_t i = hash & s->fmask;
	uint32_t x;

	/* a profile's frames repeat: the last one with this slot is likely the one */
	if (r->idx && recent_eq(r, f))
		return r->idx - 1;
	while ((v = s->ftable[i])) {
		x = (uint32_t)v;
		if ((v & SLOT_TAG_MASK) == tag && frame_eq(&s->frames[x - 1], f))
			goto found;
		i = (i + 1) & s->fmask;
	}
	if (s->nr_frames == s->frames_alloc) {
		uint32_t alloc = s->frames_alloc ? 2 * s->frames_alloc : 1024;
		struct ember_hist_frame *nf = realloc(s->frames, alloc * sizeof(*nf));

		if (!nf)
			return -1;
		s->frames = nf;
		s->frames_alloc = alloc;
	}
	s->frames[s->nr_frames] = *f;
	s->ftable[i] = slot_make(hash, s->nr_frames);
	x = ++s->nr_frames;
	/*
	 * Tables grow at 3/4 full, not 1/2: a smaller table takes fewer new
	 * pages and more of it stays in the cache, which outweighs the
	 * longer probes (over slots, not entries).
	 */
	if ((size_t)s->nr_frames * 4 > s->fmask * 3 && grow_table(&s->ftable, &s->fmask))
		return -1;
found:
	*r = (struct recent_frame){
		.dso = f->dso, .sym = f->sym, .ip = f->ip, .addr = f->addr, .map_size = f->map_size,
		.idx = x, .level = f->level, .cpumode = f->cpumode,
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
	__builtin_prefetch(&s->ftable[h & s->fmask]);
}

const struct ember_hist_frame *hist_stacks__frame_at(const struct hist_stacks *s, uint32_t id)
{
	return &s->frames[id];
}

uint64_t hist_stacks__hash_start(uint32_t hist, const struct ember_hist_sample *sm)
{
	return mum((uintptr_t)sm->comm ^ K0, (uintptr_t)sm->thread ^ K1) ^
	       mum(((uint64_t)hist << 40 ^ (uint64_t)(uint32_t)sm->cpu << 8 ^ sm->filtered) ^ K2,
		   (sm->time ^ (uintptr_t)sm->trace) ^ K0);
}

/* One frame more: chained, so the same frames in another order hash apart. */
static inline uint64_t hash_ip(uint64_t h, uint64_t ip)
{
	return mum(h ^ ip, K1);
}

/* One pass over the chain: its words were not read before (the first touch waits for memory). */
bool hist_stacks__hash_words(uint64_t *h, uint64_t self, const uint64_t *words, uint64_t n)
{
	uint64_t x = hash_ip(*h, self);

	for (uint64_t i = 0; i < n; i++) {
		uint64_t w = words[i];

		if (w < PERF_CONTEXT_MAX)
			x = hash_ip(x, w);
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
		h = hash_ip(h, s->frames[ids[i]].ip);
	return h;
}

void hist_stacks__prefetch(const struct hist_stacks *s, uint64_t h)
{
	__builtin_prefetch(&s->stable[h & s->smask]);
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
	uint64_t tag = slot_tag(h), v;
	size_t j = h & s->smask;

	while ((v = s->stable[j])) {
		struct stack *st = &s->stacks[(uint32_t)v - 1];

		if ((v & SLOT_TAG_MASK) == tag && stack_eq(s, st, &k, ids)) {
			st->period += sm->period;
			st->count += sm->nr_samples;
			if (idx)
				*idx = (uint32_t)v - 1;
			return 0;
		}
		j = (j + 1) & s->smask;
	}
	if (s->pool_len + n > s->pool_alloc) {
		size_t alloc = (s->pool_alloc + n) * 2;
		uint32_t *np = realloc(s->pool, alloc * sizeof(*np));

		if (!np)
			return -ENOMEM;
		s->pool = np;
		s->pool_alloc = alloc;
	}
	if (s->nr_stacks == s->stacks_alloc) {
		uint32_t alloc = s->stacks_alloc ? 2 * s->stacks_alloc : 1024;
		struct stack *ns = realloc(s->stacks, alloc * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		s->stacks = ns;
		s->stacks_alloc = alloc;
	}
	k.first = s->pool_len;
	k.period = sm->period;
	k.count = sm->nr_samples;
	memcpy(&s->pool[s->pool_len], ids, n * sizeof(*ids));
	s->pool_len += n;
	s->stacks[s->nr_stacks] = k;
	if (idx)
		*idx = s->nr_stacks;
	s->stable[j] = slot_make(h, s->nr_stacks);
	/* at 3/4 full, as the frame table */
	if ((size_t)++s->nr_stacks * 4 > s->smask * 3 && grow_table(&s->stable, &s->smask))
		return -ENOMEM;
	return 0;
}

void hist_stacks__update_frames(struct hist_stacks *s,
				void (*fn)(struct ember_hist_frame *f, void *ctx), void *ctx)
{
	/* the frame table's hashes go stale: nothing is added after this */
	for (uint32_t i = 0; i < s->nr_frames; i++)
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
