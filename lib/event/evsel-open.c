// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Opening and reading one event selector: perf_event_open() for every
 * cpu x thread, with the fallbacks perf makes (step precise_ip down for
 * ':P', raise RLIMIT_NOFILE on EMFILE, drop exclude_guest when the kernel
 * refuses it, skip threads that exited between listing and opening), and
 * counter reads per read_format.
 * Explaining a failure to a person lives in evsel-strerror.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <ember/event.h>
#include "core/log.h"
#include "event/evlist.h"
#include "event/evsel.h"

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/*
 * Raise the soft RLIMIT_NOFILE to the hard limit, as perf does on EMFILE.
 * Returns 0 when the limit went up, -EMFILE when it already was at the max.
 */
static int raise_nofile_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	if (rl.rlim_cur >= rl.rlim_max)
		return -EMFILE;
	pr_debug("raising RLIMIT_NOFILE from %llu to %llu\n", (unsigned long long)rl.rlim_cur,
		 (unsigned long long)rl.rlim_max);
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	return 0;
}

/*
 * The maps an evsel opens on: the caller's, else the evsel's own (a PMU
 * with a cpumask), else the list's. With nothing set it is a per-thread
 * event on the calling thread, or cpu-wide when only cpus are known.
 * Returns new references in *cpus and *threads, or -ENOMEM.
 */
static int resolve_maps(const struct ember_evsel *evsel, struct ember_cpu_map **cpus,
			struct ember_thread_map **threads)
{
	struct ember_cpu_map *c = *cpus;
	struct ember_thread_map *t = *threads;

	if (!c)
		c = evsel->own_cpus ? evsel->own_cpus : evsel->evlist ? evsel->evlist->cpus : NULL;
	if (!t)
		t = evsel->own_threads ? evsel->own_threads :
		    evsel->evlist ? evsel->evlist->threads : NULL;

	c = c ? ember_cpu_map__get(c) : ember_cpu_map__new_any();
	if (!c)
		return -ENOMEM;
	if (t)
		t = ember_thread_map__get(t);
	else
		t = ember_cpu_map__is_any(c) ? ember_thread_map__new_pid(0) :
					       ember_thread_map__new_any();
	if (!t) {
		ember_cpu_map__put(c);
		return -ENOMEM;
	}
	*cpus = c;
	*threads = t;
	return 0;
}

/* Per-open fallback state: each fallback is tried at most once. */
struct open_state {
	bool raised_nofile;
	bool dropped_guest;
	bool old_exclude_guest, old_exclude_host;
	int precise_orig;	/* :P: the precise_ip we started from, -1 before any step */
	int opened;
};

/*
 * ':P' asks for the most precise level the PMU has: step precise_ip down
 * on failure, as perf does, and restore it when even 0 fails.
 */
static bool precise_fallback(struct ember_evsel *evsel, struct open_state *st)
{
	struct perf_event_attr *attr = &evsel->attr;

	if (!evsel->precise_max)
		return false;
	if (!attr->precise_ip) {
		if (st->precise_orig >= 0)
			attr->precise_ip = (unsigned int)st->precise_orig;
		return false;
	}
	if (st->precise_orig < 0)
		st->precise_orig = (int)attr->precise_ip;
	attr->precise_ip--;
	pr_debug("%s: decreasing precise_ip to %u\n", ember_evsel__name(evsel), attr->precise_ip);
	return true;
}

/*
 * Decide whether a failed open at one position may be retried after a
 * fallback. Returns true to retry.
 */
static bool open_fallback(struct ember_evsel *evsel, struct open_state *st, int err)
{
	struct perf_event_attr *attr = &evsel->attr;

	/* Fewer fds or a live task is what those need, not less precision. */
	if (err != -ESRCH && err != -EMFILE && precise_fallback(evsel, st))
		return true;
	if (err == -EMFILE && !st->raised_nofile) {
		st->raised_nofile = true;
		return raise_nofile_limit() == 0;
	}
	/* Kernels (or PMUs) without guest/host filtering refuse exclude_guest. */
	if ((err == -EINVAL || err == -EOPNOTSUPP) && !st->opened && !st->dropped_guest &&
	    (attr->exclude_guest || attr->exclude_host)) {
		st->dropped_guest = true;
		st->old_exclude_guest = attr->exclude_guest;
		st->old_exclude_host = attr->exclude_host;
		attr->exclude_guest = attr->exclude_host = 0;
		pr_debug("%s: switching off exclude_guest, exclude_host\n",
			 ember_evsel__name(evsel));
		return true;
	}
	return false;
}

