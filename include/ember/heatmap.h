/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Heat maps, as Brendan Gregg's trace2heatmap.pl and Netflix's FlameScope
 * draw them:
 *
 *   points (time, latency) ──> ember_heatmap (columns of time, rows of
 *   from text or event pairs     latency, a count per cell) ──> SVG
 *
 *   samples (time, stack) ──> ember_heatmap_density (columns = seconds,
 *                             rows = offsets within the second, the
 *                             stacks of each cell) ──> HTML with an
 *                             in-page flame graph of any range of cells
 *
 * Writers take the caller's FILE: they never print anywhere else.
 */
#ifndef EMBER_HEATMAP_H
#define EMBER_HEATMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- points: (time, latency) pairs --------------------------------------- */

struct ember_heatmap_points;

/* An empty set; NULL with errno ENOMEM. Free with ember_heatmap_points__delete(). */
EMBER_API struct ember_heatmap_points *ember_heatmap_points__new(void);
EMBER_API void ember_heatmap_points__delete(struct ember_heatmap_points *p);
/* Appends one point. 0, -EINVAL (a value that is not finite), -ENOMEM. */
EMBER_API int ember_heatmap_points__add(struct ember_heatmap_points *p, double time, double lat);
EMBER_API size_t ember_heatmap_points__nr(const struct ember_heatmap_points *p);
/* The i-th point, in the order added. 0 or -ERANGE. */
EMBER_API int ember_heatmap_points__get(const struct ember_heatmap_points *p, size_t i,
					double *time, double *lat);

/* What the text reader saw. Zero it before the first call. */
struct ember_heatmap_text_stats {
	uint64_t lines;		/* lines read (a last line without newline counts) */
	uint64_t points;	/* lines that gave a point */
	uint64_t header;	/* 1 when the first line was a header (has letters) */
	uint64_t skipped;	/* other lines that are not two finite numbers */
	uint64_t first_skipped;	/* line number of the first of those, 1-based */
};

/*
 * Reads trace2heatmap.pl's input: one event a line, a time and a latency
 * separated by blanks (more columns are ignored). A first line with
 * letters that does not parse is a header and is dropped, as the script
 * does; any other line that is not two finite numbers (garbage, binary
 * noise, NUL bytes, numbers beyond double) is skipped and counted. Any
 * bytes are safe. parse_text reads a buffer (a line may end at len
 * without a newline); read_text reads fp to its end. Both add to p and
 * st across calls. 0, -ENOMEM, or -errno of a read error.
 */
EMBER_API int ember_heatmap_points__parse_text(struct ember_heatmap_points *p, const char *buf,
					       size_t len, struct ember_heatmap_text_stats *st);
EMBER_API int ember_heatmap_points__read_text(struct ember_heatmap_points *p, FILE *fp,
					      struct ember_heatmap_text_stats *st);

/* ---- the latency heat map ------------------------------------------------ */

struct ember_heatmap_opts {
	size_t sz;		/* sizeof(struct ember_heatmap_opts) */
	double time_factor;	/* time units per second: 1 (s), 1e3, 1e6, 1e9; 0: 1 */
	double step_sec;	/* seconds per column; 0: 1 */
	double min_lat;		/* lower latencies are left out */
	double max_lat;		/* higher ones too; unset: the largest latency */
	bool has_max_lat;
	double step_lat;	/* latency per row; 0: (max - min) / rows */
	unsigned int rows;	/* 0: 50 */
	int64_t max_col;	/* columns after this one are left out; < 0: none */
	unsigned int limit_col;	/* more columns than this is an error; 0: 10000 */
};

struct ember_heatmap;

/*
 * Bins the points as trace2heatmap.pl does: column (time - first time) /
 * time_factor / step_sec, row (lat - min_lat) / step_lat, with the row
 * step rounded down to an integer when it is at least 1 (as the script's
 * integer step), kept fractional below 1 (where the script gives up).
 * Unlike the script, the last column and a latency of exactly max_lat are
 * drawn (every point in range lands in a cell), and times before the
 * first line's are not lost (columns start at the earliest time).
 * Returns 0 and *out (free with ember_heatmap__delete()), -ENODATA (no
 * points), -ERANGE (no point within [min_lat, max_lat]), -E2BIG (more
 * than limit_col columns), -EINVAL (bad opts), -ENOMEM.
 */
EMBER_API int ember_heatmap__new(const struct ember_heatmap_points *p,
				 const struct ember_heatmap_opts *opts, struct ember_heatmap **out);
EMBER_API void ember_heatmap__delete(struct ember_heatmap *hm);

EMBER_API unsigned int ember_heatmap__cols(const struct ember_heatmap *hm);
EMBER_API unsigned int ember_heatmap__rows(const struct ember_heatmap *hm);
/* Count of cell (col, row); row 0 holds the lowest latencies. 0 outside. */
EMBER_API uint64_t ember_heatmap__count(const struct ember_heatmap *hm, unsigned int col,
					unsigned int row);
