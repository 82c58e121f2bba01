/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ember report's model, independent of where samples come from:
 *
 *   rep_sample (a resolved sample, its callchain) ──> rep_hist
 *        entries keyed by the --sort keys, self and children periods,
 *        a callchain tree per entry
 *   rep_hist ──resort──> rows in perf's output order ──> stdio printer
 *
 * Unit tests feed synthetic samples; cmd-report.c feeds the session's.
 */
#ifndef EMBER_REPORT_H
#define EMBER_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One resolved address: a sample's ip or a callchain entry. */
struct rep_frame {
	const void *dso;	/* identity of the dso; NULL: no map */
	const void *sym;	/* identity of the symbol; NULL: unresolved */
	const char *sym_name;	/* NULL when unresolved */
	const char *dso_name;	/* short name ("libc.so.6"); NULL without map */
	const char *dso_long_name;
	uint64_t ip;		/* as recorded */
	uint64_t addr;		/* dso-relative (perf's al->addr) */
	uint64_t sym_start;	/* dso address space */
	uint64_t sym_end;
	uint64_t map_size;	/* of the map the address is in, 0 without one */
	char level;		/* '.', 'k', ... */
	uint8_t cpumode;	/* PERF_RECORD_MISC_* */
	uint8_t sym_type;	/* STT_* of the symbol, 0 when unresolved */
};

/* What a sample contributes; frames are only read during rep_hist__add(). */
struct rep_sample {
	const struct rep_frame *self;	/* the sample's ip */
	const struct rep_frame *const *chain;	/* callchain, leaf first (as recorded) */
	uint32_t nr_chain;
	uint64_t period;
	uint64_t nr_samples;		/* samples this stands for (1, or more when merged) */
	int32_t pid, tid, cpu;
	const char *comm;
	const void *thread;		/* identity, for perf's caller-above-callee tie break */
	uint8_t filtered;		/* REP_FILTER_* bits: counted, not shown */
	const char *trace;		/* tracepoint text, stable, one pointer per text; NULL: none */
	uint64_t time;			/* quantised, set only when sorted by time */
};

#define REP_SEEN_SRCLINE  (1 << 0)
#define REP_SEEN_SRCFILE  (1 << 1)
#define REP_SEEN_TRACE    (1 << 2)

#define REP_FILTER_COMM   (1 << 0)
#define REP_FILTER_DSO    (1 << 1)
#define REP_FILTER_SYMBOL (1 << 2)
#define REP_FILTER_THREAD (1 << 3)
#define REP_FILTER_PARENT (1 << 4)

/* ---- callchain options (perf's -g/--call-graph) -------------------------- */

enum rep_chain_mode {
	REP_CHAIN_NONE,
	REP_CHAIN_GRAPH_ABS,	/* "graph" */
	REP_CHAIN_GRAPH_REL,	/* "fractal" */
	REP_CHAIN_FLAT,
	REP_CHAIN_FOLDED,
};

enum rep_chain_order { REP_ORDER_CALLEE, REP_ORDER_CALLER };
enum rep_chain_value { REP_CCVAL_PERCENT, REP_CCVAL_PERIOD, REP_CCVAL_COUNT };
enum rep_chain_key { REP_CCKEY_FUNCTION, REP_CCKEY_ADDRESS };

struct rep_chain_param {
	enum rep_chain_mode mode;
	enum rep_chain_order order;
	enum rep_chain_value value;
	enum rep_chain_key key;
	double min_percent;	/* threshold, default 0.5 */
	unsigned int print_limit; /* 0: no limit */
	bool order_set;
};

/*
 * Parses perf's -g argument: a comma-separated mix of mode (graph,
 * fractal, flat, folded, none), threshold (a number), print limit (a
 * second number), order (caller, callee), key (function, address), value
 * (percent, period, count); "fp" and "dwarf" record modes are accepted
 * and ignored. Returns 0 or -EINVAL.
 */
int rep_chain_param__parse(struct rep_chain_param *p, const char *arg);

/* ---- sort keys and columns ------------------------------------------------ */

