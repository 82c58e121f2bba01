// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf annotate --stdio's text for one symbol: the header, the dashes,
 * then each line objdump gave, an instruction with its percent (or
 * samples, or period) and address, any other line with perf's line
 * number: the number of the last "/abs/path:N" marker (not shown) plus
 * the lines printed since.
 */
#include <ctype.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "annotate/annotate.h"

static const char *const percent_type_names[] = {
	[ANNOTATE_LOCAL_PERIOD] = "local period",
	[ANNOTATE_GLOBAL_PERIOD] = "global period",
	[ANNOTATE_LOCAL_HITS] = "local hits",
	[ANNOTATE_GLOBAL_HITS] = "global hits",
};

const char *annotate__percent_type_name(enum annotate_percent_type t)
{
	return percent_type_names[t];
}

/* perf's file_lineno regex, "^/[^:]+:([0-9]+)". */
bool annotate__is_marker(const char *s, int *nr)
{
	const char *colon;

	if (s[0] != '/')
		return false;
	colon = strchr(s, ':');
	if (!colon || colon == s + 1 || !isdigit((unsigned char)colon[1]))
		return false;
	*nr = atoi(colon + 1);
	return true;
}

/* Hex digits of the widest address perf prints (its addr_fmt_width). */
static int addr_width(const struct ember_annotation *a)
{
	size_t n = ember_annotation__nr_insns(a);
	uint64_t last = n ? ember_annotation__insn(a, n - 1)->addr : ember_annotation__addr(a);
	char tmp[24];

	return snprintf(tmp, sizeof(tmp), "%" PRIx64, last);
}

/*
 * An instruction as perf prints objdump's line "  addr:\ttext": the
 * address right-aligned to the symbol's widest (awidth digits), then its
 * tabs expanded to the next multiple of 8 from the address's first digit.
 */
static void print_insn(FILE *fp, uint64_t addr, int awidth, const char *text,
		       const char *srcline)
{
	char buf[64];
	int col = snprintf(buf, sizeof(buf), "%" PRIx64 ":", addr);

	fprintf(fp, " :   %*s%s", awidth + 1 > col ? awidth + 1 - col : 0, "", buf);
	do {
		fputc(' ', fp);
		col++;
	} while (col % 8);
	for (const char *p = text; *p; p++) {
		if (*p == '\t') {
			do {
				fputc(' ', fp);
				col++;
			} while (col % 8);
		} else {
			fputc(*p, fp);
			col++;
		}
	}
	if (srcline)
		fprintf(fp, " // %s", srcline);
	fputc('\n', fp);
}

