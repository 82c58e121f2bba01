// SPDX-License-Identifier: GPL-2.0-only
/* The parts of perf stat's output around the counter lines: header, interval header, footer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stat/display.h"

void stat_display__init(struct stat_display *d, const struct stat_config *config)
{
	memset(d, 0, sizeof(*d));
	d->out = config->out ? config->out : stderr;
	d->mode = config->output_mode;
	d->aggr_mode = config->aggr_mode;
	d->sep = config->output_mode == STAT_OUTPUT_CSV ? config->csv_sep : " ";
	d->big_num = config->big_num && config->output_mode == STAT_OUTPUT_STD;
	d->unit_width = config->unit_width < 4 ? 4 : config->unit_width;
	d->run_count = config->run_count < 1 ? 1 : config->run_count;
	d->cgroups = config->cgroups;
	d->metric_only = config->metric_only;
}

void stat_display__row(const struct stat_display *d, const struct stat_row *row)
{
	switch (d->mode) {
	case STAT_OUTPUT_CSV:
		stat_display_csv__row(d, row);
		break;
	case STAT_OUTPUT_JSON:
		stat_display_json__row(d, row);
		break;
	default:
		stat_display_std__row(d, row);
		break;
	}
}

void stat_display__aggr_label(const struct stat_display *d, const struct stat_row *row, char *buf,
			      size_t size)
{
	static const struct stat_aggr_id none = { -1, -1, -1, -1 };

	stat_aggr__label(d->aggr_mode, row->aggr_id ? row->aggr_id : &none, buf, size);
}

const char *stat_display__state_str(const struct stat_row *row)
{
	switch (row->state) {
	case STAT_ROW_NOT_COUNTED:
		return "<not counted>";
	case STAT_ROW_NOT_SUPPORTED:
		return "<not supported>";
	default:
		return NULL;
	}
}

double stat_display__pcnt_running(uint64_t run, uint64_t ena)
{
	/* perf 6.1 divides integers here, so CSV and JSON show whole percents. */
	if (run == ena || !ena)
		return 100.0;
	return (double)(100 * run / ena);
}

void stat_display__header(const struct stat_display *d, const char *what)
{
	if (d->mode != STAT_OUTPUT_STD)
		return;
	fprintf(d->out, "\n Performance counter stats for %s", what);
	if (d->run_count > 1)
		fprintf(d->out, " (%d runs)", d->run_count);
	fprintf(d->out, ":\n\n");
}

void stat_display__interval_header(const struct stat_display *d)
{
	if (d->mode != STAT_OUTPUT_STD)
		return;
	switch (d->aggr_mode) {
	case STAT_AGGR_NONE:
		fprintf(d->out, "#           time CPU    ");
		fprintf(d->out, "                counts %*s events\n", d->unit_width, "unit");
		break;
	case STAT_AGGR_THREAD:
		fprintf(d->out, "#           time             comm-pid");
		fprintf(d->out, "                  counts %*s events\n", d->unit_width, "unit");
		break;
	case STAT_AGGR_SOCKET:
	case STAT_AGGR_DIE:
	case STAT_AGGR_CORE:
	case STAT_AGGR_NODE: {
		/* perf pads the slot column's title to the label's width, then "cpus". */
		static const char *const title[] = {
			[STAT_AGGR_SOCKET] = "socket ", [STAT_AGGR_DIE] = "die          ",
			[STAT_AGGR_CORE] = "core            ", [STAT_AGGR_NODE] = "node   ",
		};

		fprintf(d->out, "#           time %scpus", title[d->aggr_mode]);
		fprintf(d->out, "             counts %*s events\n", d->unit_width, "unit");
		break;
	}
	default:
		fprintf(d->out, "#           time");
		fprintf(d->out, "             counts %*s events\n", d->unit_width, "unit");
		break;
	}
}

/* Digits worth printing: two more than the first significant digit of the error. */
static int elapsed_precision(double sd)
{
	if (!(sd > 0))
		return 6;
	if (sd > 1)
		return 2;
	return (int)lround(ceil(-log10(sd))) + 2;
}

/*
 * --table: each run's elapsed time, its distance to the mean and a bar of
 * one '#' plus one per 5% off, indented under the mean's first digit.
 */
static void print_table(FILE *out, const struct stat_footer *f, int precision, double avg)
{
	char buf[64];
	int indent = 0;

	snprintf(buf, sizeof(buf), " %17.*f", precision, avg);
	while (buf[indent] == ' ')
		indent++;
	fprintf(out, "%*s# Table of individual measurements:\n", indent, "");
	for (int i = 0; i < f->nr_run_ns; i++) {
		double run = f->run_ns[i] / 1e9;
		int bars = 1 + abs((int)(100.0 * (run - avg) / run) / 5);

		fprintf(out, " %17.*f (%+.*f) ", precision, run, precision, run - avg);
		for (int b = 0; b < bars; b++)
			fputc('#', out);
		fputc('\n', out);
	}
	fprintf(out, "\n%*s# Final result:\n", indent, "");
}

