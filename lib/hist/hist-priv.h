/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The histogram's insides, shared by hist.c, hist-sort.c and the feed. */
#ifndef EMBER_HIST_PRIV_H
#define EMBER_HIST_PRIV_H

#include <regex.h>
#include <stddef.h>
#include <ember/hist.h>
#include "core/arena.h"
#include "core/hashtab.h"

struct hist_chains;
struct chain_node;

/* An entry: what callers see, then what only the library uses. */
struct hist_entry {
	struct ember_hist_entry pub;
	uint32_t seq;		  /* creation order */
	uint32_t max_depth;	  /* of the chains added from it */
	struct chain_node *chain; /* callchain tree root, NULL when none */
	struct hist_entry *next_free; /* removed by a decay, in the histogram's free list */
};

static inline struct hist_entry *hist_entry__of(const struct ember_hist_entry *e)
{
	return (struct hist_entry *)((const char *)e - offsetof(struct hist_entry, pub));
}

struct hist_memo {
	struct hist_entry *e;
	uint32_t from;
};

struct ember_hist {
	struct ember_hist_opts opts;
	struct ember_hist_layout layout;
	uint64_t mask; /* layout.key_mask */
	struct hist_chains *chains;
	/* entries */
	struct arena entry_mem;		/* the entries */
	struct hashtab entries;		/* struct hist_entry * by hist__key_hash() */
	struct hist_entry *free_entries; /* removed ones, reused by the next new entries */
	uint32_t nr_entries;
	struct hist_entry **sorted;
	size_t nr_sorted;
	struct ember_hist_stats stats;
	/* per-sample scratch */
	const struct ember_hist_frame **cursor;
	struct hist_entry **cache;
	uint32_t cursor_alloc;
	/* interned strings: the canonical one by pointer (hash_mix64) and by text */
	struct hashtab ptrs, strs;
	regex_t parent_re;
	bool have_re;
	/* two passes: entries, then the callchains that will be printed */
	int pass;
	/*
	 * The entries each add of the first pass counted, in order, each
	 * with where its chain starts, a NULL entry after each add's: the
	 * second pass (same samples, same order) takes them from here
	 * instead of looking every frame up again.
	 */
	struct hist_memo *memo;
	size_t nr_memo, alloc_memo, memo_pos;
	/* the second pass's thresholds: what will be shown */
	uint64_t chain_min_period;
	bool filter_relative;
	double min_percent;
};

enum { HIST_PASS_ALL, HIST_PASS_ENTRIES, HIST_PASS_CHAINS };

/*
 * perf report's percentage rules (see ember_hist__shows() and its
 * siblings, which are these): inline, for the histogram's second pass
 * asks them of every entry of every stack.
 */
static inline uint64_t hist__entry_period(const struct ember_hist *h,
					  const struct ember_hist_entry *e)
{
	return h->opts.children ? e->acc.period : e->self.period;
}

static inline uint64_t hist__total_period(const struct ember_hist *h, bool filter_relative)
{
	return filter_relative ? h->stats.total_non_filtered_period : h->stats.total_period;
}

static inline bool hist__shows(const struct ember_hist *h, const struct ember_hist_entry *e,
			       bool filter_relative, double min_percent)
{
	uint64_t total = hist__total_period(h, filter_relative);
	/* perf compares in float */
	float percent = total ? hist__entry_period(h, e) * 100.0 / total : 0;

	return !e->filtered && !(percent < (float)min_percent);
}

/* The hash of an entry's keys (the sort keys of the histogram's mask). */
uint64_t hist__key_hash(const struct ember_hist *h, const struct ember_hist_entry *k);

/* ember_hist__add() without the check of s->sz: the library's own samples are whole. */
int hist__add(struct ember_hist *h, const struct ember_hist_sample *s);

/*
 * Adding the same samples twice, to build only the callchains that will
 * be shown: after begin_entries() hist__add() counts without chains;
 * after begin_chains() it adds the chains of the entries that
 * ember_hist__shows() with filter_relative and min_percent, at or above
 * the callchain threshold, and counts nothing.
 */
void hist__begin_entries(struct ember_hist *h);
void hist__begin_chains(struct ember_hist *h, bool filter_relative, double min_percent);

/* The canonical pointer for the string s (same content, same pointer); NULL on ENOMEM. */
const char *hist__intern(struct ember_hist *h, const char *s);

#endif
