// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Addresses to frame indices: open-addressing tables keyed by the
 * address and the generation of the maps it resolved in. While that
 * generation holds, the address resolves to the same map and symbol, so
 * to the same frame: a hit skips the maps and symbol lookups, building
 * the frame and finding it among the distinct frames.
 *
 * The tables are sized for the cache: the kernel's few thousand
 * addresses, in most stacks of a system-wide profile, have a table of
 * 8-byte slots; user addresses a table per process maps generation, so
 * that a process's addresses share a few cache lines instead of being
 * spread over one table of every process's, where most lookups missed
 * the cache (a system-wide profile's short processes each bring new
 * addresses).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <ember/machine.h>
#include "hist/frameids.h"
#include "symbol/dso.h"

/* An address of one generation's table (struct gen_slot) */
struct ip_slot {
	uint64_t ip;
	uint32_t id;		/* + 1; 0: empty */
};

struct ip_table {
	struct ip_slot *slots;
	size_t mask, nr;
};

/*
 * The addresses of one maps generation and mode (a process's user
 * addresses, until its maps change): key, see wide_key().
 */
struct gen_slot {
	uint64_t gen;
	bool live;
	struct ip_table t;
};

#define GEN_MEMO 16

/*
 * gen_slots by generation; memo: the tables found last, by the low bits
 * of their generation (samples of a few running processes interleave).
 */
struct gen_tables {
	struct gen_slot *slots;
	size_t mask, nr;
	struct {
		struct ip_table *t;
		uint64_t gen;
	} memo[GEN_MEMO];
};

/* A kernel address by its low half (the high one is all ones): 8 bytes, twice the slots a line. */
struct kslot {
	uint32_t ip;
	uint32_t id;		/* + 1; 0: empty */
};

/*
 * The kernel's text addresses under the kernel maps' current generation
 * alone: they are the machine's, generations only grow, and what
 * resolved under an older one is not asked for again.
 */
struct ktable {
	struct kslot *slots;
	size_t mask, nr;
	uint32_t gen;
};

struct hist_frameids {
	struct ktable kernel;
	struct gen_tables wide;	/* user addresses, and kernel ones outside the top 4 GB */
	/* ember_thread__maps_gen() of gen_thread, until a lookup or the next sample */
	const struct ember_thread *gen_thread;
	uint64_t gen;
};

static int table_init(struct ip_table *t, size_t slots)
{
	t->mask = slots - 1;
	t->nr = 0;
	t->slots = calloc(t->mask + 1, sizeof(*t->slots));
	return t->slots ? 0 : -ENOMEM;
}

/* An empty kernel table for generation gen. */
static __attribute__((noinline)) int ktable_reset(struct ktable *k, uint32_t gen)
{
	free(k->slots);
	k->mask = 4095;
	k->nr = 0;
	k->gen = gen;
	k->slots = calloc(k->mask + 1, sizeof(*k->slots));
	return k->slots ? 0 : -ENOMEM;
}

struct hist_frameids *hist_frameids__new(void)
{
	struct hist_frameids *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->wide.mask = 63;
	c->wide.slots = calloc(c->wide.mask + 1, sizeof(*c->wide.slots));
	if (!c->wide.slots || ktable_reset(&c->kernel, 0)) {
		hist_frameids__delete(c);
		return NULL;
	}
	return c;
}

void hist_frameids__delete(struct hist_frameids *c)
{
	if (!c)
		return;
	free(c->kernel.slots);
	if (c->wide.slots)
		for (size_t i = 0; i <= c->wide.mask; i++)
			free(c->wide.slots[i].t.slots);
	free(c->wide.slots);
	free(c);
}

void ember_hist_frame__from_al(struct ember_hist_frame *f, const struct ember_addr_location *al)
{
	f->dso = al->map ? (const void *)al->dso : NULL;
	f->sym = al->sym;
	f->sym_name = al->sym_name;
	f->dso_name = al->dso_short_name;
	f->dso_long_name = al->dso_name;
	f->ip = al->ip;
	f->addr = al->addr;
	f->level = al->level;
	f->cpumode = al->cpumode;
	f->sym_type = al->sym ? (uint8_t)ember_symbol__type(al->sym) : 0;
	f->map_size = al->map ? ember_map__end(al->map) - ember_map__start(al->map) : 0;
	if (al->sym) {
		f->sym_start = al->addr - al->sym_off;
		/*
		 * Always the real end, a field's read: perf compares entries'
		 * symbols by start, then end, and a frame is cached by address
		 * whatever first asked for it (a chain or a sample's own ip).
		 */
		f->sym_end = ember_symbol__end(al->sym);
	} else {
		f->sym_start = f->sym_end = 0;
	}
}

