// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * BPF programs on perf events: the event opened from perf's syntax or an
 * attr on every cpu of a set, for one process or all, the program attached
 * to each of its fds (PERF_EVENT_IOC_SET_BPF), then enabled. The events
 * are libember's evlist, so the open's refusals read as perf's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/perf_event.h>
#include <ember/bpf.h>
#include <ember/event.h>

struct ember_bpf_perf {
	struct ember_evlist *evlist;
	int nr_fds;
};

static void say(const struct ember_bpf_perf_opts *o, const char *fmt, const char *what)
{
	if (o && o->errbuf && o->errbuf_size)
		snprintf(o->errbuf, o->errbuf_size, fmt, what);
}

/* Every fd of every evsel gets the program; the count is how many did. */
static int set_bpf(struct ember_bpf_perf *p, int prog_fd)
{
	struct ember_evsel *evsel;

	ember_evlist__for_each(p->evlist, evsel)
		for (int c = 0; c < ember_evsel__nr_cpus(evsel); c++)
			for (int t = 0; t < ember_evsel__nr_threads(evsel); t++) {
				int fd = ember_evsel__fd(evsel, c, t);

				if (fd < 0)
					continue;
				if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd))
					return -errno;
				p->nr_fds++;
			}
	return 0;
}

static int open_maps(struct ember_bpf_perf *p, const struct ember_bpf_perf_opts *o)
{
	const char *cpus = o ? o->cpus : NULL;
	pid_t pid = o ? o->pid : -1;
	struct ember_cpu_map *cmap = ember_cpu_map__new(cpus);
	struct ember_thread_map *tmap = pid > 0 ? ember_thread_map__new_pid(pid)
						: ember_thread_map__new_any();
	int err = 0;

	if (!cmap || !tmap) {
		err = -errno;
		say(o, cmap ? "no such process: %s" : "bad cpu list: '%s'",
		    cmap ? "the pid" : (cpus ? cpus : ""));
	} else {
		ember_evlist__set_maps(p->evlist, cmap, tmap);
	}
	ember_cpu_map__put(cmap);
	ember_thread_map__put(tmap);
	return err;
}

static struct ember_bpf_perf *attach(struct ember_bpf_perf *p, int prog_fd,
				     const struct ember_bpf_perf_opts *o)
{
	int err = open_maps(p, o);

	if (!err) {
		err = ember_evlist__open(p->evlist);
		if (err && o && o->errbuf && o->errbuf_size)
			ember_evsel__strerror_open(ember_evlist__failed(p->evlist), err,
						   o->errbuf, o->errbuf_size);
	}
	if (!err) {
		err = set_bpf(p, prog_fd);
		if (err)
			say(o, "the kernel refused the BPF program on the event (%s): "
			       "a SEC(\"perf_event\") program is needed", strerror(-err));
	}
	if (!err)
		err = ember_evlist__enable(p->evlist);
	if (err) {
		ember_bpf_perf__detach(p);
		errno = -err;
		return NULL;
	}
	return p;
}

static struct ember_bpf_perf *new_perf(void)
{
	struct ember_bpf_perf *p = calloc(1, sizeof(*p));

	if (p && !(p->evlist = ember_evlist__new())) {
		free(p);
		return NULL;
	}
	return p;
}

struct ember_bpf_perf *ember_bpf_perf__attach_event(int prog_fd, const char *event,
						    const struct ember_bpf_perf_opts *opts)
{
	struct ember_bpf_perf *p = new_perf();
	struct ember_parse_error perr = { 0 };
	int err;

	if (!p)
		return NULL;
	err = ember_evlist__parse_events(p->evlist, event, &perr);
	if (err) {
		if (opts && opts->errbuf && opts->errbuf_size)
			ember_parse_error__snprintf(&perr, 0, opts->errbuf, opts->errbuf_size);
		ember_parse_error__exit(&perr);
		ember_bpf_perf__detach(p);
		errno = -err;
		return NULL;
	}
	return attach(p, prog_fd, opts);
}

struct ember_bpf_perf *ember_bpf_perf__attach_attr(int prog_fd, const struct perf_event_attr *attr,
						   const struct ember_bpf_perf_opts *opts)
{
	struct ember_bpf_perf *p = new_perf();

	if (!p)
		return NULL;
	if (!ember_evlist__add_attr(p->evlist, attr, NULL)) {
		int err = errno;

		ember_bpf_perf__detach(p);
		errno = err;
		return NULL;
	}
	return attach(p, prog_fd, opts);
}

int ember_bpf_perf__nr_fds(const struct ember_bpf_perf *p)
{
	return p->nr_fds;
}

void ember_bpf_perf__detach(struct ember_bpf_perf *p)
{
	if (!p)
		return;
	ember_evlist__delete(p->evlist);	/* closing the fds detaches the program */
	free(p);
}

int ember_bpf__percpu_sum(int map_fd, const void *key, uint64_t *sum)
{
	int nr_cpus = libbpf_num_possible_cpus();
	uint64_t *per_cpu;
	int err = 0;

	*sum = 0;
	if (nr_cpus <= 0)
		return nr_cpus ? nr_cpus : -ENODEV;
	per_cpu = calloc(nr_cpus, sizeof(*per_cpu));
	if (!per_cpu)
		return -ENOMEM;
	if (bpf_map_lookup_elem(map_fd, key, per_cpu))
		err = -errno;
	else
		for (int i = 0; i < nr_cpus; i++)
			*sum += per_cpu[i];
	free(per_cpu);
	return err;
}

int ember_bpf__stack(int stackmap_fd, uint32_t id, uint64_t *ips, int max)
{
	struct bpf_map_info info = { 0 };
	uint32_t len = sizeof(info);
	uint64_t *frames;
	int nr = 0;

	if (bpf_obj_get_info_by_fd(stackmap_fd, &info, &len))
		return -errno;
	if (info.type != BPF_MAP_TYPE_STACK_TRACE || !info.value_size || info.value_size % 8)
		return -EINVAL;
	frames = calloc(1, info.value_size);
	if (!frames)
		return -ENOMEM;
	if (bpf_map_lookup_elem(stackmap_fd, &id, frames)) {
		int err = -errno;

		free(frames);
		return err;
	}
	/* the kernel zero-fills after the last frame */
	for (uint32_t i = 0; i < info.value_size / 8 && frames[i] && nr < max; i++)
		ips[nr++] = frames[i];
	free(frames);
	return nr;
}
