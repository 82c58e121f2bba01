// SPDX-License-Identifier: GPL-2.0-only
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
#include "core/hash.h"
#include "report/rawstacks.h"
#include "report/stacks.h"

struct stack {
	uint64_t hash;
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

struct rep_stacks {
	struct recent_frame recent[RECENT_FRAMES];
	/* distinct frames */
	struct rep_frame *frames;
	uint32_t nr_frames, frames_alloc;
	uint32_t *ftable;	/* index + 1 */
	size_t fmask;
	/* distinct stacks, in first-seen order */
	struct stack *stacks;
	uint32_t nr_stacks, stacks_alloc;
	uint32_t *stable;	/* index + 1 */
	size_t smask;
	/* frame indices of all stacks */
	uint32_t *pool;
	size_t pool_len, pool_alloc;
	/* scratch for the sample being added */
	uint32_t *scratch;
	uint32_t scratch_alloc;
	struct rep_raw *raw;
	bool by_address;	/* frames of one symbol differ by address (srcline keys) */
};

struct rep_stacks *rep_stacks__new(bool by_address)
{
	struct rep_stacks *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->by_address = true;
	s->fmask = 1023;
	s->smask = 4095;
	s->ftable = calloc(s->fmask + 1, sizeof(*s->ftable));
	s->stable = calloc(s->smask + 1, sizeof(*s->stable));
	if (!s->ftable || !s->stable) {
		rep_stacks__delete(s);
		return NULL;
	}
	return s;
}

void rep_stacks__delete(struct rep_stacks *s)
{
	if (!s)
		return;
	free(s->frames);
	free(s->ftable);
	free(s->stacks);
	free(s->stable);
	free(s->pool);
	free(s->scratch);
	rep_raw__delete(s->raw);
	free(s);
}

struct rep_raw *rep_stacks__raw(struct rep_stacks *s)
{
	if (!s->raw)
		s->raw = rep_raw__new();
	return s->raw;
}

/*
 * What makes two frames the same for the report: resolved ones by
 * symbol, others by address; all by address when the keys look at lines.
 */
static bool frame_eq(const struct rep_stacks *s, const struct rep_frame *a,
		     const struct rep_frame *b)
{
	if (a->dso != b->dso || a->sym != b->sym || a->level != b->level ||
	    a->cpumode != b->cpumode || a->map_size != b->map_size)
		return false;
	return (a->sym && !s->by_address) || (a->ip == b->ip && a->addr == b->addr);
}

static uint64_t frame_hash(const struct rep_stacks *s, const struct rep_frame *f)
{
	uint64_t h = hash_mix64((uintptr_t)f->dso ^ ((uint64_t)(uint8_t)f->level << 56) ^
			 ((uint64_t)f->cpumode << 48));

	if (f->sym && !s->by_address)
		return hash_mix64(h ^ (uintptr_t)f->sym);
	return hash_mix64(h ^ f->ip ^ hash_mix64(f->addr));
}

static int grow_table(uint32_t **table, size_t *mask, uint32_t nr,
		      uint64_t (*hash_of)(const struct rep_stacks *, uint32_t),
		      const struct rep_stacks *s)
{
	size_t nmask = *mask * 2 + 1, i;
	uint32_t *nt = calloc(nmask + 1, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		size_t j = hash_of(s, i) & nmask;

		while (nt[j])
			j = (j + 1) & nmask;
		nt[j] = i + 1;
	}
	free(*table);
	*table = nt;
	*mask = nmask;
	return 0;
}

static uint64_t frame_hash_at(const struct rep_stacks *s, uint32_t i)
{
	return frame_hash(s, &s->frames[i]);
}

static uint64_t stack_hash_at(const struct rep_stacks *s, uint32_t i)
{
	return s->stacks[i].hash;
}

static bool recent_eq(const struct rep_stacks *s, const struct recent_frame *r,
		      const struct rep_frame *f)
{
	if (r->dso != f->dso || r->sym != f->sym || r->level != f->level ||
	    r->cpumode != f->cpumode || r->map_size != f->map_size)
		return false;
	return (f->sym && !s->by_address) || (r->ip == f->ip && r->addr == f->addr);
}

/* The index of frame f in the frame table, added when new; -1 on ENOMEM. */
static int64_t frame_index(struct rep_stacks *s, const struct rep_frame *f)
{
	uint64_t hash = frame_hash(s, f);
	struct recent_frame *r = &s->recent[(hash >> 32) & (RECENT_FRAMES - 1)];
	size_t i = hash & s->fmask;
	uint32_t x;

	/* a profile's frames repeat: the last one with this slot is likely the one */
	if (r->idx && recent_eq(s, r, f))
		return r->idx - 1;
	while ((x = s->ftable[i])) {
		if (frame_eq(s, &s->frames[x - 1], f))
			goto found;
		i = (i + 1) & s->fmask;
	}
	if (s->nr_frames == s->frames_alloc) {
		uint32_t alloc = s->frames_alloc ? 2 * s->frames_alloc : 1024;
		struct rep_frame *v = realloc(s->frames, alloc * sizeof(*v));

		if (!v)
			return -1;
		s->frames = v;
		s->frames_alloc = alloc;
	}
	s->frames[s->nr_frames] = *f;
	s->ftable[i] = x = ++s->nr_frames;
	if (s->nr_frames * 2 > s->fmask &&
	    grow_table(&s->ftable, &s->fmask, s->nr_frames, frame_hash_at, s))
		return -1;
found:
	*r = (struct recent_frame){
		.dso = f->dso, .sym = f->sym, .ip = f->ip, .addr = f->addr, .map_size = f->map_size,
		.idx = x, .level = f->level, .cpumode = f->cpumode,
	};
	return x - 1;
}

static bool stack_eq(const struct rep_stacks *s, const struct stack *st, const struct stack *k,
		     const uint32_t *frames)
{
	return st->hash == k->hash && st->nr == k->nr && st->hist == k->hist &&
	       st->comm == k->comm && st->thread == k->thread && st->cpu == k->cpu &&
	       st->pid == k->pid && st->tid == k->tid && st->filtered == k->filtered &&
	       st->time == k->time && st->trace == k->trace &&
	       !memcmp(&s->pool[st->first], frames, (k->nr + 1) * sizeof(*frames));
}

void rep_stacks__add_to(struct rep_stacks *s, uint32_t idx, uint64_t period, uint64_t count)
{
	s->stacks[idx].period += period;
	s->stacks[idx].count += count;
}

int rep_stacks__add(struct rep_stacks *s, uint32_t hist, const struct rep_sample *sm,
		    uint32_t *idx)
{
	struct stack k = {
		.comm = sm->comm,
		.thread = sm->thread,
		.pid = sm->pid,
		.tid = sm->tid,
		.cpu = sm->cpu,
		.hist = hist,
		.nr = sm->nr_chain,
		.filtered = sm->filtered,
		.time = sm->time,
		.trace = sm->trace,
	};
	uint32_t n = sm->nr_chain + 1, i, x;
	uint64_t h;
	size_t j;

	if (n > s->scratch_alloc) {
		uint32_t *v = realloc(s->scratch, 2 * n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->scratch = v;
		s->scratch_alloc = 2 * n;
	}
	h = hash_mix64((uintptr_t)k.comm ^ hash_mix64((uintptr_t)k.thread) ^ ((uint64_t)hist << 40) ^
		((uint64_t)(uint32_t)k.cpu << 8) ^ k.filtered ^ hash_mix64(k.time ^ (uintptr_t)k.trace));
	for (i = 0; i < n; i++) {
		int64_t fi = frame_index(s, i ? &sm->chain[i - 1] : sm->self);

		if (fi < 0)
			return -ENOMEM;
		s->scratch[i] = (uint32_t)fi;
		h = hash_mix64(h ^ (uint64_t)fi) + i;
	}
	k.hash = h;

	j = h & s->smask;
	while ((x = s->stable[j])) {
		struct stack *st = &s->stacks[x - 1];

		if (stack_eq(s, st, &k, s->scratch)) {
			st->period += sm->period;
			st->count += sm->nr_samples;
			if (idx)
				*idx = x - 1;
			return 0;
		}
		j = (j + 1) & s->smask;
	}
	if (s->pool_len + n > s->pool_alloc) {
		size_t alloc = (s->pool_alloc + n) * 2;
		uint32_t *v = realloc(s->pool, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->pool = v;
		s->pool_alloc = alloc;
	}
	if (s->nr_stacks == s->stacks_alloc) {
		uint32_t alloc = s->stacks_alloc ? 2 * s->stacks_alloc : 1024;
		struct stack *v = realloc(s->stacks, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->stacks = v;
		s->stacks_alloc = alloc;
	}
	k.first = s->pool_len;
	k.period = sm->period;
	k.count = sm->nr_samples;
	memcpy(&s->pool[s->pool_len], s->scratch, n * sizeof(*s->scratch));
	s->pool_len += n;
	s->stacks[s->nr_stacks] = k;
	if (idx)
		*idx = s->nr_stacks;
	s->stable[j] = ++s->nr_stacks;
	if (s->nr_stacks * 2 > s->smask &&
	    grow_table(&s->stable, &s->smask, s->nr_stacks, stack_hash_at, s))
		return -ENOMEM;
	return 0;
}

void rep_stacks__update_frames(struct rep_stacks *s, void (*fn)(struct rep_frame *f, void *ctx),
			       void *ctx)
{
	/* the frame table's hashes go stale: nothing is added after this */
	for (uint32_t i = 0; i < s->nr_frames; i++)
		fn(&s->frames[i], ctx);
}

int rep_stacks__replay(struct rep_stacks *s, rep_stacks_fn fn, void *ctx)
{
	struct rep_frame *chain = NULL;
	uint32_t alloc = 0, i, j;
	int err = 0;

	for (i = 0; i < s->nr_stacks && !err; i++) {
		const struct stack *st = &s->stacks[i];
		const uint32_t *idx = &s->pool[st->first];
		struct rep_sample sm;

		if (st->nr > alloc) {
			struct rep_frame *v = realloc(chain, st->nr * 2 * sizeof(*v));

			if (!v) {
				err = -ENOMEM;
				break;
			}
			chain = v;
			alloc = st->nr * 2;
		}
		for (j = 0; j < st->nr; j++)
			chain[j] = s->frames[idx[1 + j]];
		sm = (struct rep_sample){
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
