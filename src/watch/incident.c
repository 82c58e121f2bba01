// SPDX-License-Identifier: GPL-2.0-only
/*
 * An incident written: DIR/YYYYmmdd-HHMMSS-cpuN.data (perf.data) and .svg
 * (drawn as ember flamegraph draws it), one line on stderr, and --exec's
 * command started without waiting for it. What the incidents take on disk
 * is counted against --max-disk; a full disk (or any write error) costs
 * the incident, said in a warning, and never the watch.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "flamegraph/flamegraph.h"
#include "watch/watch.h"

/* "cpu1" or "cpu1+3": the cpus of the hits, ascending, into cpus[] too. */
static void cpu_names(const struct watch_incident *inc, int *cpus, char *sep_comma,
		      size_t size, char *sep_plus, size_t size2)
{
	size_t a = 0, b = 0;

	for (int i = 0; i < inc->nr_hits; i++)
		cpus[i] = inc->hits[i].cpu;
	for (int i = 1; i < inc->nr_hits; i++)
		for (int j = i; j > 0 && cpus[j - 1] > cpus[j]; j--) {
			int t = cpus[j];

			cpus[j] = cpus[j - 1];
			cpus[j - 1] = t;
		}
	sep_comma[0] = sep_plus[0] = 0;
	for (int i = 0; i < inc->nr_hits; i++) {
		int n = snprintf(sep_comma + a, size - a, "%s%d", i ? "," : "", cpus[i]);
		int m = snprintf(sep_plus + b, size2 - b, "%s%d", i ? "+" : "", cpus[i]);

		if (n > 0 && (size_t)n < size - a)
			a += (size_t)n;
		if (m > 0 && (size_t)m < size2 - b)
			b += (size_t)m;
	}
}

/* DIR/STAMP-cpuN (no suffix), free of the files of an earlier incident. */
static int base_name(char *buf, size_t size, const char *dir, const struct timespec *wall,
		     const char *cpus)
{
	struct tm tm;
	char stamp[32];
	struct stat st;

	localtime_r(&wall->tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (int n = 1; n < 100; n++) {
		char data[4200];

		if (n == 1)
			snprintf(buf, size, "%s/%s-cpu%s", dir, stamp, cpus);
		else
			snprintf(buf, size, "%s/%s-cpu%s-%d", dir, stamp, cpus, n);
		snprintf(data, sizeof(data), "%s.data", buf);
		if (stat(data, &st))
			return 0;
	}
	return -EEXIST;
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

static int draw(const char *data, const char *svg, const char *title)
{
	struct fg_opts o = {
		.output = svg,
		.quiet = true,
		.title = title,
	};
	const char *inputs[1] = { data };

	return fg_run(&o, inputs, 1);
}

/* --exec: sh -c CMD sh SVG DATA, with the incident in EMBER_WATCH_* variables. */
static void run_exec(const char *cmd, const char *svg, const char *data, const char *cpus,
		     const struct watch_hit *hit, uint64_t trigger_ns)
{
	pid_t pid = fork();
	char buf[64];

	if (pid < 0) {
		fprintf(stderr, "ember watch: warning: cannot run --exec: %s\n", strerror(errno));
		return;
	}
	if (pid)
		return;
	{
		sigset_t none;

		/* the watch reads its signals from a signalfd: give the command the defaults */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
	}
	setenv("EMBER_WATCH_SVG", svg, 1);
	setenv("EMBER_WATCH_DATA", data, 1);
	setenv("EMBER_WATCH_CPUS", cpus, 1);
	setenv("EMBER_WATCH_METRIC", watch_metric__name(hit->metric), 1);
	snprintf(buf, sizeof(buf), "%.0f", hit->pct);
	setenv("EMBER_WATCH_PCT", buf, 1);
	/* seconds.microseconds, as perf script prints sample times */
	snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, trigger_ns / 1000000000,
		 trigger_ns % 1000000000 / 1000);
	setenv("EMBER_WATCH_TIME", buf, 1);
	execl("/bin/sh", "sh", "-c", cmd, "sh", svg, data, (char *)NULL);
	_exit(127);
}

void watch_incident__reap(bool wait)
{
	while (waitpid(-1, NULL, wait ? 0 : WNOHANG) > 0)
		;
}

/* "-3.0 s": a sample time against the trigger's. */
static double rel_s(uint64_t t, uint64_t trigger)
{
	return t >= trigger ? (double)(t - trigger) / 1e9 : -(double)(trigger - t) / 1e9;
}

int watch_incident__write(struct watch_state *st, struct watch_capture *c,
			  const struct watch_incident *inc)
{
	const struct watch_opts *o = st->o;
	const struct watch_hit *top = &inc->hits[0];
	uint64_t before = (uint64_t)(o->before_s * 1e9);
	uint64_t from = inc->trigger_ns > before ? inc->trigger_ns - before : 0;
	char list[256], plus[256], base[4096], data[4200], svg[4200], title[512], when[32];
	struct watch_written w;
	struct tm tm;
	int *cpus = calloc((size_t)inc->nr_hits, sizeof(*cpus));
	int err;

	if (!cpus)
		return 1;
	cpu_names(inc, cpus, list, sizeof(list), plus, sizeof(plus));
	localtime_r(&inc->trigger_wall.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(when + strlen(when), sizeof(when) - strlen(when), ".%03ld",
		 inc->trigger_wall.tv_nsec / 1000000);
	if (o->max_disk && st->disk >= o->max_disk) {
		fprintf(stderr, "ember watch: cpu %s %s %.0f%% over %.1f s at %s; not written: "
			"the incidents take %" PRIu64 " bytes, --max-disk is %" PRIu64 "\n",
			list, watch_metric__name(top->metric), top->pct, o->window_s, when,
			st->disk, o->max_disk);
		free(cpus);
		return 1;
	}
	err = base_name(base, sizeof(base), o->dir, &inc->trigger_wall, plus);
	snprintf(data, sizeof(data), "%s.data", base);
	snprintf(svg, sizeof(svg), "%s.svg", base);
	if (!err)
		err = watch_capture__write(c, data, cpus, inc->nr_hits, from, st->argc, st->argv,
					   &w);
	if (err) {
		fprintf(stderr, "ember watch: warning: cpu %s %s %.0f%% at %s: cannot write %s: "
			"%s; still watching\n", list, watch_metric__name(top->metric), top->pct,
			when, data, strerror(-err));
		unlink(data);
		free(cpus);
		return 1;
	}
	snprintf(title, sizeof(title), "ember watch: cpu %s %s %.0f%% at %s", list,
		 watch_metric__name(top->metric), top->pct, when);
	if (draw(data, svg, title)) {
		fprintf(stderr, "ember watch: warning: no flame graph for %s; still watching\n",
			data);
		unlink(svg);
	}
	st->disk += file_size(data) + file_size(svg);
	st->written++;
	fprintf(stderr, "ember watch: cpu %s %s %.0f%% over %.1f s at %s; wrote %s (%" PRIu64
		" samples, %+.1f s to %+.1f s)\n", list, watch_metric__name(top->metric), top->pct,
		o->window_s, when, svg, w.samples,
		w.samples ? rel_s(w.first_ns, inc->trigger_ns) : 0.0,
		w.samples ? rel_s(w.last_ns, inc->trigger_ns) : 0.0);
	if (o->exec)
		run_exec(o->exec, svg, data, list, top, inc->trigger_ns);
	free(cpus);
	return 0;
}
