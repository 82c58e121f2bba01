// SPDX-License-Identifier: GPL-2.0-only
/*
 * The events ember top opens, configured as perf top 6.1 configures them:
 * perf's default "cycles" at the highest precise level (cpu-clock where
 * there is no PMU, as perf falls back), 4000 Hz, IP|TID|TIME|PERIOD
 * (+CPU system-wide, +CALLCHAIN with -g, IDENTIFIER for several events),
 * the side-band bits (mmap, comm, task) on the first, inherited by
 * children unless -i; on every cpu, or on the -p/-t/-u threads.
 */
#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <ember/event.h>
#include "top/top.h"
#include "util/default-event.h"
#include "util/sample-rate.h"

static int top_err(const char *msg)
{
	fprintf(stderr, "ember top: %s\n", msg);
	return 1;
}

static void config_evsel(struct top *t, struct ember_evsel *evsel, bool first, bool per_cpu)
{
	struct perf_event_attr *a = ember_evsel__attr(evsel);

	a->sample_id_all = 1;
	a->inherit = !t->o.no_inherit;
	a->disabled = 1;
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if (per_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (t->hopts.use_callchain)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	sample_rate__config(a, t->o.period_given, t->o.period, t->o.freq_given,
			    t->o.freq_given ? t->o.freq : TOP_DEFAULT_FREQ);
	if (first) {
		a->mmap = 1;
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
	}
}

/* perf's fallbacks: cycles to cpu-clock without a PMU, user only when paranoid. */
static bool fallback(struct ember_evsel *evsel, int err)
{
	struct perf_event_attr *a = ember_evsel__attr(evsel);
	char name[128];

	if ((err == -ENOENT || err == -ENXIO || err == -ENODEV || err == -EOPNOTSUPP) &&
	    a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		ember_event_names__attr_name(a, name, sizeof(name));
		return ember_evsel__set_name(evsel, name) == 0;
	}
	if ((err == -EACCES || err == -EPERM) && !a->exclude_kernel && !a->exclude_user &&
	    ember_event__paranoid() > 1)
		return ember_evsel__exclude_kernel(evsel) == 0;
	return false;
}

/*
 * perf's -u: the processes the user (a name or a number) owns at the
 * start, ember's own aside, as a -p list in *list (the caller frees it).
 * 0, or an exit status after a message.
 */
static int uid_pid_list(const char *user, char **list)
{
	struct passwd *pw = getpwnam(user);
	size_t len = 0, cap = 0;
	struct dirent *d;
	char *end, msg[256];
	uid_t uid;
	DIR *dir;

	uid = pw ? pw->pw_uid : (uid_t)strtoul(user, &end, 10);
	if (!pw && (!*user || *end)) {
		snprintf(msg, sizeof(msg), "no such user: %s", user);
		return top_err(msg);
	}
	dir = opendir("/proc");
	if (!dir)
		return top_err("cannot list /proc");
	*list = NULL;
	while ((d = readdir(dir)) != NULL) {
		char path[64];
		struct stat st;
		long pid = strtol(d->d_name, &end, 10);

		if (*end || pid <= 0 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld", pid);
		if (stat(path, &st) || st.st_uid != uid)
			continue;
		if (len + 24 > cap) {
			char *n = realloc(*list, cap = cap ? 2 * cap : 4096);

			if (!n) {
				closedir(dir);
				return top_err("out of memory");
			}
			*list = n;
		}
		len += snprintf(*list + len, cap - len, "%s%ld", len ? "," : "", pid);
	}
	closedir(dir);
	if (!*list) {
		snprintf(msg, sizeof(msg), "user %s runs no process", user);
		return top_err(msg);
	}
	return 0;
}

static int target_maps(struct top *t, struct ember_cpu_map **cpus,
		       struct ember_thread_map **threads)
{
	const char *list = t->o.pid ? t->o.pid : t->o.tid;
	char msg[256];

	if (t->o.uid) {
		if (uid_pid_list(t->o.uid, &t->uid_pids))
			return 1;
		list = t->uid_pids;
	}

	if (list) {
		*threads = t->o.tid ? ember_thread_map__new_tids(list)
				    : ember_thread_map__new_pids(list);
		/* -u: one of the user's processes may exit meanwhile; list them again */
		for (int tries = 0; !*threads && t->o.uid && tries < 10; tries++) {
			free(t->uid_pids);
			t->uid_pids = NULL;
			if (uid_pid_list(t->o.uid, &t->uid_pids))
				return 1;
			list = t->uid_pids;
			*threads = ember_thread_map__new_pids(list);
		}
		if (!*threads || !ember_thread_map__nr(*threads)) {
			snprintf(msg, sizeof(msg), "no such %s: %s (is it still running?)",
				 t->o.tid ? "thread" : "process", t->o.uid ? t->o.uid : list);
			return top_err(msg);
		}
		/*
		 * perf top -p opens each thread's event on any cpu (-1), and
		 * the kernel maps no ring buffer for an inherited event of
		 * any cpu (perf_mmap()), so perf leaves inherit off: a thread
		 * or child born after the start is never sampled, and a
		 * process whose work moved to a new thread shows "Samples: 0".
		 * Here the threads' events are opened on every cpu, each
		 * cpu's into its buffer, inherited, as perf record -p does.
		 */
		*cpus = ember_cpu_map__new(t->o.cpu_list);
	} else {
		*threads = ember_thread_map__new_any();
		*cpus = ember_cpu_map__new(t->o.cpu_list);
	}
	if (!*cpus) {
		snprintf(msg, sizeof(msg), "invalid cpu list '%s'%s", t->o.cpu_list,
			 errno == ENODEV ? ": a cpu there is offline or absent" : "");
		return top_err(msg);
	}
	return *threads ? 0 : top_err("out of memory");
}

/* The processes -p/-t name, to stop once all of them are gone. */
static int note_targets(struct top *t, struct ember_thread_map *threads)
{
	int n = ember_thread_map__nr(threads);

	if (ember_thread_map__is_any(threads))
		return 0;
	t->target_pids = calloc(n, sizeof(*t->target_pids));
	if (!t->target_pids)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		t->target_pids[i] = ember_thread_map__pid(threads, i);
	t->nr_target_pids = n;
	return 0;
}

int top_events__open(struct top *t)
{
	struct ember_cpu_map *cpus = NULL;
	struct ember_thread_map *threads = NULL;
	struct ember_evsel *pos, *failed;
	bool first = true, per_cpu;
	size_t pages;
	char msg[512];
	int err, ret = 1;

	if (!t->o.events_given && default_event__add(t->evlist))
		return top_err("out of memory");
	if (target_maps(t, &cpus, &threads))
		goto out;
	/* perf samples the cpu when it watches cpus, not processes */
	per_cpu = !t->o.pid && !t->o.tid && !t->o.uid;
	ember_evlist__for_each(t->evlist, pos) {
		config_evsel(t, pos, first, per_cpu);
		first = false;
	}
	if (ember_evlist__nr_entries(t->evlist) > 1)
		ember_evlist__for_each(t->evlist, pos)
			ember_evsel__attr(pos)->sample_type |= PERF_SAMPLE_IDENTIFIER;
	ember_evlist__set_maps(t->evlist, cpus, threads);
	if (note_targets(t, threads)) {
		top_err("out of memory");
		goto out;
	}
	while ((err = ember_evlist__open(t->evlist)) < 0) {
		failed = ember_evlist__failed(t->evlist);
		if (failed && fallback(failed, err))
			continue;
		if (err == -ESRCH) {
			snprintf(msg, sizeof(msg), "no such process: %s (it exited?)",
				 t->o.pid ? t->o.pid : t->o.tid ? t->o.tid : t->uid_pids);
			top_err(msg);
			goto out;
		}
		fprintf(stderr, "ember top: %s\n",
			ember_evsel__strerror_open(failed, err, msg, sizeof(msg)));
		goto out;
	}
	/* perf top's default: 512 KiB a buffer; -m in pages */
	pages = t->o.mmap_pages ? t->o.mmap_pages : 512 * 1024 / (size_t)sysconf(_SC_PAGESIZE);
	err = ember_evlist__mmap(t->evlist, pages);
	if (err) {
		snprintf(msg, sizeof(msg), "cannot map the ring buffers (%zu pages each): %s%s",
			 pages, strerror(-err),
			 err == -EPERM ? "; try fewer pages with -m" : "");
		top_err(msg);
		goto out;
	}
	ret = 0;
out:
	ember_cpu_map__put(cpus);
	ember_thread_map__put(threads);
	return ret;
}
