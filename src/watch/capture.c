// SPDX-License-Identifier: GPL-2.0-only
/*
 * The capture: cpu-clock at a low rate with callchains on every watched
 * cpu, each cpu writing backward into its own read-only ring buffer
 * (record --overwrite's flight recorder), sized for the window before the
 * trigger plus the seconds after it. Nothing is read while waiting: the
 * kernel keeps overwriting the oldest records, ember sleeps. Sample times
 * are CLOCK_MONOTONIC (use_clockid), so the trigger's time bounds them.
 *
 * An incident's perf.data: the header (the event, with the ids of the
 * triggering cpus only), THREAD_MAP and CPU_MAP as perf record -C writes
 * them, the kernel and the tasks as they were at the trigger, then the
 * records of the triggering cpus' buffers: samples from the window's start
 * on, and the side-band (COMM, MMAP2, FORK, EXIT) of tasks born meanwhile.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <ember/perf-data.h>
#include <ember/synth.h>
#include "core/array.h"
#include "watch/watch.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		     PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
/*
 * Ring bytes a sample brings, side-band included: a callchain sample takes
 * 100 to 1000 bytes, and on a busy machine (a build: compilers starting by
 * the hundred) the MMAP2, COMM, FORK and EXIT records of the tasks born
 * take as much again.
 */
#define SAMPLE_BYTES 2048

/* Data pages (a power of two) holding o's seconds of samples. */
static size_t ring_pages(const struct watch_opts *o)
{
	double bytes = (o->before_s + o->after_s + o->window_s + 1) * o->freq * SAMPLE_BYTES;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = 8;

	if (o->mmap_pages)
		return o->mmap_pages;
	while (pages < 4096 && (double)pages * (double)page < bytes)
		pages *= 2;
	return pages;
}

int watch_capture__open(struct watch_capture *c, const struct watch_opts *o,
			struct ember_cpu_map *cpus)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_freq = o->freq,
		.freq = 1,
		.sample_type = SAMPLE_TYPE,
		.sample_id_all = 1,
		.mmap = 1,
		.mmap2 = 1,
		.comm = 1,
		.comm_exec = 1,
		.task = 1,
		.write_backward = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
	};
	struct ember_thread_map *any = ember_thread_map__new_any();
	int err;

	memset(c, 0, sizeof(*c));
	c->evlist = ember_evlist__new();
	if (!c->evlist || !any) {
		ember_thread_map__put(any);
		return -ENOMEM;
	}
	c->evsel = ember_evlist__add_attr(c->evlist, &attr, "cpu-clock");
	if (!c->evsel) {
		ember_thread_map__put(any);
		return -ENOMEM;
	}
	ember_evlist__set_maps(c->evlist, cpus, any);
	ember_thread_map__put(any);
	err = ember_evlist__open(c->evlist);
	if (!err)
		err = record_overwrite__mmap(&c->ow, c->evlist, ring_pages(o));
	return err;
}

void watch_capture__close(struct watch_capture *c)
{
	record_overwrite__unmap(&c->ow);
	ember_evlist__delete(c->evlist);
	c->evlist = NULL;
	free(c->side);
	c->side = NULL;
}

int watch_capture__reopen(struct watch_capture *c, const struct watch_opts *o,
			  const struct ember_cpu_map *cpus)
{
	struct ember_cpu_map *online = ember_cpu_map__new(NULL), *now = NULL;
	int *v = calloc((size_t)ember_cpu_map__nr(cpus) + 1, sizeof(*v)), n = 0, err = -ENOMEM;

	if (online && v) {
		for (int i = 0; i < ember_cpu_map__nr(cpus); i++)
			if (ember_cpu_map__idx(online, ember_cpu_map__cpu(cpus, i)) >= 0)
				v[n++] = ember_cpu_map__cpu(cpus, i);
		now = ember_cpu_map__from_array(v, n);
	}
	watch_capture__close(c);
	if (now)
		err = watch_capture__open(c, o, now);
	ember_cpu_map__put(now);
	ember_cpu_map__put(online);
	free(v);
	return err;
}

static int to_side(void *ctx, const struct perf_event_header *rec)
{
	struct watch_capture *c = ctx;

	while (c->side_len + rec->size > c->side_alloc)
		if (array__reserve(&c->side, &c->side_alloc, c->side_alloc, 1))
			return -ENOMEM;
	memcpy((char *)c->side + c->side_len, rec, rec->size);
	c->side_len += rec->size;
	return 0;
}

int watch_capture__synthesize(struct watch_capture *c)
{
	struct ember_synth_opts so = {
		.emit = to_side,
		.ctx = c,
		.sample_id_all = true,
		.sample_type = SAMPLE_TYPE,
	};
	struct ember_synth s;
	int err;

	c->side_len = 0;
	err = ember_synth__init(&s, &so);
	if (err)
		return err;
	/* without kallsyms' reference symbol kernel frames stay unresolved: go on, as perf */
	err = ember_synth__kernel(&s);
	if (err && err != -ENOMEM)
		err = 0;
	if (!err)
		err = ember_synth__all_processes(&s);
	ember_synth__exit(&s);
	return err;
}

