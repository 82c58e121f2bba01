/* SPDX-License-Identifier: GPL-2.0-only */
/* ember flamegraph: the command's options and its input stage. */
#ifndef EMBER_FLAMEGRAPH_H
#define EMBER_FLAMEGRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <ember/flame.h>

#include "core/atomic-file.h"
#include "util/perf-time.h"

struct ember_cpu_map;

/* Which samples of a perf.data file count (perf script's selection options). */
struct fg_select {
	pid_t *pids, *tids;
	int nr_pids, nr_tids;
	char **comms;
	int nr_comms;
	struct ember_cpu_map *cpus;
	/* --time: absolute ranges now; a percent form waits for each file's sample times. */
	struct time_range *ranges;
	size_t nr_ranges;
	const char *time_percent;
};

struct fg_opts {
	const char *input;
	const char *output;
	bool folded;
	bool force;
	bool quiet;
	bool diff;
	bool normalize;
	bool negate;
	bool flamechart;
	bool reverse;
	bool kernel_only, user_only;
	bool show_pid, show_tid, addrs, count_samples, inline_frames;
	const char *annotate;
	const char *event;
	unsigned int max_stack;
	const char *symfs, *kallsyms;
	struct fg_select select;
	/* SVG */
	const char *title, *subtitle, *countname, *nametype, *fonttype, *colors, *cp, *notes;
	const char *minwidth, *bgcolors, *nameattr, *encoding;
	unsigned int width, height;
	double fontsize, fontwidth, total, factor;
	bool inverted, hash, random_colors;
};

/* One input read into the tree; what the command reports about it. */
struct fg_input_stats {
	bool perf_data;
	uint64_t samples;	/* samples (perf.data) or stacks (folded) taken */
	uint64_t skipped;	/* samples left out by the selection */
	uint64_t left_out;	/* and by the folding: other events, --kernel-only, --user-only */
	uint64_t other_event;
	const char *event;	/* the event drawn (perf.data); owned by the input stage */
	char *event_buf;
	bool no_callchain;
	uint64_t no_debuginfo;	/* --inline: dsos whose DWARF could not be read */
	uint64_t ignored;	/* folded lines ignored */
	uint64_t first_ignored;
	uint64_t binary;
};

/*
 * Reads path ("-": stdin; a perf.data file or folded text, told apart by
 * the "PERFILE2" magic) into fl on `side`. Prints its own one-line error
 * and returns -1 on failure; 0 otherwise.
 */
int fg_read_input(struct ember_flame *fl, const char *path, enum ember_flame_side side,
		  const struct fg_opts *opts, struct fg_input_stats *st);

/*
 * The whole command after its options: read inputs[0..nr_inputs) (two
 * with --diff), draw, write o->output (default flame.svg). 0, or 1 after
 * saying why not; ember watch draws its incidents with it.
 */
int fg_run(struct fg_opts *o, const char **inputs, int nr_inputs);

/*
 * drawing.c: the SVG options from o's drawing options. 0, or the exit
 * status (2 usage, 1 an unreadable --nameattr file) after saying why;
 * fg_svg_opts__exit() frees what was made either way.
 */
int fg_svg_opts__init(struct ember_flame_svg_opts *so, const struct fg_opts *o);
void fg_svg_opts__exit(struct ember_flame_svg_opts *so);

/* output.c: stdout for "-", else a file written aside and renamed into place. */
struct fg_output {
	const char *path;
	FILE *fp;
	struct atomic_file file;
};

/* Opens path; -1 after saying why not. */
int fg_output__open(struct fg_output *out, const char *path);
/* Closes out: puts the file in place when ok, else drops it. -1 after saying why not. */
int fg_output__close(struct fg_output *out, bool ok);

/* select.c: parse the selection options; -1 after printing a usage error. */
int fg_select__parse_list(const char *arg, const char *what, pid_t **v, int *nr);
int fg_select__parse_comms(const char *arg, char ***v, int *nr);
int fg_select__parse_time(const char *arg, struct fg_select *sel);
void fg_select__exit(struct fg_select *sel);
struct ember_session_sample;
bool fg_select__match(const struct fg_select *sel, const struct ember_session_sample *ss);

#endif
