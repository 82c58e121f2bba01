/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Histograms as perf report builds them: samples merged into entries by
 * the sort keys, with self and children ("accumulated") periods and a
 * callchain tree per entry, sorted into perf's output order.
 *
 *   ember_hist_sample (a resolved sample and its callchain)
 *        ──ember_hist__add()──> ember_hist: entries keyed by the layout's
 *        sort keys, callchain trees
 *        ──ember_hist__resort()──> entries in perf's order, walked with
 *        ember_hist__entry(), each callchain with ember_callchain_node__*()
 *
 *   ember_session ──ember_hist_feed──> one ember_hist per event of the
 *        file: perf report's resolving, filters and callchain handling,
 *        with repeated stacks folded before they are added
 *
 * Printing is the caller's: everything a printer needs from an entry or a
 * callchain node is below, and so are perf's rules for which entries and
 * branches are shown (ember_hist__shows(), ember_hist__callchain_min_hit()).
 *
 * ABI. Option structs the caller fills and that will grow begin with
 * size_t sz (set it to sizeof): ember_hist_opts, ember_hist_layout_opts,
 * ember_hist_filter_opts, ember_hist_feed_opts, and the sample handed to
 * ember_hist__add(); fields past a caller's sz read as zero. The structs
 * the library hands out (entries, callchain nodes, stats) are read-only,
 * never allocated or copied by the caller: fields may be appended to
 * them. ember_hist_frame, ember_callchain_param and ember_hist_layout
 * are fixed in size for this version (a new sort key changes none of
 * them: the layout holds EMBER_HIST_MAX_COLS keys and a 64-bit key mask).
 *
 * A histogram or a feed is not thread-safe: use one per thread.
 */
#ifndef EMBER_HIST_H
#define EMBER_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ember/common.h>
#include <ember/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ember_session;

/* ---- sort keys and columns (perf's --sort and -F) ---------------------------- */

enum ember_hist_dim {
	EMBER_HIST_DIM_OVERHEAD,
	EMBER_HIST_DIM_OVERHEAD_SYS,
	EMBER_HIST_DIM_OVERHEAD_US,
	EMBER_HIST_DIM_OVERHEAD_GUEST_SYS,
	EMBER_HIST_DIM_OVERHEAD_GUEST_US,
	EMBER_HIST_DIM_OVERHEAD_CHILDREN,
	EMBER_HIST_DIM_SAMPLE,
	EMBER_HIST_DIM_PERIOD,
	EMBER_HIST_DIM_PID,
	EMBER_HIST_DIM_COMM,
	EMBER_HIST_DIM_DSO,
	EMBER_HIST_DIM_SYM,
	EMBER_HIST_DIM_PARENT,
	EMBER_HIST_DIM_CPU,
	EMBER_HIST_DIM_SOCKET,
	EMBER_HIST_DIM_SYMBOL_SIZE,
	EMBER_HIST_DIM_DSO_SIZE,
	EMBER_HIST_DIM_IPC_NULL,	/* "IPC [IPC Coverage]" without branch data: "-" */
	EMBER_HIST_DIM_SRCLINE,		/* "file.c:42" as perf's addr2line gives it */
	EMBER_HIST_DIM_SRCFILE,		/* "file.c" */
	EMBER_HIST_DIM_TRACE,		/* a tracepoint sample's fields as text */
	EMBER_HIST_DIM_ADDR,		/* the sample's address */
	EMBER_HIST_DIM_TIME,		/* the sample's time, in 100 ms steps */
	/* perf's keys for data ember's files lack: one value for every entry */
	EMBER_HIST_DIM_WEIGHT,
	EMBER_HIST_DIM_LOCAL_WEIGHT,
	EMBER_HIST_DIM_TRANSACTION,
	EMBER_HIST_DIM_CGROUP,
	EMBER_HIST_DIM_CGROUP_ID,
	EMBER_HIST_DIM_CODE_PAGE_SIZE,
	EMBER_HIST_DIM_INS_LAT,
	EMBER_HIST_DIM_LOCAL_INS_LAT,
	EMBER_HIST_DIM_NR,
};

/* A dimension's bit in ember_hist_layout.key_mask. */
#define EMBER_HIST_KEY(dim) (1ULL << (dim))

