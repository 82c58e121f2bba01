// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember watch: unattended capture of sporadic cpu time spikes (perfSys).
 * Every 100 ms each watched cpu's time split is read from /proc/stat;
 * meanwhile cpu-clock samples with callchains fill a backward ring buffer
 * per cpu that nobody reads. When a cpu's sys (user, iowait) share over
 * the window passes its threshold, the tasks are described as they are,
 * --after seconds go by, and the triggering cpus' buffers become an
 * incident (src/watch/incident.c): --before seconds before the trigger to
 * --after seconds after it. SIGINT, SIGTERM and SIGHUP finish an incident
 * in progress at once and end the watch with status 0.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/clock.h"
#include "builtin.h"
#include "record/signals.h"
#include "watch/watch.h"

/* One line for a person: why the events did not open, and what to do. */
static void open_error(int err)
{
	if (err == -EACCES || err == -EPERM)
		fprintf(stderr, "ember watch: cannot sample every cpu: %s; run as root, or lower "
			"/proc/sys/kernel/perf_event_paranoid to -1 (or give CAP_PERFMON); without "
			"CAP_IPC_LOCK the buffers must fit perf_event_mlock_kb: a lower -F, "
			"--before or -m\n", strerror(-err));
	else if (err == -ENOMEM)
		fprintf(stderr, "ember watch: cannot map the ring buffers: %s; try a lower -F, "
			"--before or -m\n", strerror(-err));
	else
		fprintf(stderr, "ember watch: cannot open cpu-clock on the cpus: %s\n",
			strerror(-err));
}

static void started(const struct watch_opts *o, const struct ember_cpu_map *cpus)
{
	const char *sep = "";

	fprintf(stderr, "ember watch: watching %d cpu%s for", ember_cpu_map__nr(cpus),
		ember_cpu_map__nr(cpus) == 1 ? "" : "s");
	for (int m = 0; m < WATCH_NR_METRICS; m++) {
		if (o->threshold[m] < 0)
			continue;
		fprintf(stderr, "%s %s >= %.0f%%", sep, watch_metric__name(m), o->threshold[m]);
		sep = " or";
	}
	fprintf(stderr, " over %.1f s; keeping %.1f s before and %.1f s after at %u Hz in %s\n",
		o->window_s, o->before_s, o->after_s, o->freq, o->dir);
}

struct watch {
	struct watch_opts o;
	struct watch_state st;
	struct watch_capture cap;
	struct watch_trigger *tr;
	struct record_signals sig;
	struct ember_cpu_map *cpus;
	struct watch_hit *hits;
	struct watch_incident inc;
	bool capturing;
	bool reopen;			/* a cpu came back online: new events at the next chance */
	uint64_t after_ns;		/* the incident in progress ends here */
	uint64_t quiet_until_ns;	/* --cooldown */
};

/* A tick: read the cpus, start an incident on a hit, finish one whose time is up. */
static int tick(struct watch *w, uint64_t now)
{
	int n, back;

	n = watch_trigger__check(w->tr, now, w->hits, &back);
	if (n < 0) {
		fprintf(stderr, "ember watch: cannot read /proc/stat: %s\n", strerror(-n));
		return 1;
	}
	w->reopen |= back >= 0;
	if (w->reopen && !w->capturing) {
		int err = watch_capture__reopen(&w->cap, &w->o, w->cpus);

		w->reopen = false;
		if (err) {
			fprintf(stderr, "ember watch: cannot open the events again for a cpu back "
				"online: %s\n", strerror(-err));
			return 1;
		}
	}
	if (w->capturing && now >= w->after_ns) {
		w->capturing = false;
		watch_incident__write(&w->st, &w->cap, &w->inc);
		w->quiet_until_ns = now + (uint64_t)(w->o.cooldown_s * 1e9);
		watch_trigger__reset(w->tr);
		return w->o.max && w->st.written >= w->o.max ? -1 : 0;
	}
	if (w->capturing || !n || now < w->quiet_until_ns)
		return 0;
	w->inc.nr_hits = n;
	w->inc.trigger_ns = now;
	clock_gettime(CLOCK_REALTIME, &w->inc.trigger_wall);
	memcpy(w->inc.hits, w->hits, (size_t)n * sizeof(*w->hits));
	n = watch_capture__synthesize(&w->cap);
	if (n)
		fprintf(stderr, "ember watch: warning: cannot describe the tasks: %s; their "
			"samples will not resolve\n", strerror(-n));
	w->capturing = true;
	w->after_ns = now + (uint64_t)(w->o.after_s * 1e9);
	return 0;
}

/* Until --max incidents or a signal. Returns the exit code. */
static int run(struct watch *w)
{
	uint64_t next = clock_now_ns();

	for (;;) {
		struct pollfd pfd = { .fd = w->sig.fd, .events = POLLIN };
		uint64_t now = clock_now_ns();
		bool child = false;
		int stop, ret;

		if (now < next)
			poll(&pfd, 1, (int)((next - now + 999999) / 1000000));
		stop = record_signals__read(&w->sig, &child, NULL);
		if (child)
			watch_incident__reap(false);
		if (stop) {
			/* flush what the incident in progress has so far */
			if (w->capturing)
				watch_incident__write(&w->st, &w->cap, &w->inc);
			return 0;
		}
		now = clock_now_ns();
		if (now < next)
			continue;
		ret = tick(w, now);
		if (ret)
			return ret < 0 ? 0 : ret;
		next += WATCH_TICK_MS * 1000000ull;
		/* a stopped (or starved) watch does not run the missed ticks in a burst */
		if (next < now)
			next = now + WATCH_TICK_MS * 1000000ull;
	}
}

int cmd_watch(int argc, const char **argv)
{
	struct watch w = { .sig = { .fd = -1 } };
	int ret, err;

	ret = watch_options__parse(&w.o, argc, argv);
	if (ret >= 0)
		return ret;
	w.st.o = &w.o;
	w.st.argc = argc;
	w.st.argv = argv;
	w.cpus = ember_cpu_map__new(w.o.cpus);
	if (!w.cpus) {
		fprintf(stderr, "ember watch: -C %s: not a list of online cpus\n", w.o.cpus);
		return 2;
	}
	ret = 1;
	w.hits = calloc((size_t)ember_cpu_map__nr(w.cpus), sizeof(*w.hits));
	w.inc.hits = calloc((size_t)ember_cpu_map__nr(w.cpus), sizeof(*w.hits));
	w.tr = watch_trigger__new(&w.o, w.cpus);
	if (!w.hits || !w.inc.hits || !w.tr) {
		fprintf(stderr, "ember watch: out of memory\n");
		goto out;
	}
	err = watch_capture__open(&w.cap, &w.o, w.cpus);
	if (err) {
		open_error(err);
		goto out;
	}
	err = record_signals__init(&w.sig, false);
	if (err) {
		fprintf(stderr, "ember watch: cannot set up signal handling: %s\n", strerror(-err));
		goto out;
	}
	if (!w.o.quiet)
		started(&w.o, w.cpus);
	ret = run(&w);
	watch_incident__reap(true);
out:
	record_signals__exit(&w.sig);
	watch_capture__close(&w.cap);
	watch_trigger__delete(w.tr);
	free(w.hits);
	free(w.inc.hits);
	ember_cpu_map__put(w.cpus);
	return ret;
}
