// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Addresses to frame indices: lib/core hash tables keyed by the address,
 * one for each generation of the maps it resolved in. While that
 * generation holds, the address resolves to the same map and symbol, so
 * to the same frame: a hit skips the maps and symbol lookups, building
 * the frame and finding it among the distinct frames.
 *
 * The tables are sized for the cache: the kernel's few thousand text
 * addresses, in most stacks of a system-wide profile, have a table of
 * narrow slots of their own, under the kernel maps' current generation
 * alone (they are the machine's, generations only grow, and what
 * resolved under an older one is not asked for again); user addresses a
 * table per process maps generation, so that a process's addresses share
 * a few cache lines instead of being spread over one table of every
 * process's, where most lookups missed the cache (a system-wide
 * profile's short processes each bring new addresses).
 *
 * A slot holds a bijective hash of its address (hash_mix32() of a kernel
 * text address's low half, hash_mix64() of any other): equal hashes are
 * equal addresses, and a probe reads nothing but the slots.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <ember/machine.h>
#include "core/hash.h"
#include "core/hashtab.h"
#include "hist/frameids.h"
#include "symbol/dso.h"

#define GEN_MEMO 16

struct hist_frameids {
	/*
	 * kernel addresses under the kernel maps' generation kgen, in narrow
	 * slots: hash_mix32() of the address's low half (the high one is all
	 * ones), the frame id + 1
	 */
	struct hashtab kernel;
	uint32_t kgen;
	/*
	 * the tables of user addresses (and of kernel ones outside the top 4
	 * GB) by wide_key(): hash_mix64() of it, the key + 1, the table in the
	 * slot; each table hash_mix64() of an address, its frame id + 1
	 */
	struct hashtab wide;
	/* the tables found last, by the low bits of their key (processes interleave) */
	struct {
		struct hashtab *t;
		uint64_t key;
	} memo[GEN_MEMO];
	/* ember_thread__maps_gen() of gen_thread, until a lookup or the next sample */
	const struct ember_thread *gen_thread;
	uint64_t gen;
};

struct hist_frameids *hist_frameids__new(void)
{
	struct hist_frameids *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->kernel.stride = sizeof(struct hashtab_slot32);
	c->wide.stride = sizeof(struct hashtab_slot) + sizeof(struct hashtab);
	if (hashtab__reserve(&c->kernel, 2048) || hashtab__reserve(&c->wide, 32)) {
		hist_frameids__delete(c);
		return NULL;
	}
	return c;
}

void hist_frameids__delete(struct hist_frameids *c)
{
	struct hashtab_slot *s;

	if (!c)
		return;
	hashtab__exit(&c->kernel);
	hashtab__for_each(&c->wide, s)
		hashtab__exit(hashtab__payload(s));
	hashtab__exit(&c->wide);
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
	/* hist/inlines.c names inlined functions so: not the session's own flag */
	f->inlined = 0;
	f->srcline = al->srcline;
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

/*
 * The generation of the maps the addresses of cpumode resolve in, a half
 * of ember_thread__maps_gen() (each half is unique in the machine): the
 * kernel's maps are the machine's, the same for every thread, so a kernel
 * address is keyed by their generation alone and shared by all
 * processes; a user address by its process's maps alone.
 */
static uint32_t ip_gen(struct hist_frameids *c, const struct ember_thread *thread, uint8_t cpumode)
{
	/* a sample's addresses share it: asked once unless a lookup (which may make maps) came */
	if (c->gen_thread != thread) {
		c->gen = ember_thread__maps_gen(thread);
		c->gen_thread = thread;
	}
	return cpumode == PERF_RECORD_MISC_KERNEL ? (uint32_t)c->gen : (uint32_t)(c->gen >> 32);
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
 * The table of the addresses under key (wide_key()), made when new; NULL
 * on ENOMEM. The memo points into the slots: a growth clears it.
 */
static __attribute__((noinline)) struct hashtab *wide_table_find(struct hist_frameids *c,
								 uint64_t key)
{
	uint64_t h = hash_mix64(key);
	const unsigned char *slots = c->wide.slots;
	struct hashtab_slot *s;

	if (hashtab__reserve(&c->wide, 1))
		return NULL;
	if (c->wide.slots != slots)
		memset(c->memo, 0, sizeof(c->memo));
	s = hashtab__slot(&c->wide, h, hashtab__eq_hash, NULL);
	if (!s->val) {
		struct hashtab *t = hashtab__payload(s);

		/* 64 slots, a KB: most processes of a system-wide profile need no more */
		*t = (struct hashtab){ 0 };
		if (hashtab__reserve(t, 32))
			return NULL;
		hashtab__fill(&c->wide, s, h, key + 1);
	}
	c->memo[key % GEN_MEMO].t = hashtab__payload(s);
	c->memo[key % GEN_MEMO].key = key;
	return hashtab__payload(s);
}

static inline struct hashtab *wide_table(struct hist_frameids *c, uint64_t key)
{
	typeof(c->memo[0]) *m = &c->memo[key % GEN_MEMO];

	return m->t && m->key == key ? m->t : wide_table_find(c, key);
}

/* Whether ip of cpumode is a kernel text address, kept in the narrow table by its low half. */
static inline bool kernel_text(uint8_t cpumode, uint64_t ip)
{
	return cpumode == PERF_RECORD_MISC_KERNEL && ip >> 32 == 0xffffffff;
}

/*
 * The frame id + 1 of kernel text address ip, 0 when it is not there.
 * The table has its slots from hist_frameids__new() on, as each wide one
 * from wide_table_find(): the probes need not ask.
 */
static inline uint32_t kernel_get(const struct hist_frameids *c, uint64_t ip)
{
	return hashtab32__slot(&c->kernel, hash_mix32((uint32_t)ip), hashtab32__eq_hash, NULL)->val;
}

/* The frame id + 1 of ip in the wide table t, 0 when it is not there. */
static inline uint64_t wide_get(const struct hashtab *t, uint64_t ip)
{
	return hashtab__slot(t, hash_mix64(ip), hashtab__eq_hash, NULL)->val;
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

/* Remembers kernel text address ip as frame id. 0 or -ENOMEM. */
static int kernel_add(struct hist_frameids *c, const struct ember_thread *thread, uint64_t ip,
		      uint32_t id)
{
	/* under the generation the lookup ended in: it may have made the kernel's maps */
	uint32_t gen = ip_gen(c, thread, PERF_RECORD_MISC_KERNEL), h = hash_mix32((uint32_t)ip);
	struct hashtab_slot32 *slot;

	if (gen != c->kgen) {
		hashtab__clear(&c->kernel);
		c->kgen = gen;
	}
	if (hashtab__reserve(&c->kernel, 1))
		return -ENOMEM;
	slot = hashtab32__slot(&c->kernel, h, hashtab32__eq_hash, NULL);
	if (!slot->val)
		hashtab32__fill(&c->kernel, slot, h, id + 1);
	return 0;
}

/* Remembers ip of cpumode as frame id. 0 or -ENOMEM. */
static int wide_add(struct hist_frameids *c, const struct ember_thread *thread, uint8_t cpumode,
		    uint64_t ip, uint32_t id)
{
	/* under the generation the lookup ended in, as above */
	struct hashtab *t = wide_table(c, wide_key(c, thread, cpumode));
	uint64_t h = hash_mix64(ip);
	struct hashtab_slot *slot;

	if (!t || hashtab__reserve(t, 1))
		return -ENOMEM;
	slot = hashtab__slot(t, h, hashtab__eq_hash, NULL);
	if (!slot->val)
		hashtab__fill(t, slot, h, (uint64_t)id + 1);
	return 0;
}

/*
 * The misses apart (noinline), as the rare table changes: the lookups
 * that hit, most of them, save and restore fewer registers.
 */
static __attribute__((noinline)) int64_t miss(struct hist_frameids *c, struct hist_stacks *s,
					      struct ember_thread *thread, uint8_t cpumode, uint64_t ip)
{
	bool stable;
	int64_t id;
	int err;

	id = resolve(c, s, thread, cpumode, ip, &stable);
	/* ids are kept + 1 in 32 bits */
	if (id < 0 || !stable || id >= UINT32_MAX)
		return id;
	if (kernel_text(cpumode, ip))
		err = kernel_add(c, thread, ip, (uint32_t)id);
	else
		err = wide_add(c, thread, cpumode, ip, (uint32_t)id);
	return err ? err : id;
}

/* All cases: the generation asked for, the tables made or changed, the misses resolved. */
static __attribute__((noinline)) int64_t lookup(struct hist_frameids *c, struct hist_stacks *s,
						struct ember_thread *thread, uint8_t cpumode, uint64_t ip)
{
	const struct hashtab *t;
	uint64_t v = 0;
	bool stable;

	if (kernel_text(cpumode, ip)) {
		if (ip_gen(c, thread, cpumode) == c->kgen)
			v = kernel_get(c, ip);
	} else if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_USER) {
		t = wide_table(c, wide_key(c, thread, cpumode));
		if (!t)
			return -ENOMEM;
		v = wide_get(t, ip);
	} else {
		/* other modes (guest, hypervisor) resolve to no map: rare, not worth a slot */
		return resolve(c, s, thread, cpumode, ip, &stable);
	}
	if (v)
		return v - 1;
	return miss(c, s, thread, cpumode, ip);
}

/*
 * The hits, most lookups, without a call that returns (lookup() is a tail
 * call): no registers to save and restore around them.
 */
int64_t hist_frameids__ip(struct hist_frameids *c, struct hist_stacks *s,
			  struct ember_thread *thread, uint8_t cpumode, uint64_t ip)
{
	uint64_t v;

	if (c->gen_thread != thread)
		return lookup(c, s, thread, cpumode, ip);
	if (kernel_text(cpumode, ip)) {
		if ((uint32_t)c->gen == c->kgen && (v = kernel_get(c, ip)))
			return v - 1;
	} else if (cpumode == PERF_RECORD_MISC_USER) {
		/* wide_key() of a user address */
		uint64_t key = (uint64_t)(uint32_t)(c->gen >> 32) << 1;
		typeof(c->memo[0]) *m = &c->memo[key % GEN_MEMO];

		if (m->t && m->key == key && (v = wide_get(m->t, ip)))
			return v - 1;
	}
	return lookup(c, s, thread, cpumode, ip);
}

void hist_frameids__sample(struct hist_frameids *c, const struct ember_thread *thread)
{
	c->gen_thread = thread;
	if (thread)
		c->gen = ember_thread__maps_gen(thread);
}