/* The name perf accepts for a dimension ("overhead_children", "symbol"); NULL out of range. */
EMBER_API const char *ember_hist_dim__name(enum ember_hist_dim d);
/* Finds a dimension by name (perf's prefix match: "sym" is "symbol"); -1 when unknown. */
EMBER_API int ember_hist_dim__find(const char *name);
/* Why ember refuses a key perf knows (branch-stack, memory keys), or NULL. Static storage. */
EMBER_API const char *ember_hist_dim__unsupported(const char *name);
/* True for the value columns (overhead*, sample, period); false for the keys. */
EMBER_API bool ember_hist_dim__is_value(enum ember_hist_dim d);

#define EMBER_HIST_MAX_COLS 32

/* The sort keys and columns; the caller's, filled by ember_hist_layout__setup(). */
struct ember_hist_layout {
	enum ember_hist_dim sort[EMBER_HIST_MAX_COLS];	/* output order comparison */
	int nr_sort;
	enum ember_hist_dim cols[EMBER_HIST_MAX_COLS];	/* printed columns */
	int nr_cols;
	uint64_t key_mask;		/* EMBER_HIST_KEY()s entries are merged by */
	bool first_sort_is_sym;		/* --sort given and starts with "sym" */
	bool self_header;		/* "Self" instead of "Overhead" (--children) */
	bool elide[EMBER_HIST_MAX_COLS]; /* columns the caller hides (a one-value filter) */
};

struct ember_hist_layout_opts {
	size_t sz;			/* sizeof(struct ember_hist_layout_opts) */
	const char *sort_order;		/* --sort, NULL: default_sort; "+key": appended to it */
	const char *field_order;	/* -F, NULL: the overhead columns */
	bool children;			/* callchains cumulated: a Children column */
	bool show_nr_samples;		/* -n */
	bool show_total_period;		/* --show-total-period */
	const char *default_sort;	/* NULL: "comm,dso,sym" */
};

/*
 * Builds the sort list and the columns as perf's setup_sorting() does.
 * Returns 0; -EINVAL for an unknown key (copied into bad, badsz bytes;
 * ember_hist_dim__unsupported() says whether perf would know it) or for
 * an opts without sz; -E2BIG past EMBER_HIST_MAX_COLS keys; -ENOMEM.
 */
EMBER_API int ember_hist_layout__setup(struct ember_hist_layout *l,
				       const struct ember_hist_layout_opts *o, char *bad,
				       size_t badsz);

/* ---- callchain options (perf's -g/--call-graph) ------------------------------ */

enum ember_callchain_mode {
	EMBER_CALLCHAIN_NONE,
	EMBER_CALLCHAIN_GRAPH_ABS,	/* "graph" */
	EMBER_CALLCHAIN_GRAPH_REL,	/* "fractal" */
	EMBER_CALLCHAIN_FLAT,
	EMBER_CALLCHAIN_FOLDED,
};

enum ember_callchain_order { EMBER_CALLCHAIN_CALLEE, EMBER_CALLCHAIN_CALLER };
enum ember_callchain_value {
	EMBER_CALLCHAIN_PERCENT,
	EMBER_CALLCHAIN_PERIOD,
	EMBER_CALLCHAIN_COUNT,
};
enum ember_callchain_key { EMBER_CALLCHAIN_FUNCTION, EMBER_CALLCHAIN_ADDRESS };

struct ember_callchain_param {
	enum ember_callchain_mode mode;
	enum ember_callchain_order order;
	enum ember_callchain_value value;
	enum ember_callchain_key key;
	double min_percent;		/* branches under it are not shown (perf: 0.5) */
	unsigned int print_limit;	/* branches shown per level; 0: no limit */
	bool order_set;			/* the order was given, not defaulted */
};

/* perf's defaults: graph, 0.5 %, callee order, keyed by function, percentages. */
EMBER_API void ember_callchain_param__init(struct ember_callchain_param *p);
/*
 * Parses perf's -g argument onto p: a comma-separated mix of mode (graph,
 * fractal, flat, folded, none), threshold (a number), print limit (a
 * second number), order (caller, callee), key (function, address), value
 * (percent, period, count); the record modes ("fp", "dwarf", "lbr") and
 * "branch" are accepted and ignored. Returns 0, -EINVAL or -ENOMEM.
 */
EMBER_API int ember_callchain_param__parse(struct ember_callchain_param *p, const char *arg);

/* ---- what a histogram is fed ------------------------------------------------- */