/* 64 x 64 -> 128 multiply, folded: every bit of x and y reaches the result. */
static inline uint64_t mum(uint64_t x, uint64_t y)
{
	__uint128_t p = (__uint128_t)x * y;

	return (uint64_t)p ^ (uint64_t)(p >> 64);
}

static inline uint64_t ip_hash(uint64_t ip)
{
	return mum(ip ^ 0xa0761d6478bd642fULL, 0xe7037ed1a0b428dbULL);
}

/*
 * The generation an address of cpumode resolves under, a half of
 * ember_thread__maps_gen() (each half is unique in the machine): the
 * kernel's maps are the machine's, the same for every thread, so a kernel
 * address is keyed by their generation alone and shared by all
 * processes; a user address by its process's maps alone.
 */
static uint32_t ip_gen(struct hist_frameids *c, const struct ember_thread *thread, uint8_t cpumode)
{
	uint64_t gen;

	/* a sample's addresses share it: asked once unless a lookup (which may make maps) came */
	if (c->gen_thread != thread) {
		c->gen = ember_thread__maps_gen(thread);
		c->gen_thread = thread;
	}
	gen = c->gen;

	return cpumode == PERF_RECORD_MISC_KERNEL ? (uint32_t)gen : (uint32_t)(gen >> 32);
}

