/* SPDX-License-Identifier: GPL-2.0-only */
/* The histogram's insides, shared by hist.c, hist-sort.c and print.c. */
#ifndef EMBER_REPORT_HIST_H
#define EMBER_REPORT_HIST_H

#include <regex.h>
#include "report/report.h"

struct entry_block;
struct str_slot;
struct rep_chains;

struct rep_memo {
	struct rep_entry *e;
	uint32_t from;
};

struct rep_hist {
	struct rep_hist_opts opts;
	struct rep_layout layout;
	unsigned int mask;		/* layout.key_mask */
	struct rep_chains *chains;
	/* entries */
	struct entry_block *blocks;
	struct rep_entry **table;
	size_t emask;
	uint32_t nr_entries;
	struct rep_entry **sorted;
	size_t nr_sorted;
	struct rep_hist_stats stats;
	/* per-sample scratch */
	const struct rep_frame **cursor;
	struct rep_entry **cache;
	uint32_t cursor_alloc;
	/* interned strings */
	struct str_slot *ptrs, *strs;
	size_t ptr_mask, str_mask, nr_ptrs, nr_strs;
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
	struct rep_memo *memo;
	size_t nr_memo, alloc_memo, memo_pos;
	uint64_t chain_min_period, pct_total;
	float pct_limit;
};

enum { REP_PASS_ALL, REP_PASS_ENTRIES, REP_PASS_CHAINS };

/* The canonical pointer for the string s (same content, same pointer); NULL on ENOMEM. */
const char *rep_hist__intern(struct rep_hist *h, const char *s);

#endif