/* Points in cells (in range) and points left out (latency or column out of range). */
EMBER_API uint64_t ember_heatmap__total(const struct ember_heatmap *hm);
EMBER_API uint64_t ember_heatmap__nr_out(const struct ember_heatmap *hm);
EMBER_API uint64_t ember_heatmap__max_count(const struct ember_heatmap *hm);
EMBER_API double ember_heatmap__min_lat(const struct ember_heatmap *hm);
EMBER_API double ember_heatmap__max_lat(const struct ember_heatmap *hm);
EMBER_API double ember_heatmap__step_lat(const struct ember_heatmap *hm);
/* The time of column 0's start, in the input's units. */
EMBER_API double ember_heatmap__start_time(const struct ember_heatmap *hm);

struct ember_heatmap_svg_opts {
	size_t sz;		/* sizeof(struct ember_heatmap_svg_opts) */
	const char *title;	/* NULL: "Latency Heat Map" */
	const char *units_lat;	/* appended to latency labels; NULL: "" */
	const char *font_type;	/* NULL: "Verdana" */
	unsigned int font_size;	/* 0: 12 */
	unsigned int box_size;	/* cell width and height in pixels; 0: 8 */
	double step_sec;	/* seconds per column, for the labels; 0: 1 */
	bool grid;		/* grid lines, time and latency labels */
};

/*
 * Writes one self-contained SVG: a cell per non-empty (column, row),
 * coloured white to red by count, with trace2heatmap.pl's tooltip ("time
 * Ts, range A-Bus, count: N, pct: P%, acc: A, acc pct: Q%", acc counting
 * up from the lowest row of the column) as a <title> and, on hover, in
 * the details line. 0, -EINVAL, -EIO (write error).
 */
EMBER_API int ember_heatmap__write_svg(const struct ember_heatmap *hm,
				       const struct ember_heatmap_svg_opts *opts, FILE *fp);

/* ---- start/end pairs ----------------------------------------------------- */

/*
 * Matches start and end events by a key of nr_keys numbers, the way the
 * awk script of perf's block I/O heat map does: a start remembers its
 * time under its key (a later start with the same key replaces it); an
 * end with a remembered start makes a pair and forgets the key.
 */
struct ember_heatmap_pairs;

/* nr_keys 1 to 8. NULL with errno EINVAL or ENOMEM. */
EMBER_API struct ember_heatmap_pairs *ember_heatmap_pairs__new(unsigned int nr_keys);
EMBER_API void ember_heatmap_pairs__delete(struct ember_heatmap_pairs *pp);
/* 0 or -ENOMEM. */
EMBER_API int ember_heatmap_pairs__start(struct ember_heatmap_pairs *pp, const uint64_t *key,
					 uint64_t time);
/* 1 and *start_time when a start was pending under key (now forgotten), else 0. */
EMBER_API int ember_heatmap_pairs__end(struct ember_heatmap_pairs *pp, const uint64_t *key,
				       uint64_t *start_time);
/* Starts still waiting for their end. */
EMBER_API size_t ember_heatmap_pairs__pending(const struct ember_heatmap_pairs *pp);

/* ---- the sample-density heat map (FlameScope) ---------------------------- */

struct ember_heatmap_density;

/* rows: cells per second (0: 50). NULL with errno EINVAL, ENOMEM. */
EMBER_API struct ember_heatmap_density *ember_heatmap_density__new(unsigned int rows);
EMBER_API void ember_heatmap_density__delete(struct ember_heatmap_density *d);
/*
 * One sample at time (ns) with its stack, frames[0] the root (the
 * process name, say) and frames[nr - 1] the leaf; nr may be 0. Frame
 * names are copied. 0, -EINVAL, -ENOMEM.
 */
EMBER_API int ember_heatmap_density__add(struct ember_heatmap_density *d, uint64_t time,
					 const char *const *frames, size_t nr);
EMBER_API uint64_t ember_heatmap_density__nr_samples(const struct ember_heatmap_density *d);

struct ember_heatmap_html_opts {
	size_t sz;		/* sizeof(struct ember_heatmap_html_opts) */
	const char *title;	/* NULL: "Sample Heat Map" */
	const char *subtitle;	/* a line under the title (the file, say); NULL: none */
};

/*
 * Writes one self-contained HTML page: the heat map (a column per second
 * from the first sample's whole second, a row per 1/rows s, offset 0 at
 * the bottom), and under it the flame graph of exactly the samples of the
 * cells selected (drag or click two cells: every cell between them in
 * time order), drawn in the page. The samples are embedded as JSON in
 * <script type="application/json" id="ember-data">: "nodes" is a stack
 * trie ([parent, frame] pairs, parent -1 for roots, parents before
 * children), "frames" the names, "cells" [col, row, node, count, ...]
 * rows. 0, -ENODATA (no sample), -E2BIG (the samples span more than
 * 20 million cells: days at 50 rows), -EIO, -ENOMEM.
 */
EMBER_API int ember_heatmap_density__write_html(const struct ember_heatmap_density *d,
						const struct ember_heatmap_html_opts *opts,
						FILE *fp);

#ifdef __cplusplus
}
#endif

#endif
