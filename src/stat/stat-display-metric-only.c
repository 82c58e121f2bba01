// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf stat --metric-only: a header line naming the slot columns, then a
 * line per slot holding the metrics. perf 6.1 shows no metric of software
 * events here (not "CPUs utilized", not "/sec"), and ember has no
 * hardware ones, so what is left is perf's frame: its header widths and
 * titles, and each slot's columns.
 */
#include "stat/stat-display.h"

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
