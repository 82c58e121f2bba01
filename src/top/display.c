// SPDX-License-Identifier: GPL-2.0-only
/*
 * A refresh of perf top --stdio's screen: the console cleared, perf's
 * header line (samples a second since the last refresh, the kernel's and
 * the exact ones' shares, lost and dropped, the event, the target), a
 * dotted line the terminal's width, then the entries a screen holds,
 * each cut at its width, as perf's hists__fprintf() prints them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "report/report.h"
#include "top/top.h"

static void header(struct top *t, FILE *fp)
{
	struct ember_evsel *first = ember_evlist__next(t->evlist, NULL);
	const struct perf_event_attr *a = ember_evsel__attr(first);
	struct ember_cpu_map *cpus = ember_evsel__cpus(first);
	int nr_cpus = ember_cpu_map__nr(cpus);
	float per_sec = 0, kper_sec = 0, exact = 0, kpct = 0;

	if (t->samples) {
		per_sec = (float)t->samples / t->o.delay_secs;
		kper_sec = (float)t->kernel_samples / t->o.delay_secs;
		exact = 100.0 * t->exact_samples / t->samples;
	}
	if (per_sec)
		kpct = 100.0 * kper_sec / per_sec;
	fprintf(fp,
		"   PerfTop:%8.0f irqs/sec  kernel:%4.1f%%  exact: %4.1f%% lost: %" PRIu64
		"/%" PRIu64 " drop: %" PRIu64 "/%" PRIu64 " [",
		per_sec, kpct, exact, t->lost, t->lost_total, (uint64_t)0, (uint64_t)0);
	/* perf says "Hz" unless -c was given, whatever the event's own period ("1Hz sched:...") */
	if (ember_evlist__nr_entries(t->evlist) == 1)
		fprintf(fp, "%" PRIu64 "%s ", (uint64_t)a->sample_period,
			t->o.period_given ? "" : "Hz");
	fprintf(fp, "%s], ", ember_evsel__name(first));
	if (t->o.pid)
		fprintf(fp, " (target_pid: %s", t->o.pid);
	else if (t->o.tid)
		fprintf(fp, " (target_tid: %s", t->o.tid);
	else if (t->o.uid)
		fprintf(fp, " (uid: %s", t->o.uid);
	else
		fprintf(fp, " (all");
	/* perf's -u watches its threads on one "any cpu" */
	if (t->o.uid)
		nr_cpus = 1;
	if (t->o.cpu_list)
		fprintf(fp, ", CPU%s: %s)\n", nr_cpus > 1 ? "s" : "", t->o.cpu_list);
	else if (t->o.pid || t->o.tid)
		fprintf(fp, ")\n");
	else
		fprintf(fp, ", %d CPU%s)\n", nr_cpus, nr_cpus > 1 ? "s" : "");
	t->samples = t->kernel_samples = t->exact_samples = t->lost = 0;
}

int top_display__refresh(struct top *t)
{
	struct report_print_opts po = {
		.min_percent = t->o.min_percent,
		.max_cols = t->cols - 1,
	};
	int width = t->cols - 1, err;
	size_t rows;

	err = top_live__drain(t);
	if (!err)
		err = top_display__resort(t);
	if (err)
		return err;
	fputs("\033[H\033[2J\n", stdout);
	header(t, stdout);
	for (int i = 0; i < width; i++)
		putchar('-');
	putchar('\n');
	/* perf's warning, once for each new count of LOST records, its line ended by the next */
	if (t->nr_lost_warned != t->nr_lost_records) {
		t->nr_lost_warned = t->nr_lost_records;
		fprintf(stdout, "WARNING: LOST %d chunks, Check IO/CPU overload",
			(int)t->nr_lost_warned);
	}
	putchar('\n');
	rows = t->o.entries > 0 ? (size_t)t->o.entries : t->rows > 5 ? (size_t)(t->rows - 5) : 1;
	po.max_rows = rows;
	if (t->nr_hists)
		report__fprintf_hist(t->hists[0], &po, stdout);
	fflush(stdout);
	/*
	 * perf decays the entries shown before it adds the samples that came
	 * since; decaying them now, before the next samples come, is the same
	 */
	return top_display__decay(t);
}

int top_display__resort(struct top *t)
{
	int err = 0;

	for (int i = 0; !err && i < t->nr_hists; i++)
		err = ember_hist__resort(t->hists[i]);
	return err;
}

int top_display__decay(struct top *t)
{
	int err = 0;

	for (int i = 0; !err && i < t->nr_hists; i++) {
		if (t->o.zero)
			ember_hist__clear(t->hists[i]);
		else
			err = ember_hist__decay(t->hists[i], t->o.hide_user, t->o.hide_kernel);
	}
	return err;
}
