/* SPDX-License-Identifier: GPL-2.0-only */
/* ember profile: its options, and where its flame graph tree goes. */
#ifndef EMBER_SRC_PROFILE_H
#define EMBER_SRC_PROFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include <ember/flame.h>
#include <ember/profile.h>

#define PROFILE_MAX_OUTPUTS 4

struct profile_opts {
	unsigned int freq;		/* -F; 0: PROFILE_DEFAULT_FREQ */
	bool all_cpus;			/* -a */
	const char *pids;		/* -p */
	const char *cpus;		/* -C */
	double duration;		/* -d seconds; 0: until ^C or the command's end */
	double interval;		/* --interval seconds; 0: one read at the end */
	const char *stacks;		/* -g user|kernel|both */
	const char *event;		/* -e */
	const char *outputs[PROFILE_MAX_OUTPUTS]; /* -o, repeatable */
	int nr_outputs;
	unsigned int max_entries;	/* --max-entries: distinct keys kept; 0: the library's */
	unsigned int max_stacks;	/* --max-stacks: stack map slots; 0: the library's */
	bool quiet;
	int argc;			/* the command after the options */
	const char **argv;
};

/* perf record -F 99's rate, the habit of profilers: out of step with 100 Hz timers. */
#define PROFILE_DEFAULT_FREQ 99

/* What an output file's name asks for. */
enum profile_format {
	PROFILE_FOLDED,		/* stdout, *.folded, anything else */
	PROFILE_SVG,		/* *.svg */
	PROFILE_TEXT,		/* *.txt: the hottest stacks, perf report-like */
};

enum profile_format profile_output__format(const char *path);
/*
 * Writes fl to path ("-": stdout) in the format its name asks for; an
 * interval's read after the first (seq > 0) goes to PATH.N. 0, or 1 after
 * saying why not.
 */
int profile_output__write(struct ember_flame *fl, const char *path, unsigned int seq);

#endif
