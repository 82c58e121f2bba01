/* SPDX-License-Identifier: GPL-2.0-only */
/* ember heatmap: the command's options and its three inputs. */
#ifndef EMBER_SRC_HEATMAP_H
#define EMBER_SRC_HEATMAP_H

#include <stdbool.h>
#include <stdio.h>
#include <ember/heatmap.h>

struct heatmap_cmd {
	const char *input;		/* -i or the argument; NULL: stdin pipe or perf.data */
	const char *output;		/* -o; NULL: stdout */
	/* trace2heatmap.pl's options */
	const char *title;
	const char *units_time;		/* s, ms, us, ns */
	const char *units_lat;
	const char *font_type;
	unsigned int font_size, box_size, rows;
	int max_col;			/* -1: none */
	bool grid;
	double min_lat, max_lat, step_lat, step_sec;
	bool has_max_lat;
	/* perf.data */
	bool force;
	const char *start_ev, *end_ev, *keys;
	bool pairs;			/* write the pairs as text instead of SVG */
	bool samples;			/* the sample-density (FlameScope) view */
	const char *event;		/* --samples: only this event's samples */
	bool no_idle;			/* --samples: leave out idle stacks */
	int verbose;
};

/* What the perf.data latency mode produced, for the summary line. */
struct heatmap_pair_stats {
	unsigned long long starts, ends, pairs, unmatched_ends, pending;
};

/* Latency heat map options from the command's options. */
void heatmap_cmd__opts(const struct heatmap_cmd *cmd, struct ember_heatmap_opts *o,
		       struct ember_heatmap_svg_opts *svg);
/* Bins points and writes the SVG to fp; prints its own errors. 0 or 1 (exit code). */
int heatmap_cmd__draw(const struct heatmap_cmd *cmd, const struct ember_heatmap_points *p,
		      const char *what, FILE *fp);

/* Each mode: prints its errors, returns the exit code. */
int heatmap_text(const struct heatmap_cmd *cmd, FILE *in, const char *name, FILE *out);
int heatmap_latency(struct heatmap_cmd *cmd, const char *path, FILE *out);
int heatmap_samples(const struct heatmap_cmd *cmd, const char *path, FILE *out);

#endif
