/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Printing ember stat's results in perf 6.1's three layouts: the aligned
 * std columns, CSV (-x SEP) and JSON lines (-j). A counter's line is
 * described by a struct stat_row; the layouts only format rows, so the
 * byte layout is testable without a kernel.
 */
#ifndef EMBER_STAT_DISPLAY_H
#define EMBER_STAT_DISPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include "stat/metrics.h"
#include "stat/options.h"
#include "stat/target.h"

/* perf's width of the metric column in the std layout. */
#define STAT_METRIC_LEN 35

enum stat_row_state {
	STAT_ROW_COUNTED,
	STAT_ROW_NOT_COUNTED,		/* opened but never ran: "<not counted>" */
	STAT_ROW_NOT_SUPPORTED,		/* the open failed: "<not supported>" */
};

/* One printed counter line. */
struct stat_row {
	const struct timespec *interval;	/* -I: time since start, else NULL */
	int cpu;				/* STAT_AGGR_NONE */
	const struct stat_aggr_id *aggr_id;	/* topology modes: the slot's id */
	int aggr_nr;				/* ... and how many cpus it holds */
	const char *comm;			/* STAT_AGGR_THREAD */
	int tid;
	enum stat_row_state state;
	double val;				/* scaled to the unit (msec for clocks) */
	bool integral;				/* the unit scale is whole: no decimals */
	const char *unit;			/* "" when none */
	const char *name;
	const char *cgroup;			/* -G: the event's cgroup, NULL for none */
	double noise_pct;			/* printed when the display has run_count > 1 */
	uint64_t run, ena;
	struct stat_metric metrics[2];
	int nr_metrics;				/* 0: an empty metric column */
};

/* Where and how rows are printed. */
struct stat_display {
	FILE *out;
	enum stat_output_mode mode;
	enum stat_aggr_mode aggr_mode;
	const char *sep;		/* csv separator; " " in the std layout */
	bool big_num;
	int unit_width;
	int run_count;
	bool cgroups;			/* -G/--for-each-cgroup: every line has a cgroup column */
	bool metric_only;		/* --metric-only */
	bool summary_prefix;		/* --summary -I -x: lines start with a "summary" column */
	int write_err;			/* errno of the first failed flush of out, or 0 */
};

/* The footer's figures. */
struct stat_footer {
	double wall_avg_ns, wall_stddev_ns;
	bool null_run;
	bool show_rusage;		/* a command was run by ember, once */
	double user_s, sys_s;
	bool nmi_watchdog_hint;
	const double *run_ns;		/* --table: each run's elapsed ns */
	int nr_run_ns;
};

/* Set up a display from the options (out, mode, separator, widths). */
void stat_display__init(struct stat_display *d, const struct stat_config *config);

/* Print one counter line (with its newline) in the display's layout. */
void stat_display__row(const struct stat_display *d, const struct stat_row *row);
/* " Performance counter stats for <what> (N runs):" block; std layout only. */
void stat_display__header(const struct stat_display *d, const char *what);
/* The "#           time             counts unit events" line; std layout only. */
void stat_display__interval_header(const struct stat_display *d);
/* Elapsed (+- noise), user and sys times; std layout only. */
void stat_display__footer(const struct stat_display *d, const struct stat_footer *f);

/* perf's integer percentage of run over ena, for the CSV and JSON "pcnt-running" fields. */
double stat_display__pcnt_running(uint64_t run, uint64_t ena);
/* The row's value column text ("<not counted>", "<not supported>"), NULL when counted. */
const char *stat_display__state_str(const struct stat_row *row);

/* The slot's label, "S0-D0-C1", for a topology mode's row (CSV, JSON). */
void stat_display__aggr_label(const struct stat_display *d, const struct stat_row *row, char *buf,
			      size_t size);

/*
 * --metric-only: the column header line (interval: the "time" one) and a
 * slot's line, in the display's layout. perf 6.1 prints no metric of
 * software events in this mode, so a line is its cpu, thread or
 * topology columns only.
 */
void stat_display__metric_only_header(const struct stat_display *d, bool interval);
void stat_display__metric_only_row(const struct stat_display *d, const struct stat_row *row);

/* The columns that start a line: interval time, cpu, thread or topology slot. */
void stat_display_std__prefix(const struct stat_display *d, const struct stat_row *row);
void stat_display_csv__prefix(const struct stat_display *d, const struct stat_row *row);
/* JSON's cpu, thread or topology keys, each followed by ", ". */
void stat_display_json__aggr_keys(const struct stat_display *d, const struct stat_row *row);

/* Per-layout row printers (display-std.c, display-csv.c, display-json.c). */
void stat_display_std__row(const struct stat_display *d, const struct stat_row *row);
void stat_display_csv__row(const struct stat_display *d, const struct stat_row *row);
void stat_display_json__row(const struct stat_display *d, const struct stat_row *row);

#endif