static double percent(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* -l: each instruction hit, named "file.c:LINE" as perf's srcline (addr2line) names it */
struct hit_line {
	char *path;
	const double *pct;		/* a percent per event */
};

static char *srcline_of(const struct annotate_symbol_print *sp, uint64_t addr)
{
	const char *file, *base;
	unsigned int line;
	char *s;
	int r;

	if (!sp->srclines)
		return NULL;
	r = sp->a2l_path ? ember_srclines__find(sp->srclines, sp->a2l_path, addr, &file, &line) :
			   -1;
	/* addr2line ran on the file and knew no file name: its "??:N", as perf keeps it */
	if ((r > 0 && !file) || (!r && !access(sp->a2l_path, R_OK))) {
		if (asprintf(&s, "??:%u", r > 0 ? line : 0) < 0)
			return NULL;
		return s;
	}
	if (r <= 0 || !file) {
		/* perf's srcline of an address addr2line cannot tell: "dso[addr]" */
		if (asprintf(&s, "%s[%" PRIx64 "]", sp->dso_short_name, addr) < 0)
			return NULL;
		return s;
	}
	base = strrchr(file, '/');
	if (asprintf(&s, "%s:%u", base ? base + 1 : file, line) < 0)
		return NULL;
	return s;
}

/* ctx: the number of events */
static int cmp_hit(const void *pa, const void *pb, void *ctx)
{
	const struct hit_line *a = pa, *b = pb;
	uint32_t nr_events = *(const uint32_t *)ctx;

	/* perf's order: the first event's percents, then the next one's */
	for (uint32_t e = 0; e < nr_events; e++)
		if (a->pct[e] != b->pct[e])
			return a->pct[e] > b->pct[e] ? -1 : 1;
	/* perf's ties: its tree of lines keyed by path, walked from the greatest path */
	return strcmp(b->path, a->path);
}

/*
 * perf's "Sorted summary for file": the percents of each source line (its
 * instructions' percents summed, per event), highest first; paths[i] gets
 * instruction i's line (NULL when not hit), shown after it in the listing.
 * pcts holds nr_events percents per instruction.
 */
static void print_summary(FILE *fp, const struct annotate_symbol_print *sp, const double *pcts,
			  char **paths)
{
	size_t n = ember_annotation__nr_insns(sp->a), nr = 0;
	uint32_t nev = sp->nr_events;
	struct hit_line *hits = calloc(n ? n : 1, sizeof(*hits));
	double *sums = calloc((n ? n : 1) * nev, sizeof(*sums));

	if (!hits || !sums)
		goto out;
	for (size_t i = 0; i < n; i++) {
		double max = 0.0;
		size_t j;

		for (uint32_t e = 0; e < nev; e++)
			max = pcts[i * nev + e] > max ? pcts[i * nev + e] : max;
		/* perf leaves out instructions of 0.5 % and less (in every event) */
		if (max <= 0.5)
			continue;
		paths[i] = srcline_of(sp, ember_annotation__insn(sp->a, i)->addr);
		if (!paths[i])
			continue;
		for (j = 0; j < nr && strcmp(hits[j].path, paths[i]); j++)
			;
		if (j == nr) {
			hits[nr].path = paths[i];
			hits[nr++].pct = &sums[j * nev];
		}
		for (uint32_t e = 0; e < nev; e++)
			sums[j * nev + e] += pcts[i * nev + e];
	}
	qsort_r(hits, nr, sizeof(*hits), cmp_hit, &nev);
	fprintf(fp, "\nSorted summary for file %s\n", sp->dso_long_name);
	fprintf(fp, "----------------------------------------------\n\n");
	if (!nr)
		fprintf(fp, " Nothing higher than 0.5%%\n");
	for (size_t j = 0; j < nr; j++) {
		for (uint32_t e = 0; e < nev; e++)
			fprintf(fp, " %7.2f", hits[j].pct[e]);
		fprintf(fp, " %s\n", hits[j].path);
	}
out:
	free(sums);
	free(hits);
}

double annotate__insn_percent(const struct annotate_symbol_print *sp,
			      const struct annotate_print_opts *po, size_t insn, uint32_t e)
{
	uint32_t ev = sp->events[e];
	uint64_t nr, period;

	ember_annotation__sum(sp->a, insn, sp->hist, ev, &nr, &period);
	switch (po->percent_type) {
	case ANNOTATE_GLOBAL_PERIOD:
		/* perf 6.1 totals only the leader's histogram: a member's column is 0.00 */
		return e ? 0.0 : percent(period, sp->total_period[e]);
	case ANNOTATE_LOCAL_HITS:
		return percent(nr, ember_annotate_hist__nr_samples(sp->hist, ev));
	case ANNOTATE_GLOBAL_HITS:
		/* perf 6.1 divides by its hists' sample count, which annotate never counts */
		return 0.0;
	default:
		return percent(period, ember_annotate_hist__period(sp->hist, ev));
	}
}

/* One event's column of an instruction: its percent, samples or period. */
static void print_value(FILE *fp, const struct annotate_symbol_print *sp,
			const struct annotate_print_opts *po, size_t insn, uint32_t e, int width)
{
	uint64_t nr, period;

	ember_annotation__sum(sp->a, insn, sp->hist, sp->events[e], &nr, &period);
	if (po->show_total_period)
		fprintf(fp, " %*" PRIu64, width - 1, period);
	else if (po->show_nr_samples)
		fprintf(fp, " %*" PRIu64, width - 1, nr);
	else
		fprintf(fp, " %*.2f", width - 1, annotate__insn_percent(sp, po, insn, e));
}

/*
 * perf -v: the leader's samples at each address of the symbol that has
 * any (the symbol's addresses as perf keeps them: file offsets in an
 * ET_EXEC), then their sum, right-aligned on 32 columns
 */
static void print_hits(FILE *fp, const struct annotate_symbol_print *sp)
{
	size_t n = ember_annotation__nr_insns(sp->a);
	uint64_t size = 0;

	if (n) {
		const struct ember_annotation_insn *last = ember_annotation__insn(sp->a, n - 1);

		size = last->offset + last->size;
	}
	for (uint64_t off = 0; off < size; off++) {
		uint64_t nr = 0, period = 0;

		ember_annotate_hist__range(sp->hist, sp->events[0], off, off + 1, &nr, &period);
		if (nr)
			fprintf(fp, "%32" PRIx64 ": %" PRIu64 "\n", sp->sym_start + off, nr);
	}
	fprintf(fp, "%32s: %" PRIu64 "\n", "h->nr_samples",
		ember_annotate_hist__nr_samples(sp->hist, sp->events[0]));
}

void annotate__fprintf_symbol(FILE *fp, const struct annotate_symbol_print *sp,
			      const struct annotate_lines *lines,
			      const struct annotate_print_opts *po)
{
	int width = po->show_total_period ? 12 : 8, awidth = addr_width(sp->a), line_nr = 0, len;
	int cols = width * (int)sp->nr_events;
	const char *what = po->show_total_period ? "Period" :
			   po->show_nr_samples	 ? "Samples" :
						   "Percent";
	uint64_t sym_nr = ember_annotate_hist__nr_samples(sp->hist, sp->events[0]);
	size_t nr_insns = ember_annotation__nr_insns(sp->a);
	double *pcts = NULL;
	char **paths = NULL;
	const char *shown = sp->prev_srcline ? *sp->prev_srcline : NULL;

	if (po->print_line) {
		pcts = calloc((nr_insns + 1) * sp->nr_events, sizeof(*pcts));
		paths = calloc(nr_insns + 1, sizeof(*paths));
	}
	if (pcts && paths) {
		for (size_t i = 0; i < nr_insns; i++)
			for (uint32_t e = 0; e < sp->nr_events; e++)
				pcts[i * sp->nr_events + e] = annotate__insn_percent(sp, po, i, e);
		print_summary(fp, sp, pcts, paths);
	}

	len = fprintf(fp, " %-*.*s|\tSource code & Disassembly of %s for %s (%" PRIu64
			  " samples, percent: %s)\n",
		      cols, cols, what, sp->dso_name, sp->event_name, sym_nr,
		      percent_type_names[po->percent_type]);
	for (int i = 0; i < len + 4; i++)
		fputc('-', fp);
	fputc('\n', fp);
	if (po->verbose)
		print_hits(fp, sp);
	for (size_t i = 0; i < lines->nr; i++) {
		const struct annotate_line *l = &lines->lines[i];

		if (l->insn < 0) {
			const char *text = l->text + strspn(l->text, " \t");

			if (annotate__is_marker(l->text, &line_nr))
				continue;
			if (!*text)
				fprintf(fp, " %*s:\n", cols, " ");
			else
				fprintf(fp, " %*s: %-*d %s\n", cols, " ", awidth, line_nr, text);
			line_nr++;
			continue;
		}
		line_nr++;
		/* a column per event of the group */
		for (uint32_t e = 0; e < sp->nr_events; e++)
			print_value(fp, sp, po, (size_t)l->insn, e, width);
		print_insn(fp, ember_annotation__insn(sp->a, (size_t)l->insn)->addr, awidth,
			   l->text,
			   paths && paths[l->insn] && (!shown || strcmp(shown, paths[l->insn])) ?
				   paths[l->insn] :
				   NULL);
		if (paths && paths[l->insn])
			shown = paths[l->insn];
	}
	/* perf remembers the last one shown across symbols */
	if (sp->prev_srcline && shown && shown != *sp->prev_srcline) {
		free(*sp->prev_srcline);
		*sp->prev_srcline = strdup(shown);
	}
	for (size_t i = 0; paths && i < nr_insns; i++)
		free(paths[i]);
	free(paths);
	free(pcts);
}