/* Set the filter and fetch the sample id of a freshly opened fd. Returns 0 or -errno. */
static int setup_fd(struct ember_evsel *evsel, int fd, uint64_t *id)
{
	if (evsel->filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, evsel->filter) < 0) {
		int err = -errno;

		pr_warn("%s: cannot set filter '%s': %s\n", ember_evsel__name(evsel),
			evsel->filter, strerror(-err));
		return err;
	}
	/* Kernels before 3.12 lack PERF_EVENT_IOC_ID: ids then stay 0. */
	if (ioctl(fd, PERF_EVENT_IOC_ID, id) < 0)
		pr_debug("%s: PERF_EVENT_IOC_ID: %s\n", ember_evsel__name(evsel), strerror(errno));
	return 0;
}

/*
 * Open the evsel on cpus x threads (NULL: see resolve_maps). A group
 * member uses its leader's fd at the same position as group_fd, so the
 * leader must be open first. Returns 0 or -errno, also kept in
 * evsel->open_err; on failure nothing stays open.
 */
int ember_evsel__open(struct ember_evsel *evsel, struct ember_cpu_map *cpus,
		      struct ember_thread_map *threads)
{
	const struct ember_evsel *leader = evsel->leader;
	struct open_state st = { .precise_orig = -1 };
	int nr_cpus, nr_threads, err;

	if (evsel->fds)
		ember_evsel__close(evsel);
	/* ':P' starts from the highest level and steps down (see precise_fallback). */
	if (evsel->precise_max && !evsel->attr.precise_ip)
		evsel->attr.precise_ip = 3;
	err = resolve_maps(evsel, &cpus, &threads);
	if (err)
		return evsel->open_err = err;
	nr_cpus = ember_cpu_map__nr(cpus);
	nr_threads = ember_thread_map__nr(threads);

	if (leader == evsel || !leader->fds) {
		if (leader != evsel)
			pr_debug("%s: group leader %s is not open, opening alone\n",
				 ember_evsel__name(evsel), ember_evsel__name(leader));
		leader = NULL;
	} else if (leader->nr_fds_cpus != nr_cpus || leader->nr_fds_threads != nr_threads) {
		pr_warn("%s: opens on other cpus or threads than its group leader %s\n",
			ember_evsel__name(evsel), ember_evsel__name(leader));
		ember_cpu_map__put(cpus);
		ember_thread_map__put(threads);
		return evsel->open_err = -EINVAL;
	}

	evsel->fds = malloc((size_t)nr_cpus * nr_threads * sizeof(int));
	evsel->ids = calloc((size_t)nr_cpus * nr_threads, sizeof(uint64_t));
	if (!evsel->fds || !evsel->ids) {
		free(evsel->fds);
		free(evsel->ids);
		evsel->fds = NULL;
		evsel->ids = NULL;
		ember_cpu_map__put(cpus);
		ember_thread_map__put(threads);
		return evsel->open_err = -ENOMEM;
	}
	for (int i = 0; i < nr_cpus * nr_threads; i++)
		evsel->fds[i] = -1;
	/* From here ember_evsel__close() releases the fds and these references. */
	evsel->cpus = cpus;
	evsel->threads = threads;
	evsel->nr_fds_cpus = nr_cpus;
	evsel->nr_fds_threads = nr_threads;

	for (int c = 0; c < nr_cpus; c++) {
		int cpu = ember_cpu_map__cpu(cpus, c);

		for (int t = 0; t < nr_threads; t++) {
			int pos = c * nr_threads + t, group_fd = -1, fd;
			pid_t pid = ember_thread_map__pid(threads, t);

			if (leader) {
				group_fd = ember_evsel__fd(leader, c, t);
				/* The leader skipped an exited thread: so does the member. */
				if (group_fd < 0)
					continue;
			}
retry:
			fd = sys_perf_event_open(&evsel->attr, pid, cpu, group_fd,
						 PERF_FLAG_FD_CLOEXEC | evsel->open_flags);
			if (fd < 0) {
				err = -errno;
				pr_debug("perf_event_open(%s, pid %d, cpu %d, group_fd %d): %s\n",
					 ember_evsel__name(evsel), (int)pid, cpu, group_fd,
					 strerror(-err));
				if (open_fallback(evsel, &st, err))
					goto retry;
				/* A thread of the target exited since it was listed. */
				if (err == -ESRCH && nr_threads > 1 && pid > 0)
					continue;
				goto out_close;
			}
			evsel->fds[pos] = fd;
			st.opened++;
			err = setup_fd(evsel, fd, &evsel->ids[pos]);
			if (err)
				goto out_close;
		}
	}
	if (!st.opened) {
		err = -ESRCH;
		goto out_close;
	}
	evsel->open_err = 0;
	return 0;

out_close:
	if (st.dropped_guest) {
		evsel->attr.exclude_guest = st.old_exclude_guest;
		evsel->attr.exclude_host = st.old_exclude_host;
	}
	ember_evsel__close(evsel);
	evsel->open_err = err;
	return err;
}