enum rep_dim {
	REP_DIM_OVERHEAD,
	REP_DIM_OVERHEAD_SYS,
	REP_DIM_OVERHEAD_US,
	REP_DIM_OVERHEAD_GUEST_SYS,
	REP_DIM_OVERHEAD_GUEST_US,
	REP_DIM_OVERHEAD_CHILDREN,
	REP_DIM_SAMPLE,
	REP_DIM_PERIOD,
	REP_DIM_PID,
	REP_DIM_COMM,
	REP_DIM_DSO,
	REP_DIM_SYM,
	REP_DIM_PARENT,
	REP_DIM_CPU,
	REP_DIM_SOCKET,
	REP_DIM_SYMBOL_SIZE,
	REP_DIM_DSO_SIZE,
	REP_DIM_IPC_NULL,	/* "IPC [IPC Coverage]" without branch data: "-" */
	REP_DIM_SRCLINE,	/* "file.c:42" as perf's addr2line gives it */
	REP_DIM_SRCFILE,	/* "file.c" */
	REP_DIM_TRACE,		/* a tracepoint sample's fields as text */
	REP_DIM_ADDR,		/* the sample's address */
	REP_DIM_TIME,		/* the sample's time, in 100 ms steps */
	/* perf's keys for data ember's files lack: one value for every entry */
	REP_DIM_WEIGHT,
	REP_DIM_LOCAL_WEIGHT,
	REP_DIM_TRANSACTION,
	REP_DIM_CGROUP,
	REP_DIM_CGROUP_ID,
	REP_DIM_CODE_PAGE_SIZE,
	REP_DIM_INS_LAT,
	REP_DIM_LOCAL_INS_LAT,
	REP_DIM_NR,
};

/* The name perf accepts for a dimension ("overhead_children", "symbol"). */
const char *rep_dim__name(enum rep_dim d);
/* Finds a dimension by name (perf's prefix match: "sym" is "symbol"); -1 when unknown. */
int rep_dim__find(const char *name);
/* Why ember refuses a key perf knows (branch-stack, memory keys), or NULL. */
const char *rep_dim__unsupported(const char *name);
/* True for the numeric columns (overhead*, sample, period). */
bool rep_dim__is_hpp(enum rep_dim d);

#define REP_MAX_COLS 32

struct rep_layout {
	enum rep_dim sort[REP_MAX_COLS];	/* output order comparison */
	int nr_sort;
	enum rep_dim cols[REP_MAX_COLS];	/* printed columns */
	int nr_cols;
	unsigned int key_mask;			/* dimensions entries are merged by (1 << dim) */
	bool first_sort_is_sym;			/* --sort given and starts with "sym" */
	bool self_header;			/* "Self" instead of "Overhead" (--children) */
	bool elide[REP_MAX_COLS];		/* columns a one-value filter makes pointless */
};

struct rep_layout_opts {
	const char *sort_order;		/* --sort, NULL: default */
	const char *field_order;	/* -F, NULL: default */
	bool children;			/* cumulate callchains */
	bool show_nr_samples;		/* -n */
	bool show_total_period;		/* --show-total-period */
	const char *default_sort;	/* "comm,dso,sym", or "sym" ... */
};

/*
 * Builds the sort list and the columns as perf's setup_sorting() does.
 * Returns 0, or -EINVAL with *bad pointing at the unknown key (a copy in
 * badbuf).
 */
int rep_layout__setup(struct rep_layout *l, const struct rep_layout_opts *o, char *badbuf,
		      size_t badsz);

/* ---- the histogram -------------------------------------------------------- */

struct rep_stat {
	uint64_t period;
	uint64_t nr_events;
	uint64_t period_sys, period_us, period_guest_sys, period_guest_us;
};

struct rep_cnode;