/* One resolved address: a sample's ip or a callchain entry. Fixed size (see ABI above). */
struct ember_hist_frame {
	const void *dso;	/* identity of the dso (a session's: its ember_dso); NULL: no map */
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
	/* sym_name is a function inlined at the address, "NAME (inlined)" as perf names it */
	uint8_t inlined;
	/* an unwound frame's inline level: its own source line (addr2line -i's), else NULL */
	const char *srcline;
};

/* The frame of a location a session resolved; it points into the session's machine. */
EMBER_API void ember_hist_frame__from_al(struct ember_hist_frame *f,
					 const struct ember_addr_location *al);

/* Why a sample is filtered (ember_hist_sample.filtered): counted in the totals, not shown. */
#define EMBER_HIST_FILTER_COMM   (1 << 0)
#define EMBER_HIST_FILTER_DSO    (1 << 1)
#define EMBER_HIST_FILTER_SYMBOL (1 << 2)
#define EMBER_HIST_FILTER_THREAD (1 << 3)
#define EMBER_HIST_FILTER_PARENT (1 << 4)

/*
 * What a sample contributes. The structs are only read during
 * ember_hist__add(); the strings and identities they point to are kept
 * by the entries and must live as long as the histogram.
 */
struct ember_hist_sample {
	size_t sz;				/* sizeof(struct ember_hist_sample) */
	const struct ember_hist_frame *self;	/* the sample's ip */
	const struct ember_hist_frame *const *chain; /* callchain, leaf first (as recorded) */
	uint32_t nr_chain;
	uint64_t period;
	uint64_t nr_samples;			/* samples this stands for (1, or more merged) */
	int32_t pid, tid, cpu;
	const char *comm;
	const void *thread;			/* identity (a session's: its ember_thread) */
	uint8_t filtered;			/* EMBER_HIST_FILTER_* bits */
	const char *trace;			/* tracepoint text, one per text; NULL: none */
	uint64_t time;				/* quantised; read only when sorted by time */
};

/* ---- the histogram ------------------------------------------------------------ */

struct ember_hist;

struct ember_hist_opts {
	size_t sz;				/* sizeof(struct ember_hist_opts) */
	const struct ember_hist_layout *layout;	/* required; copied */
	struct ember_callchain_param chain;
	bool use_callchain;			/* build callchain trees */
	bool children;				/* cumulate callchains (perf --children) */
	const char *parent_pattern;		/* regex of the parent key, NULL: perf's */
	bool exclude_other;			/* -x: only entries with a parent */
	/*
	 * perf's srcline (file false) or srcfile (file true) of frame f seen
	 * at ip (perf's he->ip: the dso-relative address for the sample's
	 * own entry, the raw ip for a callchain's); the string must live as
	 * long as the histogram. Called only when those keys are sorted by;
	 * NULL: "".
	 */
	const char *(*srcline)(void *ctx, const struct ember_hist_frame *f, uint64_t ip, bool file);
	/*
	 * perf's srcline of a callchain frame, shown after its name when the
	 * chains are keyed by address (EMBER_CALLCHAIN_ADDRESS); NULL: none.
	 */
	const char *(*chain_srcline)(void *ctx, const struct ember_hist_frame *f);
	void *srcline_ctx;
};

/*
 * An empty histogram. NULL with errno: EINVAL (no sz or layout, a parent
 * pattern that does not compile), ENOMEM. Free with ember_hist__delete().
 */
EMBER_API struct ember_hist *ember_hist__new(const struct ember_hist_opts *opts);
/* Frees h, its entries and callchains; NULL is fine. */
EMBER_API void ember_hist__delete(struct ember_hist *h);
/* Adds a sample (before ember_hist__resort()). 0, -EINVAL (no sz) or -ENOMEM. */
EMBER_API int ember_hist__add(struct ember_hist *h, const struct ember_hist_sample *s);
/*
 * Sorts the entries into perf's output order, the entries that are not
 * filtered first. Call it once all samples are added. 0 or -ENOMEM.
 */
EMBER_API int ember_hist__resort(struct ember_hist *h);

/*
 * perf top's decay between two refreshes: every entry's period and
 * count (and its children's, and its callchain's) times 7/8, as perf's
 * hists__decay_entries(); entries at 0 are removed, and so are the
 * user-space entries (level '.') with zap_user and the others with
 * zap_kernel. Samples added after it are not decayed until the next
 * call. The entries are not shown until the next ember_hist__resort().
 * 0 or -ENOMEM (nothing changed).
 */
EMBER_API int ember_hist__decay(struct ember_hist *h, bool zap_user, bool zap_kernel);
/* Removes every entry (perf top -z between refreshes); resort before walking them again. */
EMBER_API void ember_hist__clear(struct ember_hist *h);

