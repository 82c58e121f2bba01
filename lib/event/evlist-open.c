// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An event list against the kernel: open every evsel, enable and disable
 * them (groups through their leader), map one ring buffer per cpu (per
 * thread for per-thread events) with the other fds redirected into it,
 * and poll the buffers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <ember/event.h>
#include "core/log.h"
#include <ember/mmap.h>
#include "event/evlist.h"

/*
 * Open every supported evsel not open yet, in list order (leaders before
 * their members). Stops at the first failure, records the evsel for
 * ember_evlist__failed() and returns its -errno; evsels opened before stay
 * open, so a caller may apply a fallback (or set evsel->supported = false)
 * and call again to carry on, or ember_evlist__close() to give up.
 */
int ember_evlist__open(struct ember_evlist *evlist)
{
	struct ember_evsel *pos;

	evlist->failed = NULL;
	ember_evlist__for_each(evlist, pos) {
		int err;

		if (pos->fds || !pos->supported)
			continue;
		err = ember_evsel__open(pos, NULL, NULL);
		if (err) {
			evlist->failed = pos;
			return err;
		}
	}
	return 0;
}

/* Unmap the ring buffers and close every evsel's fds. Accepts NULL. */
void ember_evlist__close(struct ember_evlist *evlist)
{
	struct ember_evsel *pos;

	if (!evlist)
		return;
	ember_evlist__munmap(evlist);
	ember_evlist__for_each(evlist, pos)
		ember_evsel__close(pos);
}

/*
 * ioctl every open fd. A group leader gets PERF_IOC_FLAG_GROUP so its
 * whole group starts or stops at once; it comes before its members in the
 * list, whose own ioctl is then a no-op. Returns 0 or the first -errno.
 */
static int evlist__ioctl(struct ember_evlist *evlist, unsigned long request)
{
	struct ember_evsel *pos;
	int ret = 0;

	ember_evlist__for_each(evlist, pos) {
		int n = pos->nr_fds_cpus * pos->nr_fds_threads;
		unsigned long flag = 0;

		if (!pos->fds)
			continue;
		if (ember_evsel__is_group_leader(pos) && pos->nr_members > 1)
			flag = PERF_IOC_FLAG_GROUP;
		for (int i = 0; i < n; i++) {
			if (pos->fds[i] < 0)
				continue;
			if (ioctl(pos->fds[i], request, flag) < 0 && !ret) {
				ret = -errno;
				pr_debug("%s: ioctl %#lx: %s\n", ember_evsel__name(pos), request,
					 strerror(errno));
			}
		}
	}
	return ret;
}

/* Enable every open event (PERF_EVENT_IOC_ENABLE). Returns 0 or -errno. */
int ember_evlist__enable(struct ember_evlist *evlist)
{
	return evlist__ioctl(evlist, PERF_EVENT_IOC_ENABLE);
}

/* Disable every open event (PERF_EVENT_IOC_DISABLE). Returns 0 or -errno. */
int ember_evlist__disable(struct ember_evlist *evlist)
{
	return evlist__ioctl(evlist, PERF_EVENT_IOC_DISABLE);
}

/*
 * Whether the kernel writes records for this evsel into a forward buffer:
 * samples or side-band events, and not written backward (the kernel
 * refuses to send those into a forward buffer).
 */
static bool evsel__wants_mmap(const struct ember_evsel *evsel)
{
	const struct perf_event_attr *a = &evsel->attr;

	if (a->write_backward)
		return false;
	return a->sample_period || a->mmap || a->mmap2 || a->mmap_data || a->comm || a->task ||
	       a->context_switch || a->namespaces || a->ksymbol || a->bpf_event || a->cgroup ||
	       a->text_poke;
}

/* Where a fd's records go: one ring buffer per cpu, or per task for cpu -1 events. */
struct mmap_key {
	bool per_thread;
	int key;	/* the cpu, or the pid */
};

static int find_mmap(const struct mmap_key *keys, int nr, struct mmap_key k)
{
	for (int i = 0; i < nr; i++)
		if (keys[i].per_thread == k.per_thread && keys[i].key == k.key)
			return i;
	return -1;
}

static int evlist__add_mmap(struct ember_evlist *evlist, int fd, size_t pages)
{
	struct ember_mmap *map = ember_mmap__new(fd, pages);

	if (!map)
		return -errno;
	evlist->mmaps[evlist->nr_mmaps++] = map;
	evlist->pollfds[evlist->nr_pollfds].fd = fd;
	evlist->pollfds[evlist->nr_pollfds].events = POLLIN;
	evlist->pollfds[evlist->nr_pollfds].revents = 0;
	evlist->nr_pollfds++;
	return 0;
}