struct rep_entry {
	struct rep_entry *hnext;
	uint64_t hash;
	uint32_t seq;			/* creation order */
	/* keys (only those in key_mask are meaningful for merging) */
	const char *comm;
	int32_t tid;
	int32_t cpu;
	const void *dso;
	const char *dso_name;
	const char *dso_long_name;
	const void *sym;
	const char *sym_name;
	uint64_t sym_start, sym_end;
	uint64_t map_size;
	uint64_t ip;
	char level;
	uint8_t sym_type;		/* STT_OBJECT: perf shows the offset into it */
	const char *parent;		/* parent symbol name, NULL: [other] */
	const char *srcline;		/* interned; set only when sorted by srcline */
	const char *srcfile;		/* interned; set only when sorted by srcfile */
	const char *trace;		/* interned; NULL: not a tracepoint (perf's "N/A") */
	uint64_t addr_key;		/* the address perf's addr key shows */
	uint64_t time;
	uint8_t src_seen;		/* REP_SEEN_*: perf would have computed it by now */
	const void *thread;
	uint8_t filtered;
	/* values */
	struct rep_stat self, acc;
	uint32_t max_depth;
	struct rep_cnode *chain;	/* callchain tree root, NULL when none */
};

struct rep_hist_opts {
	const struct rep_layout *layout;
	struct rep_chain_param chain;
	bool use_callchain;	/* build callchain trees */
	bool children;		/* cumulate callchains (perf --children) */
	const char *parent_pattern; /* regex for the parent key, NULL: perf's default */
	bool exclude_other;	/* -x: only entries with a parent */
	bool dso_filter;	/* --dsos given (perf then keeps the dso column narrow) */
	/* The thread's comm at the end (perf's pid column); NULL: the entry's comm. */
	const char *(*thread_comm)(const void *thread);
	/*
	 * perf's srcline (file false) or srcfile (file true) of frame f seen
	 * at ip (perf's he->ip: the dso-relative address for the sample's
	 * own entry, the raw ip for a callchain's); the string must live as
	 * long as the histogram. Called only when those keys are sorted by.
	 */
	const char *(*srcline)(void *ctx, const struct rep_frame *f, uint64_t ip, bool file);
	/*
	 * perf's srcline of a callchain frame, printed after its name when
	 * the chains are keyed by address (-g ...,address); with srcline_ctx.
	 */
	const char *(*chain_srcline)(void *ctx, const struct rep_frame *f);
	void *srcline_ctx;
};

struct rep_hist;

struct rep_hist *rep_hist__new(const struct rep_hist_opts *opts);
void rep_hist__delete(struct rep_hist *h);
/* Adds a sample; 0 or -ENOMEM. */
int rep_hist__add(struct rep_hist *h, const struct rep_sample *s);

/*
 * Adding the same samples twice, to build only the callchains the
 * printer will show: after begin_entries() rep_hist__add() counts
 * without chains; after begin_chains() it adds the chains of the entries
 * at or above the thresholds of po and counts nothing.
 */
struct rep_print_opts;
void rep_hist__begin_entries(struct rep_hist *h);
void rep_hist__begin_chains(struct rep_hist *h, const struct rep_print_opts *po);

/* Totals as perf's hists->stats counts them. */
struct rep_hist_stats {
	uint64_t nr_samples, nr_non_filtered_samples;
	uint64_t total_period, total_non_filtered_period;
	uint64_t callchain_period, callchain_non_filtered_period;
	uint64_t nr_entries;
};
const struct rep_hist_stats *rep_hist__stats(const struct rep_hist *h);

/*
 * Sorts the entries for output (and each entry's callchain by the
 * threshold). After this, rep_hist__entry(h, i) walks them in order.
 * filter_relative: percentages and thresholds of filtered reports are
 * relative to what is shown (perf --percentage relative).
 */
int rep_hist__resort(struct rep_hist *h, bool filter_relative);
size_t rep_hist__nr_entries(const struct rep_hist *h);
struct rep_entry *rep_hist__entry(const struct rep_hist *h, size_t i);

/* ---- printing ------------------------------------------------------------- */

struct rep_print_opts {
	bool show_header;		/* column headers (not with -q) */
	bool filter_relative;
	double min_percent;		/* --percent-limit */
	const char *field_sep;		/* -t, NULL: aligned columns */
};

/* Prints the column header and the rows with their callchains, as perf's hists__fprintf. */
void rep_hist__fprintf(struct rep_hist *h, const struct rep_print_opts *po, FILE *fp);

/* perf's convert_unit(): 4567 -> 4 and 'K'. */
unsigned long rep_convert_unit(unsigned long value, char *unit);

#endif
