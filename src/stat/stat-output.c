// SPDX-License-Identifier: GPL-2.0-only
/* Printing ember stat's interval blocks and its final summary. */
#include <errno.h>
#include <stdio.h>
#include "stat/stat-evsel.h"
#include "stat/stat-output.h"
#include "stat/stat-print.h"

#define NSEC_PER_MSEC 1000000ULL

/* A full disk must not pass unnoticed: keep the first flush error's errno for the end. */
int stat_output__flush(struct stat_display *d)
{
	errno = 0;
	if (fflush(d->out) == 0 && !ferror(d->out))
		return 0;
	if (!d->write_err)
		d->write_err = errno ? errno : EIO;
	return -d->write_err;
}

static struct stat_print_ctx print_ctx(const struct stat_run *r)
{
	struct stat_print_ctx p = {
		.config = r->config, .evlist = r->evlist, .shadow = &r->shadow,
		.display = &r->display, .target = r->target,
	};
	return p;
}

void stat_output__interval(struct stat_run *r, const struct stat_tool_times *tools,
			   uint64_t elapsed_ns)
{
	struct stat_print_ctx p = print_ctx(r);
	struct timespec ts = { .tv_sec = (time_t)(elapsed_ns / 1000000000ULL),
			       .tv_nsec = (long)(elapsed_ns % 1000000000ULL) };
	struct ember_evsel *pos;

	stat_read__counters(r->evlist, tools);
	stat_shadow__reset(&r->shadow);
	/* perf divides by the interval asked for, not the one measured. */
	stat_shadow__update_walltime(&r->shadow, (double)r->config->interval_ms * NSEC_PER_MSEC);
	ember_evlist__for_each(r->evlist, pos)
		stat_counter__reset_stats(stat_evsel(pos)->counter);
	stat_process__counters(r->evlist, r->config, &r->shadow, true, r->display.out);
	if (r->config->quiet)
		return;
	/* perf clears the terminal on stdout, whatever -o says, and repeats the header. */
	if (r->config->interval_clear)
		fputs("\033[H\033[2J\n", stdout);
	if (r->display.metric_only) {
		/* perf prints the metric header once, before the first interval. */
		if (r->nr_intervals == 0)
			stat_display__metric_only_header(&r->display, true);
		stat_print__metric_only(&p, &ts);
	} else {
		if (r->nr_intervals % 25 == 0 || r->config->interval_clear)
			stat_display__interval_header(&r->display);
		r->not_counted |= stat_print__counters(&p, &ts);
	}
	r->nr_intervals++;
	stat_output__flush(&r->display);
}

void stat_output__prepare_summary(struct stat_run *r, double elapsed_ns)
{
	struct ember_evsel *pos;

	stat_shadow__reset(&r->shadow);
	stat_shadow__update_walltime(&r->shadow, elapsed_ns);
	ember_evlist__for_each(r->evlist, pos)
		stat_counter__reset_stats(stat_evsel(pos)->counter);
	stat_process__counters(r->evlist, r->config, &r->shadow, false, NULL);
}

static bool nmi_watchdog_enabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/nmi_watchdog", "re");
	int val = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &val) != 1)
		val = 0;
	fclose(f);
	return val > 0;
}

void stat_output__summary(struct stat_run *r)
{
	struct stat_print_ctx p = print_ctx(r);
	struct stat_footer f = {
		.wall_avg_ns = stat_stats__avg(&r->walltime),
		.wall_stddev_ns = stat_stats__stddev(&r->walltime),
		.null_run = r->config->null_run,
		.user_s = r->user_s,
		.sys_s = r->sys_s,
		.run_ns = r->run_ns,
		.nr_run_ns = r->nr_run_ns,
	};
	bool interval_summary = r->config->interval_ms && r->config->summary;

	if (r->config->quiet)
		return;
	r->display.run_count = r->runs > 1 ? r->runs : 1;
	/* perf shows the command's rusage only when it ran once, alone. */
	f.show_rusage = r->argc > 0 && !r->target->cpu_wide && !r->target->has_task &&
			r->display.run_count == 1 && r->config->run_count != 0;
	/* CSV totals after the intervals start with a "summary" column, as perf's. */
	r->display.summary_prefix = interval_summary && !r->config->no_csv_summary;
	stat_display__header(&r->display, r->target->what);
	if (r->display.metric_only) {
		stat_display__metric_only_header(&r->display, false);
		stat_print__metric_only(&p, NULL);
	} else {
		r->not_counted |= stat_print__counters(&p, NULL);
	}
	f.nmi_watchdog_hint = r->not_counted && nmi_watchdog_enabled();
	stat_display__footer(&r->display, &f);
	stat_output__flush(&r->display);
}
