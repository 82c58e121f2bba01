/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Flame graphs: stacks merged into a tree, drawn as one self-contained
 * interactive SVG, or written back as folded stacks.
 *
 *   folded text ("comm;f1;f2 count")  ─┐
 *   perf.data samples (a session) ─────┼─> ember_flame (merged tree) ─┬─> SVG (flamegraph.pl's look)
 *   two of either (--diff) ────────────┘                              └─> folded stacks
 *
 * The folded format and the SVG's behaviour are those of Brendan Gregg's
 * FlameGraph tools (stackcollapse-perf.pl, flamegraph.pl, difffolded.pl):
 * same input lines, same names for perf samples, same palettes.
 *
 * Frames are identified by name and kind (user, kernel, JIT, inlined): a
 * kernel "foo" and a user "foo" are different frames. In folded text the
 * kind is the stackcollapse annotation suffix ("_[k]", "_[j]", "_[i]").
 *
 * An ember_flame is not thread-safe: use one per thread.
 */
#ifndef EMBER_FLAME_H
#define EMBER_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ember_flame;
struct ember_session;
struct ember_session_sample;

/* What a frame is; decides its colour in the hot, java, js and perl palettes. */
enum ember_flame_kind {
	EMBER_FLAME_USER,
	EMBER_FLAME_KERNEL,	/* "_[k]" */
	EMBER_FLAME_JIT,	/* "_[j]" */
	EMBER_FLAME_INLINE,	/* "_[i]" */
	EMBER_FLAME_WAKER,	/* "_[w]" */
	EMBER_FLAME_NR_KINDS,
};

/*
 * The largest count (and total) a flame graph holds: 2^53, where doubles
 * stop counting one by one. Larger input is refused with -ERANGE.
 */
#define EMBER_FLAME_MAX_COUNT 9007199254740992.0

struct ember_flame_opts {
	size_t sz;		/* sizeof(struct ember_flame_opts) */
	/*
	 * A flame chart: stacks stay in the order they are added (time) and
	 * merge only with the stack added just before, as flamegraph.pl
	 * --flamechart; otherwise identical paths merge wherever they occur.
	 */
	bool flamechart;
	/* Add stacks leaf first (flamegraph.pl --reverse): merge from the leaves. */
	bool reverse;
};

/* An empty tree. NULL with errno (ENOMEM, EINVAL). Free with ember_flame__delete(). */
EMBER_API struct ember_flame *ember_flame__new(const struct ember_flame_opts *opts);
EMBER_API void ember_flame__delete(struct ember_flame *fl);

/*
 * The frame id of (name, kind): the same name and kind always give the
 * same id. name need not be NUL-terminated. Returns an id >= 0, or
 * -ENOMEM, -E2BIG (more than 2^31 frames).
 */
EMBER_API int ember_flame__frame(struct ember_flame *fl, const char *name, size_t len,
				 enum ember_flame_kind kind);
/* The name and kind of a frame id (names are owned by the tree). */
EMBER_API const char *ember_flame__frame_name(const struct ember_flame *fl, uint32_t id);
EMBER_API enum ember_flame_kind ember_flame__frame_kind(const struct ember_flame *fl, uint32_t id);

/* Which side of a differential graph a stack counts for. */
enum ember_flame_side {
	EMBER_FLAME_AFTER,	/* the graph itself (and the "after" of a diff) */
	EMBER_FLAME_BEFORE,	/* the baseline of a diff: colours and deltas only */
};

/*
 * Adds one stack of nr frame ids, root first (or leaf first with
 * opts.reverse set: the tree reverses it), weighing `value` (>= 0) and
 * standing for `samples` samples (what tooltips count). A stack of no
 * frames counts at the root only. Returns 0, -EINVAL (bad id or value),
 * -ERANGE (the total would pass EMBER_FLAME_MAX_COUNT), -ENOMEM.
 */
EMBER_API int ember_flame__add(struct ember_flame *fl, const uint32_t *frames, size_t nr,
			       double value, uint64_t samples, enum ember_flame_side side);

/* Totals: the root's value, samples, and the BEFORE side's value. */
EMBER_API double ember_flame__total(const struct ember_flame *fl);
EMBER_API uint64_t ember_flame__samples(const struct ember_flame *fl);
EMBER_API double ember_flame__total_before(const struct ember_flame *fl);
/* Nodes in the tree, the root included. */
EMBER_API size_t ember_flame__nr_nodes(const struct ember_flame *fl);
/* True once anything was added to the BEFORE side. */
EMBER_API bool ember_flame__is_diff(const struct ember_flame *fl);
/*
 * Differential: scale the BEFORE side so its total equals the AFTER
 * total (difffolded.pl -n), each stack rounded down as difffolded.pl
 * does. Returns 0, or -EINVAL when the BEFORE total is 0.
 */
EMBER_API int ember_flame__normalize(struct ember_flame *fl);

/* ---- folded stacks --------------------------------------------------------- */

struct ember_flame_folded_opts {
	size_t sz;
	enum ember_flame_side side;
	/*
	 * Read "_[k]" "_[j]" "_[i]" "_[w]" name suffixes as frame kinds
	 * (and strip them from the names), as flamegraph.pl's palettes do.
	 */
	bool annotations;
	/* Called every 64 KiB read, with the bytes read so far; non-zero stops. */
	int (*progress)(uint64_t bytes, void *ctx);
	void *ctx;
	/*
	 * A chain graph (flamegraph.pl --colors chain): frames after a "--"
	 * frame are the wakers' stack, read as EMBER_FLAME_WAKER frames.
	 */
	bool chain;
};

struct ember_flame_folded_stats {
	uint64_t lines;		/* lines read */
	uint64_t stacks;	/* lines taken */
	uint64_t ignored;	/* lines not of the form "STACK COUNT" (as flamegraph.pl) */
	uint64_t first_ignored;	/* line number of the first one ignored (1-based), 0: none */
	uint64_t binary;	/* of them, lines holding NUL or control bytes */
	uint64_t diff_lines;	/* lines with two counts ("STACK BEFORE AFTER") */
	uint64_t error_line;	/* the line a -ERANGE refers to */
};

/*
 * Reads folded stacks as flamegraph.pl does: "f1;f2;f3 COUNT" per line,
 * the count after the last run of blanks (digits, optionally ".digits"),
 * frames split on ';' with trailing empty frames dropped; a second count
 * makes the line differential ("STACK BEFORE AFTER"). Lines that do not
 * parse are counted in stats->ignored and skipped. Lines are kept in
 * file order for a flame chart. Returns 0, -ERANGE (a count or the total
 * beyond EMBER_FLAME_MAX_COUNT; stats->error_line says where), -ENOMEM,
 * -EIO (a read error), or the progress callback's value.
 */
EMBER_API int ember_flame__read_folded(struct ember_flame *fl, FILE *fp,
				       const struct ember_flame_folded_opts *opts,
				       struct ember_flame_folded_stats *stats);

/* Also append "_[k]" ... suffixes to frames of those kinds. */
#define EMBER_FLAME_FOLDED_ANNOTATE	(1u << 0)

/*
 * Writes the tree as folded stacks, one line per distinct stack with its
 * (AFTER) value, sorted bytewise and merged as stackcollapse-perf.pl
 * prints them; a flame chart keeps its order instead. Integral values
 * print as integers. Returns 0 or -errno (-EIO on a write error).
 */
EMBER_API int ember_flame__write_folded(const struct ember_flame *fl, FILE *fp, unsigned int flags);

/* ---- palettes ---------------------------------------------------------------- */

enum ember_flame_palette {
	EMBER_FLAME_PALETTE_HOT,
	EMBER_FLAME_PALETTE_MEM,
	EMBER_FLAME_PALETTE_IO,
	EMBER_FLAME_PALETTE_WAKEUP,
	EMBER_FLAME_PALETTE_JAVA,
	EMBER_FLAME_PALETTE_JS,
	EMBER_FLAME_PALETTE_PERL,
	EMBER_FLAME_PALETTE_RED,
	EMBER_FLAME_PALETTE_GREEN,
	EMBER_FLAME_PALETTE_BLUE,
	EMBER_FLAME_PALETTE_AQUA,
	EMBER_FLAME_PALETTE_YELLOW,
	EMBER_FLAME_PALETTE_PURPLE,
	EMBER_FLAME_PALETTE_ORANGE,
	EMBER_FLAME_PALETTE_CHAIN,	/* off-CPU blue, wakers ("_[w]") aqua */
	EMBER_FLAME_NR_PALETTES,
};

/* "hot" ... "orange", "chain" → palette, or -EINVAL. */
EMBER_API int ember_flame_palette__parse(const char *name);
EMBER_API const char *ember_flame_palette__name(enum ember_flame_palette palette);

/*
 * The colour of a frame: flamegraph.pl --hash's colour for the name (the
 * same name always gets the same colour, across graphs), in the hue the
 * palette gives its kind: in hot, java, js and perl kernel frames are
 * orange, JIT green and inlined aqua, as in mixed-mode flame graphs.
 * Writes "rgb(r,g,b)" into buf (at least 20 bytes).
 */
EMBER_API void ember_flame_palette__color(enum ember_flame_palette palette, const char *name,
					  enum ember_flame_kind kind, char *buf, size_t size);

/*
 * A consistent palette (flamegraph.pl --cp): "name->rgb(r,g,b)" lines,
 * name with its kind suffix. A frame found there keeps its colour; new
 * ones are added, and the file rewritten sorted.
 */
struct ember_flame_palette_map;

/* Reads path; a missing file gives an empty map. NULL with errno (EINVAL: bad line). */
EMBER_API struct ember_flame_palette_map *ember_flame_palette_map__read(const char *path);
EMBER_API void ember_flame_palette_map__delete(struct ember_flame_palette_map *map);
EMBER_API size_t ember_flame_palette_map__nr(const struct ember_flame_palette_map *map);
/* The colour of key, or NULL. */
EMBER_API const char *ember_flame_palette_map__get(const struct ember_flame_palette_map *map,
						   const char *key);
EMBER_API int ember_flame_palette_map__set(struct ember_flame_palette_map *map, const char *key,
					   const char *color);
/* Writes the map, sorted by key, to path (through a temporary file). 0 or -errno. */
EMBER_API int ember_flame_palette_map__write(const struct ember_flame_palette_map *map,
					     const char *path);

/* ---- SVG ------------------------------------------------------------------------ */

struct ember_flame_svg_opts {
	size_t sz;
	const char *title;	/* NULL: "Flame Graph", "Icicle Graph", "Flame Chart" */
	const char *subtitle;	/* NULL or "": none */
	const char *countname;	/* NULL: "samples" */
	const char *nametype;	/* NULL: "Function:" */
	const char *fonttype;	/* NULL: "Verdana" */
	unsigned int width;	/* 0: 1200 pixels */
	unsigned int height;	/* of a frame; 0: 16 pixels */
	double fontsize;	/* 0: 12 */
	double fontwidth;	/* average glyph width / fontsize; 0: 0.59 */
	double minwidth;	/* frames narrower are left out; < 0: 0.1 pixels */
	bool minwidth_percent;	/* minwidth is a % of the total, not pixels */
	enum ember_flame_palette palette;
	bool inverted;		/* icicle: root at the top */
	bool negate;		/* differential: swap red and blue */
	double total;		/* > the tree's total: draw against this total (--total) */
	struct ember_flame_palette_map *palette_map; /* NULL: no consistent palette */
	const char *notes;	/* an XML comment in the file; NULL: none */
	/* Fields below were added later: sz tells whether a caller has them. */
	/*
	 * Background (flamegraph.pl --bgcolors): "yellow", "blue", "green",
	 * "grey" gradients or a flat "#rrggbb"; NULL: the palette's own.
	 */
	const char *bgcolors;
	/*
	 * The XML declaration's encoding (flamegraph.pl --encoding); NULL:
	 * UTF-8. With another encoding, name bytes >= 0x80 are written as
	 * they are (the file is in that encoding), not checked as UTF-8.
	 */
	const char *encoding;
	/* Counts in tooltips multiplied by this (flamegraph.pl --factor); 0: 1. */
	double factor;
	/*
	 * Random colours (flamegraph.pl's default and --random), not the
	 * name-keyed ones (--hash, ember's default).
	 */
	bool random_colors;
	/* Per-name SVG attributes (flamegraph.pl --nameattr); NULL: none. */
	const struct ember_flame_nameattr *nameattr;
};

/*
 * A background spec (see bgcolors) to its two gradient stops ("#rrggbb",
 * 8 bytes each; both the same for a flat colour). 0, or -EINVAL.
 */
EMBER_API int ember_flame_bgcolors__parse(const char *spec, char stop1[8], char stop2[8]);

/*
 * flamegraph.pl --nameattr: per frame name, attributes of its SVG group.
 * Each line of the file is a name, a tab, then tab-separated key=value
 * pairs. Keys class, style, onmouseover, onmouseout, onclick become
 * attributes of the frame's <g>, g_extra is written into it as is;
 * title replaces its tooltip; href (with target, default "_top", and
 * a_extra) wraps the frame in a link. A name matches a frame spelled
 * with its kind suffix ("foo_[k]") or without.
 */
struct ember_flame_nameattr;

/*
 * Reads path. NULL with errno: EINVAL for a line without a tab (*bad_line
 * set to its number, 1-based), or the open/read error.
 */
EMBER_API struct ember_flame_nameattr *ember_flame_nameattr__read(const char *path,
								  unsigned long *bad_line);
EMBER_API void ember_flame_nameattr__delete(struct ember_flame_nameattr *na);
/* The value of key for name, or NULL. */
EMBER_API const char *ember_flame_nameattr__get(const struct ember_flame_nameattr *na,
						const char *name, const char *key);

struct ember_flame_svg_stats {
	size_t frames;		/* frames drawn, the root included */
	size_t pruned;		/* nodes left out by minwidth */
	unsigned int depth;	/* depth of the deepest frame drawn */
};

/*
 * Draws the tree as one self-contained SVG (XML, UTF-8, the JavaScript
 * embedded): a tooltip and a details line per frame ("name (N samples,
 * P%)", plus the change for a diff), click to zoom, Reset Zoom, search
 * by regular expression (Ctrl-F, "Matched: X%", Ctrl-I or "ic" toggles
 * case), zoom and search kept in the URL (?z=FRAME&s=REGEX&i=1). Names
 * that are not valid UTF-8 or hold control characters are written with
 * U+FFFD in their place. Each frame's <g> carries data-s, data-v and
 * data-d: its start and width in counts and its depth. Returns 0,
 * -ENODATA (nothing to draw: the total is 0), -EINVAL, -ENOMEM, -EIO.
 */
EMBER_API int ember_flame__write_svg(struct ember_flame *fl, FILE *fp,
				     const struct ember_flame_svg_opts *opts,
				     struct ember_flame_svg_stats *stats);

/* ---- perf.data samples: stackcollapse-perf.pl's folding ------------------------ */

struct ember_flame_fold;

/* Which frames of a stack to keep. */
enum ember_flame_frames {
	EMBER_FLAME_FRAMES_ALL,
	EMBER_FLAME_FRAMES_KERNEL,	/* kernel frames of samples taken in the kernel */
	EMBER_FLAME_FRAMES_USER,	/* user frames of samples taken in user space */
};

struct ember_flame_fold_opts {
	size_t sz;
	bool include_pid;	/* root "comm-PID" (stackcollapse-perf.pl --pid) */
	bool include_tid;	/* root "comm-PID/TID" (--tid) */
	bool annotate_kernel;	/* "_[k]" on kernel frames in the names (--kernel) */
	bool annotate_jit;	/* "_[j]" on JIT frames (--jit) */
	bool include_addrs;	/* "[dso <addr>]" for unresolved frames (--addrs) */
	bool count_samples;	/* weigh each sample 1, not its period */
	enum ember_flame_frames frames;
	/* Entries of a callchain used, leaf first, as perf script's --max-stack; 0: 127. */
	unsigned int max_stack;
	/*
	 * Only samples of the event with this name (as perf script prints
	 * it, "cpu-clock:ppp"; "cpu-clock" matches it too). NULL: the first
	 * event that has a period line, as stackcollapse-perf.pl picks it.
	 */
	const char *event;
	/*
	 * Expand inlined functions (perf's --inline): a user frame whose
	 * address DWARF places in an inline chain becomes the chain,
	 * outermost first, named as `stackcollapse-perf.pl --inline` names
	 * them (addr2line's answers, here read with libdw); the inlined ones
	 * are EMBER_FLAME_INLINE frames. Kernel, JIT and unreadable dsos keep
	 * their frames.
	 */
	bool inline_frames;
};

/*
 * Folds perf.data samples into fl as `perf script | stackcollapse-perf.pl`
 * does: the comm as the root frame (spaces made '_'), then the callchain
 * root first, each frame the symbol's name without its offset, tidied
 * (';' made ':', the parameter list cut, quotes dropped; "L" dropped from
 * Java names of "java"), "[dso]" for an address without a symbol and
 * "[unknown]" without a map; the count is the sample's period (1 without
 * one, and for tracepoints). Frame kinds come from the sample's cpumode
 * and the dso (perf-PID.map and jitted-*.so are JIT). NULL with errno.
 */
EMBER_API struct ember_flame_fold *
ember_flame_fold__new(struct ember_flame *fl, const struct ember_flame_fold_opts *opts);
EMBER_API void ember_flame_fold__delete(struct ember_flame_fold *c);
/*
 * Adds one sample on `side`. Returns 1 when it was added, 0 when it was
 * left out (another event, or no frame of the kept kind), or -errno.
 */
EMBER_API int ember_flame_fold__sample(struct ember_flame_fold *c, struct ember_session *s,
					   const struct ember_session_sample *ss,
					   enum ember_flame_side side);
/* The event the samples were taken from (the chosen one), or NULL before any. */
EMBER_API const char *ember_flame_fold__event(const struct ember_flame_fold *c);
/* Samples left out because they were of another event. */
EMBER_API uint64_t ember_flame_fold__nr_other_event(const struct ember_flame_fold *c);
/* With inline_frames: dsos that could not be read for DWARF (their frames stay as they are). */
EMBER_API uint64_t ember_flame_fold__nr_no_debuginfo(const struct ember_flame_fold *c);

#ifdef __cplusplus
}
#endif

#endif