/* Send fd's records into the buffer of another fd on the same cpu or task. */
static int redirect(const struct ember_evsel *evsel, int fd, const struct ember_mmap *map)
{
	int err;

	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ember_mmap__fd(map)) == 0)
		return 0;
	err = -errno;
	pr_warn("%s: cannot redirect into the ring buffer of fd %d: %s\n",
		ember_evsel__name(evsel), ember_mmap__fd(map), strerror(-err));
	return err;
}

/* See <ember/event.h>: one buffer per cpu (thread), the other fds redirected into it. */
int ember_evlist__mmap(struct ember_evlist *evlist, size_t pages)
{
	struct mmap_key *keys;
	struct ember_evsel *pos;
	int max = 0, err = 0;

	if (evlist->mmaps)
		return -EBUSY;
	ember_evlist__for_each(evlist, pos)
		if (pos->fds && evsel__wants_mmap(pos))
			max += pos->nr_fds_cpus * pos->nr_fds_threads;
	if (!max)
		return 0;

	keys = calloc((size_t)max, sizeof(*keys));
	evlist->mmaps = calloc((size_t)max, sizeof(*evlist->mmaps));
	evlist->pollfds = calloc((size_t)max, sizeof(*evlist->pollfds));
	if (!keys || !evlist->mmaps || !evlist->pollfds) {
		err = -ENOMEM;
		goto out;
	}

	ember_evlist__for_each(evlist, pos) {
		if (!pos->fds || !evsel__wants_mmap(pos))
			continue;
		for (int c = 0; c < pos->nr_fds_cpus && !err; c++) {
			int cpu = ember_cpu_map__cpu(pos->cpus, c);

			for (int t = 0; t < pos->nr_fds_threads && !err; t++) {
				int fd = ember_evsel__fd(pos, c, t), idx;
				struct mmap_key k = { cpu < 0, cpu };

				if (fd < 0)
					continue;
				if (k.per_thread)
					k.key = ember_thread_map__pid(pos->threads, t);
				idx = find_mmap(keys, evlist->nr_mmaps, k);
				if (idx < 0) {
					keys[evlist->nr_mmaps] = k;
					err = evlist__add_mmap(evlist, fd, pages);
				} else {
					err = redirect(pos, fd, evlist->mmaps[idx]);
				}
			}
		}
		if (err)
			break;
	}
out:
	free(keys);
	if (err)
		ember_evlist__munmap(evlist);
	return err;
}

/* Unmap every ring buffer and forget the pollfds. Safe when nothing is mapped. */
void ember_evlist__munmap(struct ember_evlist *evlist)
{
	if (!evlist)
		return;
	for (int i = 0; i < evlist->nr_mmaps; i++)
		ember_mmap__delete(evlist->mmaps[i]);
	free(evlist->mmaps);
	free(evlist->pollfds);
	evlist->mmaps = NULL;
	evlist->pollfds = NULL;
	evlist->nr_mmaps = 0;
	evlist->nr_pollfds = 0;
}

int ember_evlist__nr_mmaps(const struct ember_evlist *evlist)
{
	return evlist->nr_mmaps;
}

struct ember_mmap *ember_evlist__mmap_at(const struct ember_evlist *evlist, int idx)
{
	return idx >= 0 && idx < evlist->nr_mmaps ? evlist->mmaps[idx] : NULL;
}

/* poll() the ring buffer fds. Returns poll's result or -errno (-EINTR on a signal). */
int ember_evlist__poll(struct ember_evlist *evlist, int timeout_ms)
{
	int n = poll(evlist->pollfds, (nfds_t)evlist->nr_pollfds, timeout_ms);

	return n < 0 ? -errno : n;
}

/*
 * The evsel whose fds carry sample id `id` (PERF_SAMPLE_ID/IDENTIFIER),
 * or NULL. With a single evsel every id is its.
 */
struct ember_evsel *evlist__id2evsel(const struct ember_evlist *evlist, uint64_t id)
{
	struct ember_evsel *pos;

	if (evlist->nr_entries == 1)
		return evlist->first;
	if (!id)
		return NULL;
	ember_evlist__for_each(evlist, pos) {
		int n = pos->nr_fds_cpus * pos->nr_fds_threads;

		if (!pos->ids)
			continue;
		for (int i = 0; i < n; i++)
			if (pos->ids[i] == id)
				return pos;
	}
	return NULL;
}