/* One value's slot in a read: value, then id and lost when read_format asks. */
static const uint64_t *parse_value(const uint64_t *p, uint64_t rf, uint64_t *val, uint64_t *id,
				   uint64_t *lost)
{
	*val = *p++;
	*id = *lost = 0;
	if (rf & PERF_FORMAT_ID)
		*id = *p++;
	if (rf & PERF_FORMAT_LOST)
		*lost = *p++;
	return p;
}

/*
 * Pick this evsel's value out of a group read: by sample id when the
 * read_format has PERF_FORMAT_ID, else by its position in the group.
 */
static int parse_group(const struct ember_evsel *evsel, const uint64_t *buf, size_t words,
		       uint64_t self_id, struct ember_counts *counts)
{
	uint64_t rf = evsel->attr.read_format, nr;
	size_t per = 1 + (size_t)!!(rf & PERF_FORMAT_ID) + (size_t)!!(rf & PERF_FORMAT_LOST);
	size_t hdr = 1 + (size_t)!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		     (size_t)!!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	const uint64_t *p = buf + 1;

	if (words < hdr)
		return -EIO;
	nr = buf[0];
	if (nr > (words - hdr) / per)
		return -EIO;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		counts->ena = *p++;
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		counts->run = *p++;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t val, id, lost;

		p = parse_value(p, rf, &val, &id, &lost);
		if ((rf & PERF_FORMAT_ID) ? id == self_id : (int)i == evsel->group_idx) {
			counts->val = val;
			counts->lost = lost;
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * Read the counter at (cpu_idx, thread_idx) as its attr.read_format lays it
 * out; a group read (PERF_FORMAT_GROUP) is picked apart for this evsel.
 * ena/run are 0 unless read_format asks for them. A position skipped at
 * open (the thread had exited) reads as zero. Returns 0 or -errno
 * (-ENODATA when the kernel put the event in error state).
 */
int ember_evsel__read(struct ember_evsel *evsel, int cpu_idx, int thread_idx,
		      struct ember_counts *counts)
{
	uint64_t rf = evsel->attr.read_format, stackbuf[32], *buf = stackbuf;
	size_t words;
	ssize_t n;
	int fd, err = 0;

	memset(counts, 0, sizeof(*counts));
	if (!evsel->fds || cpu_idx < 0 || thread_idx < 0 || cpu_idx >= evsel->nr_fds_cpus ||
	    thread_idx >= evsel->nr_fds_threads)
		return -EINVAL;
	fd = ember_evsel__fd(evsel, cpu_idx, thread_idx);
	if (fd < 0)
		return 0;

	words = 3 + (size_t)(rf & PERF_FORMAT_GROUP ? evsel->leader->nr_members : 1) * 3;
	if (words > sizeof(stackbuf) / sizeof(stackbuf[0])) {
		buf = malloc(words * sizeof(uint64_t));
		if (!buf)
			return -ENOMEM;
	}
	do
		n = read(fd, buf, words * sizeof(uint64_t));
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		err = -errno;
		goto out;
	}
	if (n == 0) {
		err = -ENODATA;
		goto out;
	}
	words = (size_t)n / sizeof(uint64_t);
	if (rf & PERF_FORMAT_GROUP) {
		err = parse_group(evsel, buf, words,
				  evsel->ids[cpu_idx * evsel->nr_fds_threads + thread_idx], counts);
	} else if (words < 1 + (size_t)!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			   (size_t)!!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)) {
		err = -EIO;
	} else {
		const uint64_t *p = buf;

		counts->val = *p++;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			counts->ena = *p++;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			counts->run = *p++;
		if (rf & PERF_FORMAT_ID)
			p++;
		if ((rf & PERF_FORMAT_LOST) && p < buf + words)
			counts->lost = *p;
	}
out:
	if (buf != stackbuf)
		free(buf);
	return err;
}
