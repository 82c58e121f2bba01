/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rows of perf's annotate browser, without the screen: a row per line
 * objdump -l -S gives (the file:line markers left out), each written as
 * perf 6.1's annotation_line__write() writes it (the percent columns, the
 * jump targets' offsets, the graph, the instruction as perf's TUI
 * simplifies it), the instructions hottest last, the jumps and their
 * targets, perf's macro fusion. The browser draws the rows; P writes them.
 * The annotation, its lines and the options stay the owner's.
 */
#ifndef EMBER_TUI_ANNOTATE_VIEW_H
#define EMBER_TUI_ANNOTATE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "annotate/annotate.h"

/* perf's graph characters, as the bytes that stand for them in a row's text */
enum { TUI_GRAPH_DOWN = 1, TUI_GRAPH_UP, TUI_GRAPH_RIGHT, TUI_GRAPH_LEFT };

struct tui_annotate_row {
	const char *text; /* leading blanks skipped */
	long insn;	  /* -1: not an instruction */
	int line_nr;	  /* perf's number of a source line (k) */
	int jump_sources; /* jumps of the symbol that land here */
	long target_row;  /* a jump inside the symbol: the row it lands on */
	bool outside;	  /* a jump out of the symbol: followed as a call */
	char kind;	  /* 'j' jump, 'c' call, 'r' ret, 0 other */
};

/* What colours a row's text: the percent's, then the address's span. */
struct tui_annotate_colors {
	double percent; /* the last event's: the rest of the row takes it */
	int addr_start, addr_len;
};

struct tui_annotate_view {
	const struct annotate_symbol_print *sp; /* the symbol, its histogram, its events */
	const struct annotate_print_opts *po;	/* the percent type, percent/samples/period */
	const struct ember_annotation *a;
	const char *sym_name;
	/* the name of the function at a call's target; NULL: objdump's text */
	const char *(*symbol_at)(void *ctx, uint64_t target);
	void *ctx;

	struct tui_annotate_row *rows;
	size_t nr_rows;
	size_t *shown, nr_shown; /* the rows shown: all, or (hide_source) instructions */
	size_t *hot, nr_hot;	 /* the instructions with 0.01 % or more, coldest first */
	/* perf's options: s, o, k, J */
	bool hide_source, use_offset, show_linenr, show_nr_jumps;
	int offset_level; /* O: 1 the jump targets' offsets, 2 the calls' too, 3 all */
	int addr_w, target_w, max_addr_w, jumps_w, max_name;
	int fused_family, fused_model; /* 0: no fusion known */
	bool fused_amd;
};

/*
 * The rows of lines (annotate_lines__build()'s) for sp's symbol: perf's
 * defaults (offsets, source shown). cpuid: the recording cpu's
 * ("AuthenticAMD,25,1,1"; NULL: no fusion). 0 or -ENOMEM; free with
 * tui_annotate_view__exit() either way.
 */
int tui_annotate_view__init(struct tui_annotate_view *v, const struct annotate_symbol_print *sp,
			    const struct annotate_lines *lines,
			    const struct annotate_print_opts *po, const char *sym_name,
			    const char *cpuid);
void tui_annotate_view__exit(struct tui_annotate_view *v);
/* The rows shown again, after hide_source changed. */
void tui_annotate_view__filter(struct tui_annotate_view *v);
/* The address column's width again, after use_offset or show_nr_jumps changed. */
void tui_annotate_view__update_widths(struct tui_annotate_view *v);
/* The percent columns' width (the column line is drawn after them). */
int tui_annotate_view__pcnt_width(const struct tui_annotate_view *v);
/* The shown index of row, or of the first shown after it. */
size_t tui_annotate_view__shown_index(const struct tui_annotate_view *v, size_t row);
/* Rows up from the jump at row to the instruction perf fuses with it; 0: none. */
int tui_annotate_view__fused(const struct tui_annotate_view *v, size_t jump_row);
/*
 * Row r's text into buf, width cells wide as perf pads it (0: as perf
 * writes it to a file), the graph as TUI_GRAPH_* bytes; first: the top
 * row (perf's "Percent" title there). Its colours in *c.
 */
void tui_annotate_view__row_text(const struct tui_annotate_view *v,
				 const struct tui_annotate_row *r, bool first, int width, char *buf,
				 size_t size, struct tui_annotate_colors *c);
/* Every row shown, as perf's P writes SYM.annotation. 0 or -errno of the stream. */
int tui_annotate_view__fprintf(const struct tui_annotate_view *v, FILE *fp);

#endif
