// SPDX-License-Identifier: GPL-2.0-only
/*
 * Addresses to frame indices: open-addressing tables keyed by the
 * address and the generation of the maps it resolved in. While that
 * generation holds, the address resolves to the same map and symbol, so
 * to the same frame: a hit skips the maps and symbol lookups, building
 * the frame and finding it among the distinct frames.
 *
 * Kernel and user addresses have a table each: the kernel's few
 * thousand addresses are in most stacks of a system-wide profile, and in
 * a table of their own their slots stay in the cache; the processes'
 * are many more, each looked up less often.
 */
#include <errno.h>
#include <stdlib.h>
#include <linux/perf_event.h>
#include <ember/symbol.h>
#include "report/frameids.h"
#include "symbol/dso.h"

/* 16 bytes: four to a cache line */
struct ip_slot {
	uint64_t ip;
	uint32_t gen;		/* a half of ember_thread__maps_gen(), see ip_gen() */
	uint32_t id;		/* + 1; 0: empty */
};

struct ip_table {
	struct ip_slot *slots;
	size_t mask, nr;
};

struct rep_frameids {
	struct ip_table kernel, user;
};

static int table_init(struct ip_table *t)
{
	t->mask = 4095;
	t->nr = 0;
	t->slots = calloc(t->mask + 1, sizeof(*t->slots));
	return t->slots ? 0 : -ENOMEM;
}

struct rep_frameids *rep_frameids__new(void)
{
	struct rep_frameids *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (table_init(&c->kernel) || table_init(&c->user)) {
		rep_frameids__delete(c);
		return NULL;
	}
	return c;
}

void rep_frameids__delete(struct rep_frameids *c)
{
	if (!c)
		return;
	free(c->kernel.slots);
	free(c->user.slots);
	free(c);
}

void rep_frame__from_al(struct rep_frame *f, const struct ember_addr_location *al, bool need_end)
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
	f->map_size = al->map ? ember_map__end(al->map) - ember_map__start(al->map) : 0;
	if (al->sym) {
		f->sym_start = al->addr - al->sym_off;
		f->sym_end = need_end ? ember_symbol__end(al->sym) : f->sym_start;
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

static inline uint64_t ip_hash(uint32_t gen, uint64_t ip)
{
	return mum(ip ^ 0xa0761d6478bd642fULL, gen ^ 0xe7037ed1a0b428dbULL);
}

/*
 * The generation an address of cpumode resolves under, a half of
 * ember_thread__maps_gen() (each half is unique in the machine): the
 * kernel's maps are the machine's, the same for every thread, so a kernel
 * address is keyed by their generation alone and shared by all
 * processes; a user address by its process's maps alone.
 */
static uint32_t ip_gen(const struct ember_thread *thread, uint8_t cpumode)
{
	uint64_t gen = ember_thread__maps_gen(thread);

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
		for (j = ip_hash(s->gen, s->ip) & nmask; nt[j].id; j = (j + 1) & nmask)
			;
		nt[j] = *s;
	}
	free(t->slots);
	t->slots = nt;
	t->mask = nmask;
	return 0;
}

/* The slot of (gen, ip): its own, or the empty one where it would go. */
static struct ip_slot *slot_of(struct ip_table *t, uint32_t gen, uint64_t ip)
{
	size_t i = ip_hash(gen, ip) & t->mask;

	while (t->slots[i].id && (t->slots[i].ip != ip || t->slots[i].gen != gen))
		i = (i + 1) & t->mask;
	return &t->slots[i];
}

/* ip resolved now and found (or added) among the distinct frames, without the cache. */
static int64_t resolve(struct rep_stacks *s, struct ember_thread *thread, uint8_t cpumode,
		       uint64_t ip, bool need_end, bool *stable)
{
	struct ember_addr_location al;
	struct rep_frame f;

	ember_thread__resolve(thread, cpumode, ip, &al);
	/*
	 * A kernel address without its symbol may only be waiting for the
	 * kernel's symbols (ember_session__defer_kernel_symbols()): a later
	 * lookup may find one, so it is not remembered.
	 */
	*stable = al.sym || !al.dso || al.dso->kind != DSO_KIND_KERNEL;
	rep_frame__from_al(&f, &al, need_end);
	return rep_stacks__frame(s, &f);
}

int64_t rep_frameids__ip(struct rep_frameids *c, struct rep_stacks *s, struct ember_thread *thread,
			 uint8_t cpumode, uint64_t ip, bool need_end)
{
	struct ip_table *t;
	struct ip_slot *slot;
	bool stable;
	int64_t id;

	/* other modes (guest, hypervisor) resolve to no map: rare, not worth a slot */
	if (cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_USER)
		return resolve(s, thread, cpumode, ip, need_end, &stable);
	t = cpumode == PERF_RECORD_MISC_KERNEL ? &c->kernel : &c->user;
	slot = slot_of(t, ip_gen(thread, cpumode), ip);
	if (slot->id)
		return slot->id - 1;
	id = resolve(s, thread, cpumode, ip, need_end, &stable);
	/* ids are kept + 1 in 32 bits */
	if (id < 0 || !stable || id >= UINT32_MAX)
		return id;
	/* under the generation the lookup ended in: it may have made the kernel's maps */
	slot = slot_of(t, ip_gen(thread, cpumode), ip);
	if (!slot->id) {
		*slot = (struct ip_slot){ .ip = ip, .gen = ip_gen(thread, cpumode),
					  .id = (uint32_t)id + 1 };
		/* at 3/4 full, as the stacks' tables (stacks.c) */
		if (++t->nr * 4 > t->mask * 3 && grow(t))
			return -ENOMEM;
	}
	return id;
}