void stat_display__footer(const struct stat_display *d, const struct stat_footer *f)
{
	FILE *out = d->out;
	double avg = f->wall_avg_ns / 1e9;

	if (d->mode != STAT_OUTPUT_STD)
		return;
	if (!f->null_run)
		fprintf(out, "\n");
	if (d->run_count == 1) {
		fprintf(out, " %17.9f seconds time elapsed", avg);
		if (f->show_rusage) {
			fprintf(out, "\n\n");
			fprintf(out, " %17.9f seconds user\n", f->user_s);
			fprintf(out, " %17.9f seconds sys\n", f->sys_s);
		}
	} else {
		double sd = f->wall_stddev_ns / 1e9, pct = stat_stats__rel_stddev(sd, avg);
		int precision = elapsed_precision(sd);

		if (f->nr_run_ns > 1)
			print_table(out, f, precision, avg);
		fprintf(out, " %17.*f +- %.*f seconds time elapsed", precision, avg, precision, sd);
		if (pct)
			fprintf(out, "  ( +-%6.2f%% )", pct);
	}
	fprintf(out, "\n\n");
	if (f->nmi_watchdog_hint)
		fprintf(out, "Some events weren't counted. Try disabling the NMI watchdog:\n"
			     "\techo 0 > /proc/sys/kernel/nmi_watchdog\n"
			     "\tember stat ...\n"
			     "\techo 1 > /proc/sys/kernel/nmi_watchdog\n");
}

/*
 * perf stat --metric-only: a header line naming the slot columns, then a
 * line per slot holding the metrics. perf 6.1 shows no metric of software
 * events here (not "CPUs utilized", not "/sec"), and ember has no
 * hardware ones, so what is left is perf's frame: its header widths and
 * titles, and each slot's columns.
 */

/* perf's padding of the std header per aggregation mode. */
static int header_len(enum stat_aggr_mode mode)
{
	switch (mode) {
	case STAT_AGGR_NONE:
	case STAT_AGGR_NODE:
		return 6;
	case STAT_AGGR_SOCKET:
		return 12;
	case STAT_AGGR_DIE:
		return 18;
	case STAT_AGGR_CORE:
	case STAT_AGGR_THREAD:
		return 24;
	default:
		return 0;
	}
}

static const char *csv_header(enum stat_aggr_mode mode)
{
	switch (mode) {
	case STAT_AGGR_NONE:
		return "cpu,";
	case STAT_AGGR_THREAD:
		return "comm-pid,";
	case STAT_AGGR_SOCKET:
		return "socket,cpus";
	case STAT_AGGR_DIE:
		return "die,cpus";
	case STAT_AGGR_CORE:
		return "core,cpus,";
	case STAT_AGGR_NODE:
		return "node,";
	default:
		return "";
	}
}

/* The std interval header's slot title, as in the counts' interval header. */
static const char *std_interval_title(enum stat_aggr_mode mode)
{
	switch (mode) {
	case STAT_AGGR_NONE:
		return " CPU    ";
	case STAT_AGGR_THREAD:
		return "             comm-pid";
	case STAT_AGGR_SOCKET:
		return " socket cpus";
	case STAT_AGGR_DIE:
		return " die          cpus";
	case STAT_AGGR_CORE:
		return " core            cpus";
	case STAT_AGGR_NODE:
		return " node   cpus";
	default:
		return "";
	}
}

void stat_display__metric_only_header(const struct stat_display *d, bool interval)
{
	switch (d->mode) {
	case STAT_OUTPUT_CSV:
		/* perf writes " time" and its own ',' whatever the separator. */
		fprintf(d->out, "%s%s\n", interval ? " time," : "", csv_header(d->aggr_mode));
		break;
	case STAT_OUTPUT_JSON:
		if (interval)
			fprintf(d->out, "{}\n");
		else
			fprintf(d->out, "{%*s}\n", header_len(d->aggr_mode), "");
		break;
	default:
		if (interval)
			fprintf(d->out, "#           time%s \n", std_interval_title(d->aggr_mode));
		else
			fprintf(d->out, "%*s\n", header_len(d->aggr_mode), "");
		break;
	}
}

void stat_display__metric_only_row(const struct stat_display *d, const struct stat_row *row)
{
	switch (d->mode) {
	case STAT_OUTPUT_CSV:
		stat_display_csv__prefix(d, row);
		break;
	case STAT_OUTPUT_JSON:
		/* perf closes the interval's object at once and leaves the slot's open. */
		if (row->interval)
			fprintf(d->out, "{\"interval\" : %lu.%09lu}",
				(unsigned long)row->interval->tv_sec,
				(unsigned long)row->interval->tv_nsec);
		else if (d->aggr_mode != STAT_AGGR_GLOBAL)
			fputc('{', d->out);
		stat_display_json__aggr_keys(d, row);
		break;
	default:
		stat_display_std__prefix(d, row);
		break;
	}
	fputc('\n', d->out);
}
