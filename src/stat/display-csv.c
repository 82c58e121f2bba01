// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf stat -x SEP: [time,][CPUn,|comm-tid,]value,unit,event[,noise%],run,pcnt,metric,metric-unit
 */
#include <ctype.h>
#include <inttypes.h>
#include "stat/display.h"

void stat_display_csv__prefix(const struct stat_display *d, const struct stat_row *row)
{
	if (row->interval)
		fprintf(d->out, "%6lu.%09lu%s", (unsigned long)row->interval->tv_sec,
			(unsigned long)row->interval->tv_nsec, d->sep);
	else if (d->summary_prefix)
		fprintf(d->out, "%16s%s", "summary", d->sep);
	if (stat_aggr__is_topology(d->aggr_mode)) {
		char label[64];

		stat_display__aggr_label(d, row, label, sizeof(label));
		fprintf(d->out, "%s%s%d%s", label, d->sep, row->aggr_nr, d->sep);
	} else if (d->aggr_mode == STAT_AGGR_NONE)
		fprintf(d->out, "CPU%d%s", row->cpu, d->sep);
	else if (d->aggr_mode == STAT_AGGR_THREAD)
		fprintf(d->out, "%s-%d%s", row->comm ? row->comm : "", row->tid, d->sep);
}

static const char *skip_spaces(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* The metric as two fields: the number alone (format padding and '%' cut off), its unit. */
static void print_metric(const struct stat_display *d, const struct stat_metric *m)
{
	char buf[64], *vals, *end;

	if (!m->fmt || !m->unit) {
		fprintf(d->out, "%s%s", d->sep, d->sep);
		return;
	}
	snprintf(buf, sizeof(buf), m->fmt, m->val);
	vals = (char *)skip_spaces(buf);
	for (end = vals; isdigit((unsigned char)*end) || *end == '.'; end++)
		;
	*end = '\0';
	fprintf(d->out, "%s%s%s%s", d->sep, vals, d->sep, skip_spaces(m->unit));
}

void stat_display_csv__row(const struct stat_display *d, const struct stat_row *row)
{
	const char *state = stat_display__state_str(row);
	int nfields;

	stat_display_csv__prefix(d, row);
	if (state)
		fprintf(d->out, "%s%s", state, d->sep);
	else
		fprintf(d->out, row->integral ? "%.0f%s" : "%.2f%s", row->val, d->sep);
	fprintf(d->out, "%s%s%s", row->unit, d->sep, row->name);
	if (d->cgroups)
		fprintf(d->out, "%s%s", d->sep, row->cgroup ? row->cgroup : "");
	if (d->run_count > 1)
		fprintf(d->out, "%s%.2f%%", d->sep, row->noise_pct);
	fprintf(d->out, "%s%" PRIu64 "%s%.2f", d->sep, row->run, d->sep,
		stat_display__pcnt_running(row->run, row->ena));

	if (state || row->nr_metrics < 1) {
		fprintf(d->out, "%s%s", d->sep, d->sep);
	} else {
		print_metric(d, &row->metrics[0]);
		/* Further metrics: a line of empty fields, the metric in the same columns. */
		nfields = 5 + (d->run_count > 1);
		for (int i = 1; i < row->nr_metrics; i++) {
			fputc('\n', d->out);
			stat_display_csv__prefix(d, row);
			for (int f = 1; f < nfields; f++)
				fputs(d->sep, d->out);
			print_metric(d, &row->metrics[i]);
		}
	}
	fputc('\n', d->out);
}