/* The histogram's options, as copied (layout points at its own copy; parent_pattern NULL). */
EMBER_API const struct ember_hist_opts *ember_hist__opts(const struct ember_hist *h);

/* Totals as perf's hists->stats counts them (total_* are set by ember_hist__resort()). */
struct ember_hist_stats {
	uint64_t nr_samples, nr_non_filtered_samples;
	uint64_t total_period, total_non_filtered_period;
	uint64_t callchain_period, callchain_non_filtered_period;
	uint64_t nr_entries;
};
/* Owned by h. */
EMBER_API const struct ember_hist_stats *ember_hist__stats(const struct ember_hist *h);

/* ---- entries ------------------------------------------------------------------ */

struct ember_hist_stat {
	uint64_t period;
	uint64_t nr_events;
	uint64_t period_sys, period_us, period_guest_sys, period_guest_us;
};

/* The lazy keys perf had computed before printing (it sizes their columns by those). */
#define EMBER_HIST_SEEN_SRCLINE  (1 << 0)
#define EMBER_HIST_SEEN_SRCFILE  (1 << 1)
#define EMBER_HIST_SEEN_TRACE    (1 << 2)

/*
 * An entry. The keys not sorted by hold the values of the sample that made
 * it. Read-only; owned by the histogram (see ABI above).
 */
struct ember_hist_entry {
	const char *comm;
	int32_t tid;
	int32_t cpu;
	const void *dso;		/* identity, NULL: no map */
	const char *dso_name;
	const char *dso_long_name;
	const void *sym;		/* identity, NULL: unresolved */
	const char *sym_name;
	uint64_t sym_start, sym_end;
	uint64_t map_size;
	uint64_t ip;
	char level;
	uint8_t sym_type;		/* STT_OBJECT: perf shows the offset into it */
	uint8_t src_seen;		/* EMBER_HIST_SEEN_* */
	uint8_t filtered;		/* EMBER_HIST_FILTER_*: counted, not shown */
	uint8_t inlined;		/* an inlined function's ("NAME (inlined)") */
	const char *parent;		/* parent symbol name, NULL: [other] */
	const char *srcline;		/* set only when sorted by srcline */
	const char *srcfile;		/* set only when sorted by srcfile */
	const char *trace;		/* NULL: not a tracepoint (perf's "N/A") */
	uint64_t addr_key;		/* the address perf's addr key shows */
	uint64_t time;
	const void *thread;
	struct ember_hist_stat self, acc; /* acc: with the children's (--children) */
};

/* Entries in output order after ember_hist__resort(), the filtered ones last; owned by h. */
EMBER_API size_t ember_hist__nr_entries(const struct ember_hist *h);
EMBER_API const struct ember_hist_entry *ember_hist__entry(const struct ember_hist *h, size_t i);

/* The period e is shown and sorted by: its children's with --children, else its own. */
EMBER_API uint64_t ember_hist__entry_period(const struct ember_hist *h,
					    const struct ember_hist_entry *e);
/*
 * The period percentages are of: every entry's (or, filter_relative, the
 * entries the filters leave: perf --percentage relative).
 */
EMBER_API uint64_t ember_hist__total_period(const struct ember_hist *h, bool filter_relative);
/*
 * Whether perf shows e: not filtered, and its period at least min_percent
 * (perf --percent-limit) of the total.
 */
EMBER_API bool ember_hist__shows(const struct ember_hist *h, const struct ember_hist_entry *e,
				 bool filter_relative, double min_percent);
/*
 * Callchain branches with less period are not shown: the -g threshold of
 * the callchain total. 0 for fractal graphs, whose threshold is taken
 * of each parent's children.
 */
EMBER_API uint64_t ember_hist__callchain_min_hit(const struct ember_hist *h, bool filter_relative);

/* ---- callchain trees ------------------------------------------------------------ */

/*
 * A node of an entry's callchain tree, in display order (callers first
 * with EMBER_CALLCHAIN_CALLER). Nodes are merged as perf merges them, by
 * function (or by address); perf's runs of nodes are not kept: a node
 * with no hits of its own and one child continues its parent's run.
 * Read-only; owned by the histogram (see ABI above).
 */
