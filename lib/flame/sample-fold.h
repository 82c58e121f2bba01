/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * perf.data samples folded into flame graph stacks (sample-fold.c) and
 * their callchain walk (chainwalk.c): the state they share and the helpers
 * both use. lib/collapse/ folds `perf script` text; this folds the samples.
 */
#ifndef EMBER_LIB_FLAME_SAMPLE_FOLD_H
#define EMBER_LIB_FLAME_SAMPLE_FOLD_H

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <ember/session.h>

#include "collapse/sbuf.h"
#include "core/hashtab.h"
#include "flame-priv.h"

struct inliner;

/*
 * The key of a callchain entry's cached frames, kept in the name cache's
 * slots (the frames, first into ids[] and their number, are the value).
 */
struct entry_key {
	const void *sym;
	const void *dso;
	uint64_t pc;
	uint8_t kind;
	bool java;
};

/*
 * A thread's root frame, by (comm string, pid, tid): a system-wide
 * profile interleaves the threads of its cpus sample by sample, so the
 * last thread's root alone is found again about once in two samples.
 */
#define ROOT_SLOTS 256 /* a power of two */
struct root_slot {
	const char *comm; /* NULL: empty */
	uint32_t pid, tid;
	uint32_t root;
	bool java;
};

#define DSO_PROPS 64 /* a power of two */
struct dso_props {
	const void *dso;
	const char *name;
	bool set;
	bool odd; /* the name holds " (" (see entry_frames()) */
	bool jit; /* perf-PID.map or jitted-*.so */
};

struct ember_flame_fold {
	struct ember_flame *fl;
	struct ember_flame_fold_opts opts;
	char *event; /* the event kept */
	bool event_given;
	uint64_t nr_other;

	/* entry_keys in the slots, (nr << 32 | first) + 1 as values */
	struct hashtab names;
	uint32_t *ids;
	size_t nr_ids, alloc_ids;

	char **attr_names; /* by attr index, made on first use */
	uint32_t nr_attr_names;

	uint32_t *stack;
	size_t alloc_stack;

	/*
	 * What a dso's name says (a " (" in it, JIT code), searched once a
	 * dso: a callchain alternates between dsos entry by entry.
	 */
	struct dso_props dso_props[DSO_PROPS];
	/* Whether the sample's root is one of the thread alone (cached, usable in a raw key). */
	bool last_root_set;
	struct root_slot roots[ROOT_SLOTS];
	/* The last attr's verdict: kept (1) or another event (0), for its name then. */
	const void *last_attr, *last_attr_name;
	bool last_attr_kept;
	char *buf;
	size_t alloc_buf;

	/* --inline: addr2line's answers from DWARF, shared with ember collapse. */
	struct inliner *inliner;
	struct sbuf chain;
	uint64_t nr_no_debuginfo;

	/* The sample's ip when the session left it unresolved (sample_location()). */
	struct ember_addr_location al;

	/* Samples whose raw stack was folded before, and their leaf nodes. */
	struct flame_rawstacks *raw;
	uint64_t key[FLAME_RAW_KEY_MAX];

	/* Callchain entries folded before (chain_frames()), and one chain's entries. */
	struct flame_ipframes *ipf;
	struct chain_entry *entries;
	size_t alloc_entries;
};

/* A callchain entry's frames, [first, first + nr) of ids; keep: not filtered out. */
struct chain_entry {
	uint32_t first;
	uint32_t nr;
	bool keep;
};

/* Words of a raw key before the callchain's. */
#define RAW_KEY_HEAD 5

/* Whether --kernel-only / --user-only keep an address looked up in cpumode. */
static inline bool keep_frame(const struct ember_flame_fold *c, uint8_t cpumode)
{
	bool kernel =
	    cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;

	switch (c->opts.frames) {
	case EMBER_FLAME_FRAMES_KERNEL:
		return kernel;
	case EMBER_FLAME_FRAMES_USER:
		return !kernel;
	default:
		return true;
	}
}

static inline int stack_push(struct ember_flame_fold *c, size_t *nr, uint32_t id)
{
	if (*nr == c->alloc_stack) {
		size_t alloc = c->alloc_stack ? c->alloc_stack * 2 : 256;
		uint32_t *grown = realloc(c->stack, alloc * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		c->stack = grown;
		c->alloc_stack = alloc;
	}
	c->stack[(*nr)++] = id;
	return 0;
}

/* sample-fold.c: the cached frames of a callchain entry, *first and *nr into c->ids. */
int flame_fold_entry_lookup(struct ember_flame_fold *c,
				const struct ember_addr_location *al, enum ember_flame_kind kind,
				bool java, uint32_t *first, uint32_t *nr);
enum ember_flame_kind flame_fold_cpumode_kind(struct ember_flame_fold *c,
						  const struct ember_addr_location *al);

/* chainwalk.c: a sample's callchain folded from its recorded words. */
bool flame_chain_is_plain(const struct ember_sample *sm);
int flame_chain_frames(struct ember_flame_fold *c, const struct ember_session_sample *ss,
		       bool java, size_t *nr);

#endif
