// SPDX-License-Identifier: GPL-2.0-only
/*
 * From counters to printed rows: every event's lines, the interval
 * blocks and the summary.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "stat/events.h"
#include "stat/print.h"

/* Every event's rows for the display. */

/* Fill the cpu, thread or topology columns of a slot's row. */
static void slot_identity(const struct stat_print_ctx *p, int slot, struct stat_row *row)
{
	const struct stat_target *t = p->target;

	switch (p->config->aggr_mode) {
	case STAT_AGGR_NONE:
		row->cpu = ember_cpu_map__cpu(t->cpus, slot);
		break;
	case STAT_AGGR_THREAD:
		row->tid = t->threads ? ember_thread_map__pid(t->threads, slot) : -1;
		row->comm = stat_target__comm(t, slot);
		break;
	case STAT_AGGR_SOCKET:
	case STAT_AGGR_DIE:
	case STAT_AGGR_CORE:
	case STAT_AGGR_NODE:
		if (slot < t->aggr.nr) {
			row->aggr_id = &t->aggr.ids[slot];
			row->aggr_nr = t->aggr.nr_cpus[slot];
		}
		break;
	default:
		break;
	}
}

/*
 * Print the line of `evsel`'s counter slot `slot`, labelled as the
 * aggregation slot `label_slot`. `absent`: the event does not count in
 * that slot at all (a tool event outside its one cpu): "<not counted>"
 * over 0 cpus, as perf prints it.
 */
static bool print_slot(const struct stat_print_ctx *p, struct ember_evsel *evsel, int slot,
		       int label_slot, bool absent, const struct timespec *interval)
{
	const struct stat_evsel *se = stat_evsel(evsel);
	const struct stat_slot *s = &se->counter->slots[slot];
	bool global = p->config->aggr_mode == STAT_AGGR_GLOBAL;
	double avg = stat_stats__avg(&s->res[0]);
	double ena = stat_stats__avg(&s->res[1]), run = stat_stats__avg(&s->res[2]);
	struct stat_row row = {
		.interval = interval,
		.unit = se->unit,
		.name = ember_evsel__name(evsel),
		.cgroup = se->cgroup,
		.integral = se->scale == (double)(long long)se->scale,
	};
	bool not_counted = false;

	/*
	 * perf 6.1 keeps the statistics over -r runs for the global count
	 * only: a line per cpu, thread or topology slot shows the last run,
	 * with no noise.
	 */
	if (!global) {
		avg = (double)s->counts.val;
		ena = (double)s->counts.ena;
		run = (double)s->counts.run;
	} else {
		row.noise_pct = stat_stats__rel_stddev(stat_stats__stddev(&s->res[0]), avg);
	}
	row.val = avg * se->scale;
	row.run = (uint64_t)run;
	row.ena = (uint64_t)ena;
	slot_identity(p, label_slot, &row);
	if (absent) {
		row.aggr_nr = 0;
		row.state = STAT_ROW_NOT_COUNTED;
		row.run = row.ena = 0;
	} else if (!se->supported && se->tool == EMBER_TOOL_NONE) {
		row.state = STAT_ROW_NOT_SUPPORTED;
		row.run = row.ena = 0;
	} else if (!run || !ena) {
		row.state = STAT_ROW_NOT_COUNTED;
		not_counted = true;
	} else {
		row.state = STAT_ROW_COUNTED;
		row.nr_metrics = stat_metrics__metrics(p->metrics, se->kind, se->ctx, slot, row.val,
						       se->scale, row.metrics);
	}
	if (se->tool != EMBER_TOOL_NONE && !global && !absent)
		row.aggr_nr = 1;
	stat_display__row(p->display, &row);
	return not_counted;
}

/* --per-socket and the like: slot by slot, every event in each, as perf orders them. */
static bool print_topology(const struct stat_print_ctx *p, const struct timespec *interval)
{
	const struct stat_aggr_map *aggr = &p->target->aggr;
	struct ember_evsel *pos;
	bool not_counted = false;
	/* A tool event counts once, on the first cpu: its slot shows it. */
	int tool_slot = aggr->nr_map_cpus ? aggr->cpu_slot[0] : 0;

	for (int s = 0; s < aggr->nr; s++) {
		ember_evlist__for_each(p->evlist, pos) {
			const struct stat_counter *c = stat_evsel(pos)->counter;

			if (c->nr_slots == aggr->nr)
				not_counted |= print_slot(p, pos, s, s, false, interval);
			else
				not_counted |= print_slot(p, pos, 0, s, s != tool_slot, interval);
		}
	}
	return not_counted;
}

static int cmp_slot_val(const void *a, const void *b, void *arg)
{
	const struct stat_counter *c = arg;
	int x = *(const int *)a, y = *(const int *)b;
	uint64_t vx = c->slots[x].counts.val, vy = c->slots[y].counts.val;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	return x - y;
}

/*
 * --per-thread: each event's threads by count, the largest first, as perf
 * sorts them; system-wide, threads that counted nothing are left out.
 */
