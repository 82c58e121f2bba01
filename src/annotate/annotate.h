/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ember annotate's printing: perf annotate --stdio's text for one symbol
 * from libember's annotation model (include/ember/annotate.h):
 *
 *   ember_annotation ──source.c──> the lines objdump -l -S would print
 *        (headers, file:line markers, source text, instructions)
 *   lines + histogram ──print.c──> perf's header, percent column and
 *        line numbers
 */
#ifndef EMBER_ANNOTATE_PRINT_H
#define EMBER_ANNOTATE_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <ember/annotate.h>

enum annotate_percent_type {
	ANNOTATE_LOCAL_PERIOD,
	ANNOTATE_GLOBAL_PERIOD,
	ANNOTATE_LOCAL_HITS,
	ANNOTATE_GLOBAL_HITS,
};

struct annotate_print_opts {
	bool show_nr_samples;		/* -n: samples instead of percents */
	bool show_total_period;		/* --show-total-period: periods instead */
	bool source;			/* --source (default): objdump -S's source text */
	bool asm_raw;			/* --asm-raw: the instruction bytes too */
	bool print_line;		/* -l: perf's summary of the source lines hit */
	bool verbose;			/* -v: the symbol's samples per address first */
	enum annotate_percent_type percent_type;
};

/* One line as objdump -l [-S] prints it for a symbol. */
struct annotate_line {
	const char *text;		/* without the address for an instruction */
	long insn;			/* index of the instruction, -1 for other lines */
};

struct annotate_lines {
	struct annotate_line *lines;
	size_t nr, alloc;
	char **owned;			/* texts made here */
	size_t nr_owned, alloc_owned;
};

/* Source files read once for all symbols; file texts split in lines. */
struct annotate_sources;

/*
 * prefix, strip: objdump's --prefix and --prefix-strip (perf's): an
 * absolute source path is read from prefix + the path without its first
 * strip directories. prefix NULL: the paths as they are.
 */
struct annotate_sources *annotate_sources__new(const char *prefix, int strip);
void annotate_sources__delete(struct annotate_sources *s);

/*
 * The lines objdump -l (and -S when source) prints for the annotation of
 * sym_name: 0 or -ENOMEM. Free with annotate_lines__exit().
 */
int annotate_lines__build(struct annotate_lines *out, const struct ember_annotation *a,
			  const char *sym_name, bool source, bool asm_raw,
			  struct annotate_sources *srcs);
void annotate_lines__exit(struct annotate_lines *l);

struct annotate_symbol_print {
	const struct ember_annotation *a;
	const struct ember_annotate_hist *hist;
	uint64_t sym_start;		/* the symbol's address as the session has it (-v) */
	/* the events shown, a column each: one, or a group's (leader first) */
	const uint32_t *events;
	uint32_t nr_events;
	const char *dso_name;		/* as the header names it */
	const char *dso_long_name;	/* -l's summary: the binary's path */
	const char *dso_short_name;
	const char *event_name;
	const uint64_t *total_period;	/* each event's, for --percent-type global-period */
	/* -l: the file addr2line is asked about and the lines found there */
	const char *a2l_path;
	struct ember_srclines *srclines;
	/* -l: the last file:line shown after an instruction, kept across symbols (malloc'd) */
	char **prev_srcline;
};

/* perf's name of a percent type: "local period", ... */
const char *annotate__percent_type_name(enum annotate_percent_type t);
/* Whether s is objdump -l's "/abs/path:N" marker (perf shows none); *nr gets N. */
bool annotate__is_marker(const char *s, int *nr);
/* Instruction insn's percent of the group's event e, of po's percent type. */
double annotate__insn_percent(const struct annotate_symbol_print *sp,
			      const struct annotate_print_opts *po, size_t insn, uint32_t e);

/* report's Annotate: one symbol of one event of a file, in the annotate browser. */
struct annotate_browse_req {
	const char *input;		/* the file, read again */
	bool force;
	const char *symfs, *kallsyms;
	uint32_t event;			/* the event's attr index */
	const char *dso, *sym;		/* the binary's name (long or short), the symbol's */
	const char *title;		/* the browser's top line */
	char *why;			/* when it cannot be shown: why (whysz bytes) */
	size_t whysz;
};

/*
 * Shows the annotate browser of req's symbol on the screen already up
 * (ember annotate's cmd-annotate.c), left up when done. 0, or 1 when it
 * could not be shown (req->why says why).
 */
int annotate__browse_symbol(const struct annotate_browse_req *req);

/* Prints one symbol's annotation as perf annotate --stdio does. */
void annotate__fprintf_symbol(FILE *fp, const struct annotate_symbol_print *sp,
			      const struct annotate_lines *lines,
			      const struct annotate_print_opts *po);

#endif
