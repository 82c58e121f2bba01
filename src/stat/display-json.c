// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf stat -j: one JSON object per line, perf 6.1's keys and order. Where
 * perf 6.1 prints "metric-unit" : "(null)" (a counter without a metric),
 * ember prints "" instead, as perf itself does for <not supported> lines:
 * same keys, no printf artefact. Strings are escaped, so every line parses.
 */
#include <inttypes.h>
#include "core/escape.h"
#include "stat/display.h"

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	if (s)
		escape_puts(out, s, ESCAPE_JSON_BYTES);
	fputc('"', out);
}

void stat_display_json__aggr_keys(const struct stat_display *d, const struct stat_row *row)
{
	if (stat_aggr__is_topology(d->aggr_mode)) {
		static const char *const key[] = {
			[STAT_AGGR_SOCKET] = "socket", [STAT_AGGR_DIE] = "die",
			[STAT_AGGR_CORE] = "core", [STAT_AGGR_NODE] = "node",
		};
		char label[64];

		stat_display__aggr_label(d, row, label, sizeof(label));
		fprintf(d->out, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ", key[d->aggr_mode],
			label, row->aggr_nr);
	} else if (d->aggr_mode == STAT_AGGR_NONE) {
		fprintf(d->out, "\"cpu\" : \"%d\", ", row->cpu);
	} else if (d->aggr_mode == STAT_AGGR_THREAD) {
		char buf[64];

		snprintf(buf, sizeof(buf), "%s-%d", row->comm ? row->comm : "", row->tid);
		fprintf(d->out, "\"thread\" : ");
		json_str(d->out, buf);
		fprintf(d->out, ", ");
	}
}

/* The opening brace with the interval and cpu/thread keys every object of the row starts with. */
static void print_prefix(const struct stat_display *d, const struct stat_row *row)
{
	fputc('{', d->out);
	if (row->interval)
		fprintf(d->out, "\"interval\" : %lu.%09lu, ", (unsigned long)row->interval->tv_sec,
			(unsigned long)row->interval->tv_nsec);
	stat_display_json__aggr_keys(d, row);
}

static void print_metric(const struct stat_display *d, const struct stat_metric *m)
{
	fprintf(d->out, "\"metric-value\" : %f, \"metric-unit\" : ", m->unit ? m->val : 0.0);
	json_str(d->out, m->unit ? m->unit : "");
	fputc('}', d->out);
}

void stat_display_json__row(const struct stat_display *d, const struct stat_row *row)
{
	static const struct stat_metric none = { .fmt = NULL, .unit = "" };
	const char *state = stat_display__state_str(row);

	print_prefix(d, row);
	if (state)
		fprintf(d->out, "\"counter-value\" : \"%s\", ", state);
	else
		fprintf(d->out, "\"counter-value\" : \"%f\", ", row->val);
	fprintf(d->out, "\"unit\" : ");
	json_str(d->out, row->unit);
	fprintf(d->out, ", \"event\" : ");
	json_str(d->out, row->name);
	fprintf(d->out, ", ");
	if (d->cgroups) {
		fprintf(d->out, "\"cgroup\" : ");
		json_str(d->out, row->cgroup ? row->cgroup : "");
		fprintf(d->out, ", ");
	}
	if (d->run_count > 1)
		fprintf(d->out, "\"variance\" : %.2f, ", row->noise_pct);
	fprintf(d->out, "\"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f, ", row->run,
		stat_display__pcnt_running(row->run, row->ena));

	if (state || row->nr_metrics < 1) {
		print_metric(d, &none);
	} else {
		print_metric(d, &row->metrics[0]);
		for (int i = 1; i < row->nr_metrics; i++) {
			fputc('\n', d->out);
			print_prefix(d, row);
			print_metric(d, &row->metrics[i]);
		}
	}
	fputc('\n', d->out);
}