static int to_writer(void *ctx, const struct perf_event_header *rec)
{
	return ember_data_writer__write_plain(ctx, rec, rec->size);
}

/* The header's description: this machine, ember watch's command line, the clock. */
static int describe(struct ember_env *env, int argc, const char **argv)
{
	struct timespec res;
	int err = ember_env__gather(env);

	if (!err)
		err = ember_env__set_cmdline(env, argc, argv);
	if (!err && !clock_getres(CLOCK_MONOTONIC, &res)) {
		env->clockid_res_ns = (uint64_t)res.tv_nsec;
		ember_env__set_feat(env, EMBER_FEAT_CLOCKID, true);
	}
	ember_env__set_feat(env, EMBER_FEAT_SAMPLE_TIME, true);
	return err;
}

/* The ids of the cpus' fds, for the attr; *nr_ids of them. */
static uint64_t *cpu_ids(struct watch_capture *c, const int *cpus, int nr, uint32_t *nr_ids)
{
	uint64_t *ids = calloc((size_t)nr + 1, sizeof(*ids));
	const struct ember_cpu_map *map = ember_evsel__cpus(c->evsel);

	*nr_ids = 0;
	for (int i = 0; ids && i < nr; i++) {
		int idx = ember_cpu_map__idx(map, cpus[i]);

		if (idx >= 0 && ember_evsel__fd(c->evsel, idx, 0) >= 0)
			ids[(*nr_ids)++] = ember_evsel__id(c->evsel, idx, 0);
	}
	return ids;
}

/* Whether buffer i belongs to one of the cpus. */
static bool wanted(const struct watch_capture *c, int i, const int *cpus, int nr)
{
	int cpu = record_overwrite__cpu(&c->ow, i);

	for (int j = 0; j < nr; j++)
		if (cpus[j] == cpu)
			return true;
	return false;
}

/* A sample's time: after the ip and pid/tid in SAMPLE_TYPE's layout. */
static uint64_t sample_time(const struct perf_event_header *h)
{
	uint64_t t;

	memcpy(&t, (const char *)(h + 1) + 16, sizeof(t));
	return t;
}

/* The whole records of [data, data + len): samples from from_ns on, and the side-band. */
static int write_ring(struct ember_data_writer *wr, const unsigned char *data, size_t len,
		      uint64_t from_ns, struct watch_written *w)
{
	size_t pos = 0;

	while (len - pos >= sizeof(struct perf_event_header)) {
		const struct perf_event_header *h = (const void *)(data + pos);
		int err;

		if (h->size < sizeof(*h) || h->size > len - pos)
			break;
		pos += h->size;
		if (h->type == PERF_RECORD_SAMPLE) {
			uint64_t t;

			if (h->size < sizeof(*h) + 24)
				continue;
			t = sample_time(h);
			if (t < from_ns)
				continue;
			w->samples++;
			if (!w->first_ns || t < w->first_ns)
				w->first_ns = t;
			if (t > w->last_ns)
				w->last_ns = t;
		}
		err = ember_data_writer__write(wr, h, h->size);
		if (err)
			return err;
	}
	return 0;
}

int watch_capture__write(struct watch_capture *c, const char *path, const int *cpus, int nr,
			 uint64_t from_ns, int argc, const char **argv, struct watch_written *w)
{
	static const struct perf_event_header round = {
		.type = EMBER_RECORD_FINISHED_ROUND,
		.size = sizeof(round),
	};
	struct ember_data_writer *wr = ember_data_writer__open(path, NULL);
	struct ember_env env;
	pid_t any = -1;
	uint32_t nr_ids;
	uint64_t *ids;
	int err;

	memset(w, 0, sizeof(*w));
	memset(&env, 0, sizeof(env));
	if (!wr)
		return -errno;
	ids = cpu_ids(c, cpus, nr, &nr_ids);
	err = ids ? describe(&env, argc, argv) : -ENOMEM;
	if (!err) {
		err = ember_data_writer__add_attr(wr, ember_evsel__attr(c->evsel), ids, nr_ids,
						  "cpu-clock");
		err = err < 0 ? err : 0;
	}
	if (!err)
		err = ember_data_writer__start(wr, &env);
	if (!err)
		err = ember_synth__thread_map(to_writer, wr, &any, NULL, 1);
	if (!err)
		err = ember_synth__cpu_map(to_writer, wr, cpus, nr);
	if (!err && c->side_len)
		err = ember_data_writer__write_plain(wr, c->side, c->side_len);
	if (!err)
		err = ember_synth__finished_init(to_writer, wr);
	for (int i = 0; !err && i < c->ow.nr; i++) {
		const void *data;
		size_t len;

		if (!wanted(c, i, cpus, nr))
			continue;
		len = record_overwrite__copy(&c->ow, i, &data);
		err = write_ring(wr, data, len, from_ns, w);
	}
	if (!err)
		err = ember_data_writer__write_plain(wr, &round, sizeof(round));
	if (!err) {
		env.first_sample_time = w->first_ns;
		env.last_sample_time = w->last_ns;
		w->bytes = ember_data_writer__data_size(wr);
		err = ember_data_writer__close(wr, &env);
		wr = NULL;
	}
	ember_data_writer__delete(wr);
	ember_env__exit(&env);
	free(ids);
	return err;
}