static bool print_threads(const struct stat_print_ctx *p, const struct timespec *interval)
{
	struct ember_evsel *pos;
	bool not_counted = false;

	ember_evlist__for_each(p->evlist, pos) {
		struct stat_counter *c = stat_evsel(pos)->counter;
		int *order = malloc((c->nr_slots ? c->nr_slots : 1) * sizeof(*order));

		if (!order)
			return not_counted;
		for (int s = 0; s < c->nr_slots; s++)
			order[s] = s;
		if (c->nr_slots > 1)
			qsort_r(order, c->nr_slots, sizeof(*order), cmp_slot_val, c);
		for (int i = 0; i < c->nr_slots; i++) {
			if (p->target->all_threads && !c->slots[order[i]].counts.val)
				continue;
			not_counted |= print_slot(p, pos, order[i], order[i], false, interval);
		}
		free(order);
	}
	return not_counted;
}

bool stat_print__counters(const struct stat_print_ctx *p, const struct timespec *interval)
{
	struct ember_evsel *pos;
	bool not_counted = false;

	if (stat_aggr__is_topology(p->config->aggr_mode))
		return print_topology(p, interval);
	if (p->config->aggr_mode == STAT_AGGR_THREAD)
		return print_threads(p, interval);
	ember_evlist__for_each(p->evlist, pos) {
		const struct stat_counter *c = stat_evsel(pos)->counter;

		for (int s = 0; s < c->nr_slots; s++)
			not_counted |= print_slot(p, pos, s, s, false, interval);
	}
	return not_counted;
}

void stat_print__metric_only(const struct stat_print_ctx *p, const struct timespec *interval)
{
	const struct stat_target *t = p->target;
	int nr = 1;

	switch (p->config->aggr_mode) {
	case STAT_AGGR_NONE:
		nr = ember_cpu_map__nr(t->cpus);
		break;
	case STAT_AGGR_THREAD:
		nr = t->threads ? ember_thread_map__nr(t->threads) : 0;
		break;
	case STAT_AGGR_GLOBAL:
		break;
	default:
		nr = t->aggr.nr;
		break;
	}
	for (int s = 0; s < nr; s++) {
		struct stat_row row = { .interval = interval };

		slot_identity(p, s, &row);
		stat_display__metric_only_row(p->display, &row);
	}
}

/* Printing ember stat's interval blocks and its final summary. */

#define NSEC_PER_MSEC 1000000ULL

/* A full disk must not pass unnoticed: keep the first flush error's errno for the end. */
int stat_print__flush(struct stat_display *d)
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
		.config = r->config, .evlist = r->evlist, .metrics = &r->metrics,
		.display = &r->display, .target = r->target,
	};
	return p;
}

void stat_print__interval(struct stat_run *r, const struct stat_tool_times *tools,
			  uint64_t elapsed_ns)
{
	struct stat_print_ctx p = print_ctx(r);
	struct timespec ts = { .tv_sec = (time_t)(elapsed_ns / 1000000000ULL),
			       .tv_nsec = (long)(elapsed_ns % 1000000000ULL) };
	struct ember_evsel *pos;

	stat_counts__read(r->evlist, tools);
	stat_metrics__reset(&r->metrics);
	/* perf divides by the interval asked for, not the one measured. */
	stat_metrics__update_walltime(&r->metrics, (double)r->config->interval_ms * NSEC_PER_MSEC);
	ember_evlist__for_each(r->evlist, pos)
		stat_counter__reset_stats(stat_evsel(pos)->counter);
	stat_counts__process(r->evlist, r->config, &r->metrics, true, r->display.out);
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
	stat_print__flush(&r->display);
}

void stat_print__prepare_summary(struct stat_run *r, double elapsed_ns)
{
	struct ember_evsel *pos;

	stat_metrics__reset(&r->metrics);
	stat_metrics__update_walltime(&r->metrics, elapsed_ns);
	ember_evlist__for_each(r->evlist, pos)
		stat_counter__reset_stats(stat_evsel(pos)->counter);
	stat_counts__process(r->evlist, r->config, &r->metrics, false, NULL);
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

void stat_print__summary(struct stat_run *r)
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
	stat_print__flush(&r->display);
}

int stat_print__open_output(struct stat_config *c, bool *close_out)
{
	*close_out = false;
	c->out = stderr;
	if (c->output_name) {
		time_t now = time(NULL);

		c->out = fopen(c->output_name, c->append ? "ae" : "we");
		if (!c->out) {
			fprintf(stderr, "ember stat: cannot open '%s': %s\n", c->output_name,
				strerror(errno));
			return 1;
		}
		*close_out = true;
		fprintf(c->out, "# started on %s\n", ctime(&now));
	} else if (c->log_fd >= 0) {
		c->out = fdopen(c->log_fd, c->append ? "a" : "w");
		if (!c->out) {
			fprintf(stderr, "ember stat: cannot write to fd %d: %s\n", c->log_fd,
				strerror(errno));
			return 1;
		}
		*close_out = true;
	}
	return 0;
}

int stat_print__close_output(struct stat_config *c, const struct stat_display *d, bool close_out,
			     int ret)
{
	int err = d->write_err;

	errno = 0;
	if ((fflush(c->out) == EOF || ferror(c->out)) && !err)
		err = errno ? errno : EIO;
	if (close_out && fclose(c->out) == EOF && !err)
		err = errno ? errno : EIO;
	if (!err)
		return ret;
	if (c->output_name)
		fprintf(stderr, "ember stat: cannot write the counts to '%s': %s\n",
			c->output_name, strerror(err));
	else if (c->log_fd >= 0)
		fprintf(stderr, "ember stat: cannot write the counts to fd %d: %s\n", c->log_fd,
			strerror(err));
	return ret ? ret : 1;
}