static int grow(struct ip_table *t)
{
	size_t nmask = t->mask * 2 + 1, i, j;
	struct ip_slot *nt = calloc(nmask + 1, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (i = 0; i <= t->mask; i++) {
		const struct ip_slot *s = &t->slots[i];

		if (!s->id)
			continue;
		for (j = ip_hash(s->ip) & nmask; nt[j].id; j = (j + 1) & nmask)
			;
		nt[j] = *s;
	}
	free(t->slots);
	t->slots = nt;
	t->mask = nmask;
	return 0;
}

/* The slot of ip: its own, or the empty one where it would go. */
static struct ip_slot *slot_of(struct ip_table *t, uint64_t ip)
{
	size_t i = ip_hash(ip) & t->mask;

	while (t->slots[i].id && t->slots[i].ip != ip)
		i = (i + 1) & t->mask;
	return &t->slots[i];
}

static inline uint64_t gen_hash(uint64_t gen)
{
	return mum(gen ^ 0x8ebc6af09c88c6e3ULL, 0xa0761d6478bd642fULL);
}

static struct gen_slot *gen_slot_of(struct gen_tables *g, uint64_t gen)
{
	size_t i = gen_hash(gen) & g->mask;

	while (g->slots[i].live && g->slots[i].gen != gen)
		i = (i + 1) & g->mask;
	return &g->slots[i];
}

static int gens_grow(struct gen_tables *g)
{
	size_t nmask = g->mask * 2 + 1, i, j;
	struct gen_slot *nt = calloc(nmask + 1, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (i = 0; i <= g->mask; i++) {
		const struct gen_slot *s = &g->slots[i];

		if (!s->live)
			continue;
		for (j = gen_hash(s->gen) & nmask; nt[j].live; j = (j + 1) & nmask)
			;
		nt[j] = *s;
	}
	free(g->slots);
	g->slots = nt;
	g->mask = nmask;
	memset(g->memo, 0, sizeof(g->memo));
	return 0;
}

/*
 * The table of the addresses under key gen (wide_key()), made when new; NULL
 * on ENOMEM. A table per generation, not one for all: a process's
 * addresses are then a few cache lines of their own, not spread over a
 * table of every process's, where most lookups missed the cache (a
 * system-wide profile's short processes each bring new addresses).
 */
static __attribute__((noinline)) struct ip_table *gen_table_find(struct gen_tables *g,
								  uint64_t gen)
{
	typeof(g->memo[0]) *m = &g->memo[gen % GEN_MEMO];
	struct gen_slot *gs = gen_slot_of(g, gen);

	if (!gs->live) {
		if (table_init(&gs->t, 64))
			return NULL;
		gs->gen = gen;
		gs->live = true;
		if (++g->nr * 4 > g->mask * 3) {
			if (gens_grow(g))
				return NULL;
			gs = gen_slot_of(g, gen);
		}
	}
	m->t = &gs->t;
	m->gen = gen;
	return m->t;
}

static inline struct ip_table *gen_table(struct gen_tables *g, uint64_t gen)
{
	typeof(g->memo[0]) *m = &g->memo[gen % GEN_MEMO];

	return m->t && m->gen == gen ? m->t : gen_table_find(g, gen);
}

/* ip resolved now and found (or added) among the distinct frames, without the cache. */
static int64_t resolve(struct hist_frameids *c, struct hist_stacks *s, struct ember_thread *thread,
		       uint8_t cpumode, uint64_t ip, bool *stable)
{
	struct ember_addr_location al;
	struct ember_hist_frame f;

	/* its frame's slots come while the maps and symbols are searched */
	hist_stacks__prefetch_frame(s, ip, cpumode);
	ember_thread__resolve(thread, cpumode, ip, &al);
	c->gen_thread = NULL;
	/*
	 * A kernel address without its symbol may only be waiting for the
	 * kernel's symbols (ember_session__defer_kernel_symbols()): a later
	 * lookup may find one, so it is not remembered.
	 */
	*stable = al.sym || !al.dso || al.dso->kind != DSO_KIND_KERNEL;
	ember_hist_frame__from_al(&f, &al);
	return hist_stacks__frame(s, &f);
}

/*
 * The key of the table of cpumode's addresses under thread's maps: the
 * generation (each half of ember_thread__maps_gen() is unique in the
 * machine) and the mode, in case both are 0 (no maps).
 */
static inline uint64_t wide_key(struct hist_frameids *c, const struct ember_thread *thread,
				uint8_t cpumode)
{
	return (uint64_t)ip_gen(c, thread, cpumode) << 1 | (cpumode == PERF_RECORD_MISC_KERNEL);
}

/*
 * The misses apart (noinline), as the rare table changes: the lookups
 * that hit, most of them, save and restore fewer registers.
 */
static __attribute__((noinline)) int64_t wide_miss(struct hist_frameids *c, struct hist_stacks *s,
						   struct ember_thread *thread, uint8_t cpumode,
						   uint64_t ip, uint64_t key,
						   struct ip_table *t)
{
	struct ip_slot *slot;
	bool stable;
	int64_t id;

	id = resolve(c, s, thread, cpumode, ip, &stable);
	/* ids are kept + 1 in 32 bits */
	if (id < 0 || !stable || id >= UINT32_MAX)
		return id;
	/* under the generation the lookup ended in: it may have made the kernel's maps */
	if (key != wide_key(c, thread, cpumode)) {
		t = gen_table(&c->wide, wide_key(c, thread, cpumode));
		if (!t)
			return -ENOMEM;
	}
	slot = slot_of(t, ip);
	if (!slot->id) {
		*slot = (struct ip_slot){ .ip = ip, .id = (uint32_t)id + 1 };
		/* at 3/4 full, as the stacks' tables (stacks.c) */
		if (++t->nr * 4 > t->mask * 3 && grow(t))
			return -ENOMEM;
	}
	return id;
}

static inline int64_t wide_ip(struct hist_frameids *c, struct hist_stacks *s,
			      struct ember_thread *thread, uint8_t cpumode, uint64_t ip)
{
	uint64_t key = wide_key(c, thread, cpumode);
	struct ip_table *t = gen_table(&c->wide, key);
	struct ip_slot *slot;

	if (!t)
		return -ENOMEM;
	slot = slot_of(t, ip);
	if (slot->id)
		return slot->id - 1;
	return wide_miss(c, s, thread, cpumode, ip, key, t);
}

static inline uint64_t kip_hash(uint32_t ip)
{
	return mum(ip ^ 0xa0761d6478bd642fULL, 0xe7037ed1a0b428dbULL);
}

static struct kslot *kslot_of(struct ktable *k, uint32_t ip)
{
	size_t i = kip_hash(ip) & k->mask;

	while (k->slots[i].id && k->slots[i].ip != ip)
		i = (i + 1) & k->mask;
	return &k->slots[i];
}

static int kgrow(struct ktable *k)
{
	size_t nmask = k->mask * 2 + 1, i, j;
	struct kslot *nt = calloc(nmask + 1, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (i = 0; i <= k->mask; i++) {
		if (!k->slots[i].id)
			continue;
		for (j = kip_hash(k->slots[i].ip) & nmask; nt[j].id; j = (j + 1) & nmask)
			;
		nt[j] = k->slots[i];
	}
	free(k->slots);
	k->slots = nt;
	k->mask = nmask;
	return 0;
}

static __attribute__((noinline)) int64_t kernel_miss(struct hist_frameids *c, struct hist_stacks *s,
						     struct ember_thread *thread, uint64_t ip)
{
	struct ktable *k = &c->kernel;
	struct kslot *slot;
	uint32_t gen;
	bool stable;
	int64_t id;

	id = resolve(c, s, thread, PERF_RECORD_MISC_KERNEL, ip, &stable);
	if (id < 0 || !stable || id >= UINT32_MAX)
		return id;
	/* the lookup may have made the kernel's maps: the address is kept under their generation */
	gen = ip_gen(c, thread, PERF_RECORD_MISC_KERNEL);
	if (gen != k->gen && ktable_reset(k, gen))
		return -ENOMEM;
	slot = kslot_of(k, (uint32_t)ip);
	if (!slot->id) {
		*slot = (struct kslot){ .ip = (uint32_t)ip, .id = (uint32_t)id + 1 };
		if (++k->nr * 4 > k->mask * 3 && kgrow(k))
			return -ENOMEM;
	}
	return id;
}

static inline int64_t kernel_ip(struct hist_frameids *c, struct hist_stacks *s,
				struct ember_thread *thread, uint64_t ip)
{
	struct ktable *k = &c->kernel;
	uint32_t gen = ip_gen(c, thread, PERF_RECORD_MISC_KERNEL);
	struct kslot *slot;

	if (gen != k->gen && ktable_reset(k, gen))
		return -ENOMEM;
	slot = kslot_of(k, (uint32_t)ip);
	if (slot->id)
		return slot->id - 1;
	return kernel_miss(c, s, thread, ip);
}

/* All cases: the generation asked for, the tables made or changed, the misses resolved. */
static __attribute__((noinline)) int64_t lookup(struct hist_frameids *c, struct hist_stacks *s,
						struct ember_thread *thread, uint8_t cpumode,
						uint64_t ip)
{
	bool stable;

	if (cpumode == PERF_RECORD_MISC_KERNEL && ip >> 32 == 0xffffffff)
		return kernel_ip(c, s, thread, ip);
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_USER)
		return wide_ip(c, s, thread, cpumode, ip);
	/* other modes (guest, hypervisor) resolve to no map: rare, not worth a slot */
	return resolve(c, s, thread, cpumode, ip, &stable);
}

/*
 * The hits, most lookups, without a call that returns (lookup() is a tail
 * call): no registers to save and restore around them.
 */
int64_t hist_frameids__ip(struct hist_frameids *c, struct hist_stacks *s,
			  struct ember_thread *thread, uint8_t cpumode, uint64_t ip)
{
	uint64_t gen;

	if (c->gen_thread != thread)
		return lookup(c, s, thread, cpumode, ip);
	gen = c->gen;
	if (cpumode == PERF_RECORD_MISC_KERNEL && ip >> 32 == 0xffffffff) {
		if ((uint32_t)gen == c->kernel.gen) {
			const struct kslot *slot = kslot_of(&c->kernel, (uint32_t)ip);

			if (slot->id)
				return slot->id - 1;
		}
	} else if (cpumode == PERF_RECORD_MISC_USER) {
		/* wide_key() of a user address */
		uint64_t key = (uint64_t)(uint32_t)(gen >> 32) << 1;
		typeof(c->wide.memo[0]) *m = &c->wide.memo[key % GEN_MEMO];

		if (m->t && m->gen == key) {
			const struct ip_slot *slot = slot_of(m->t, ip);

			if (slot->id)
				return slot->id - 1;
		}
	}
	return lookup(c, s, thread, cpumode, ip);
}

void hist_frameids__sample(struct hist_frameids *c, const struct ember_thread *thread)
{
	c->gen_thread = thread;
	if (thread)
		c->gen = ember_thread__maps_gen(thread);
}