struct ember_callchain_node {
	const char *name;		/* symbol name, NULL: show the ip */
	const char *srcline;		/* shown after the name (address key), or NULL */
	uint64_t ip;
	uint64_t hit, children_hit;	/* period ending here, passing through */
	uint64_t count, children_count;	/* samples likewise */
	uint32_t nr_children;
	/* name is "NAME (inlined)": perf prints the srcline before " (inlined)" */
	uint8_t inlined;
};

/* e's callchain tree: its root (no frame of its own), or NULL when it has none. */
EMBER_API const struct ember_callchain_node *
ember_hist_entry__callchain(const struct ember_hist_entry *e);
/* n's parent; NULL for the root. */
EMBER_API const struct ember_callchain_node *
ember_callchain_node__parent(const struct ember_callchain_node *n);
/* n's children in the order of perf's tree (its ties): the first, then each one's next. */
EMBER_API const struct ember_callchain_node *
ember_callchain_node__first_child(const struct ember_callchain_node *n);
EMBER_API const struct ember_callchain_node *
ember_callchain_node__next(const struct ember_callchain_node *n);

static inline uint64_t ember_callchain_node__cumul_hits(const struct ember_callchain_node *n)
{
	return n->hit + n->children_hit;
}

/* ---- a session's samples into histograms (perf report) ------------------------ */

/*
 * perf report's filters: samples of other comms, pids, tids, dsos or
 * symbols are counted but not shown (EMBER_HIST_FILTER_*); samples of
 * other cpus are dropped. Lists are comma-separated; NULL: no filter.
 */
struct ember_hist_filter_opts {
	size_t sz;			/* sizeof(struct ember_hist_filter_opts) */
	const char *comms, *pids, *tids, *dsos, *syms;
	const char *cpus;		/* "0-3,7" */
};

struct ember_hist_filters;

/*
 * Parses the lists. NULL with errno: EINVAL (what is wrong in why, whysz
 * bytes: "pid 'x'", "cpu list '0,99999'"; nothing for an opts without
 * sz), ENOMEM. Free with ember_hist_filters__delete().
 */
EMBER_API struct ember_hist_filters *ember_hist_filters__new(const struct ember_hist_filter_opts *o,
							     char *why, size_t whysz);
EMBER_API void ember_hist_filters__delete(struct ember_hist_filters *f);
/* Whether the cpu list keeps samples of cpu (true without a cpu list). */
EMBER_API bool ember_hist_filters__has_cpu(const struct ember_hist_filters *f, uint32_t cpu);

struct ember_hist_feed_opts {
	size_t sz;				/* sizeof(struct ember_hist_feed_opts) */
	const struct ember_hist_opts *hist;	/* each event's histogram's; required, copied */
	const struct ember_hist_filters *filters; /* NULL: none; must outlive the feed */
	bool callchains;			/* use the samples' callchains */
	bool hide_unresolved;			/* perf -U: samples without a symbol dropped */
	/* perf --max-stack: callchain entries kept, in the order perf walks them */
	bool limit_stack;
	unsigned int max_stack;
	/*
	 * What will be shown (perf --percentage relative, --percent-limit):
	 * only the entries shown get their callchain built.
	 */
	bool filter_relative;
	double min_percent;
};

struct ember_hist_feed;

/*
 * A feed of the session's samples into one histogram per event, with
 * opts->hist for each (its srcline hooks are the feed's own). The session
 * must outlive the feed and not have been processed yet; opened with
 * lazy_sample_ip, it leaves the samples' addresses to the feed's cache of
 * resolved addresses (faster). NULL with errno: EINVAL (no sz, no hist
 * options), ENOMEM. Free with ember_hist_feed__delete().
 */
EMBER_API struct ember_hist_feed *ember_hist_feed__new(struct ember_session *s,
						       const struct ember_hist_feed_opts *opts);
/* Frees the feed and its histograms; NULL is fine. */
EMBER_API void ember_hist_feed__delete(struct ember_hist_feed *f);
/*
 * Reads the whole session (ember_session__process()) into the
 * histograms, then sorts them (ember_hist__resort()). 0, or a negative
 * errno from the session or -ENOMEM.
 */
EMBER_API int ember_hist_feed__process(struct ember_hist_feed *f);
/* Events the histograms are indexed by (attr indices); f's histograms are owned by f. */
EMBER_API uint32_t ember_hist_feed__nr_hists(const struct ember_hist_feed *f);
/* The histogram of event idx (attr index), NULL when it had no sample. */
EMBER_API struct ember_hist *ember_hist_feed__hist(const struct ember_hist_feed *f, uint32_t idx);

#ifdef __cplusplus
}
#endif

#endif
