// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf annotate --stdio's text for one symbol: the header, the dashes,
 * then each line objdump gave, an instruction with its percent (or
 * samples, or period) and address, any other line with perf's line
 * number: the number of the last "/abs/path:N" marker (not shown) plus
 * the lines printed since.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "annotate/annotate.h"

static const char *const percent_type_names[] = {
	[ANNOTATE_LOCAL_PERIOD] = "local period",
	[ANNOTATE_GLOBAL_PERIOD] = "global period",
	[ANNOTATE_LOCAL_HITS] = "local hits",
	[ANNOTATE_GLOBAL_HITS] = "global hits",
};

/* perf's file_lineno regex, "^/[^:]+:([0-9]+)": an absolute file:line marker, *nr its line. */
static bool is_marker(const char *s, int *nr)
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
 * An instruction as perf prints objdump's line "  addr:\ttext": from the
 * address on, its tabs expanded to the next multiple of 8.
 */
static void print_insn(FILE *fp, uint64_t addr, const char *text)
{
	char buf[64];
	int col = snprintf(buf, sizeof(buf), "%" PRIx64 ":", addr);

	fprintf(fp, " :   %s", buf);
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
	fputc('\n', fp);
}

static double percent(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

void annotate__fprintf_symbol(FILE *fp, const struct annotate_symbol_print *sp,
			      const struct annotate_lines *lines,
			      const struct annotate_print_opts *po)
{
	int width = po->show_total_period ? 12 : 8, awidth = addr_width(sp->a), line_nr = 0, len;
	const char *what = po->show_total_period ? "Period" :
			   po->show_nr_samples	 ? "Samples" :
						   "Percent";
	uint64_t sym_nr = ember_annotate_hist__nr_samples(sp->hist, sp->event);
	uint64_t sym_period = ember_annotate_hist__period(sp->hist, sp->event);

	len = fprintf(fp, " %-*.*s|\tSource code & Disassembly of %s for %s (%" PRIu64
			  " samples, percent: %s)\n",
		      width, width, what, sp->dso_name, sp->event_name, sym_nr,
		      percent_type_names[po->percent_type]);
	for (int i = 0; i < len + 4; i++)
		fputc('-', fp);
	fputc('\n', fp);
	for (size_t i = 0; i < lines->nr; i++) {
		const struct annotate_line *l = &lines->lines[i];
		uint64_t nr, period;
		double pct;

		if (l->insn < 0) {
			const char *text = l->text + strspn(l->text, " \t");

			if (is_marker(l->text, &line_nr))
				continue;
			if (!*text)
				fprintf(fp, " %*s:\n", width, " ");
			else
				fprintf(fp, " %*s: %-*d %s\n", width, " ", awidth, line_nr, text);
			line_nr++;
			continue;
		}
		line_nr++;
		ember_annotation__sum(sp->a, (size_t)l->insn, sp->hist, sp->event, &nr, &period);
		if (po->show_total_period) {
			fprintf(fp, " %*" PRIu64, width - 1, period);
		} else if (po->show_nr_samples) {
			fprintf(fp, " %*" PRIu64, width - 1, nr);
		} else {
			switch (po->percent_type) {
			case ANNOTATE_GLOBAL_PERIOD:
				pct = percent(period, sp->total_period);
				break;
			case ANNOTATE_LOCAL_HITS:
				pct = percent(nr, sym_nr);
				break;
			case ANNOTATE_GLOBAL_HITS:
				/*
				 * perf 6.1 divides by its hists' sample count, which
				 * annotate never counts: every line is 0.00 there.
				 */
				pct = 0.0;
				break;
			default:
				pct = percent(period, sym_period);
				break;
			}
			fprintf(fp, " %*.2f", width - 1, pct);
		}
		print_insn(fp, ember_annotation__insn(sp->a, (size_t)l->insn)->addr, l->text);
	}
}
