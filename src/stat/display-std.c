// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf stat's aligned layout:
 *   [time ][CPUn    |comm-tid ]    value unit name(32)   # metric unit(35)  ( +- x% )  (pct%)
 */
#include "stat/display.h"

/* The interval timestamp and the cpu or thread columns that start a line. */
/* perf's topology columns: the id's last part left-aligned, then the cpu count. */
static void print_aggr(const struct stat_display *d, const struct stat_row *row)
{
	static const struct stat_aggr_id none = { -1, -1, -1, -1 };
	const struct stat_aggr_id *id = row->aggr_id ? row->aggr_id : &none;

	switch (d->aggr_mode) {
	case STAT_AGGR_SOCKET:
		fprintf(d->out, "S%-5d", id->socket);
		break;
	case STAT_AGGR_DIE:
		fprintf(d->out, "S%d-D%-8d", id->socket, id->die);
		break;
	case STAT_AGGR_CORE:
		fprintf(d->out, "S%d-D%d-C%-8d", id->socket, id->die, id->core);
		break;
	default:
		fprintf(d->out, "N%-5d", id->node);
		break;
	}
	fprintf(d->out, "%s%4d%s", d->sep, row->aggr_nr, d->sep);
}

void stat_display_std__prefix(const struct stat_display *d, const struct stat_row *row)
{
	if (row->interval)
		fprintf(d->out, "%6lu.%09lu%s", (unsigned long)row->interval->tv_sec,
			(unsigned long)row->interval->tv_nsec, d->sep);
	if (stat_aggr__is_topology(d->aggr_mode))
		print_aggr(d, row);
	else if (d->aggr_mode == STAT_AGGR_NONE)
		fprintf(d->out, "CPU%-7d%s", row->cpu, d->sep);
	else if (d->aggr_mode == STAT_AGGR_THREAD)
		fprintf(d->out, "%16s-%-8d%s", row->comm ? row->comm : "", row->tid, d->sep);
}

static void print_metric(const struct stat_display *d, const struct stat_metric *m)
{
	int n;

	if (!m->fmt || !m->unit) {
		fprintf(d->out, "%-*s", STAT_METRIC_LEN, "");
		return;
	}
	n = fprintf(d->out, " # ");
	n += fprintf(d->out, m->fmt, m->val);
	fprintf(d->out, " %-*s", STAT_METRIC_LEN - n - 1, m->unit);
}

/* A second metric goes on its own line, its '#' under the first one's. */
static void new_metric_line(const struct stat_display *d, const struct stat_row *row)
{
	fputc('\n', d->out);
	stat_display_std__prefix(d, row);
	fprintf(d->out, "%*s", 18 + 1 + d->unit_width + 1 + 32, "");
}

static void print_noise_running(const struct stat_display *d, const struct stat_row *row)
{
	if (d->run_count > 1 && row->noise_pct)
		fprintf(d->out, "  ( +-%6.2f%% )", row->noise_pct);
	if (row->run != row->ena && row->ena)
		fprintf(d->out, "  (%.2f%%)", 100.0 * row->run / row->ena);
}

void stat_display_std__row(const struct stat_display *d, const struct stat_row *row)
{
	const char *state = stat_display__state_str(row);
	const char *fmt;

	stat_display_std__prefix(d, row);
	if (state) {
		fprintf(d->out, "%18s%s", state, d->sep);
		fprintf(d->out, "%-*s%s", d->unit_width, row->unit, d->sep);
		fprintf(d->out, "%-25s", row->name);
		if (d->cgroups)
			fprintf(d->out, "%s%s", d->sep, row->cgroup ? row->cgroup : "");
		fprintf(d->out, "%-*s", STAT_METRIC_LEN, "");
		print_noise_running(d, row);
		fputc('\n', d->out);
		return;
	}

	if (d->big_num)
		fmt = row->integral ? "%'18.0f%s" : "%'18.2f%s";
	else
		fmt = row->integral ? "%18.0f%s" : "%18.2f%s";
	fprintf(d->out, fmt, row->val, d->sep);
	fprintf(d->out, "%-*s%s", d->unit_width, row->unit, d->sep);
	fprintf(d->out, "%-32s", row->name);
	if (d->cgroups)
		fprintf(d->out, "%s%s", d->sep, row->cgroup ? row->cgroup : "");

	if (row->nr_metrics < 1) {
		fprintf(d->out, "%-*s", STAT_METRIC_LEN, "");
	} else {
		print_metric(d, &row->metrics[0]);
		for (int i = 1; i < row->nr_metrics; i++) {
			new_metric_line(d, row);
			print_metric(d, &row->metrics[i]);
		}
	}
	print_noise_running(d, row);
	fputc('\n', d->out);
}
