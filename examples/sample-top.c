// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Sample this process with cpu-clock, read the samples from the ring
 * buffer, symbolise their ips and print the top functions, as
 * `perf record` + `perf report --sort sym` would for a program that only
 * runs work().
 *
 *   cc sample-top.c $(pkg-config --cflags --libs libember) -o sample-top
 *   ./sample-top [MILLISECONDS]
 *
 * work() calls hot(), a loop three times as long as warm()'s, then warm():
 * hot() comes first, warm() second.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <ember/event.h>
#include <ember/machine.h>
#include <ember/mmap.h>
#include <ember/perf-data.h>

#define MAX_FUNCS 64

static volatile uint64_t sink;

static __attribute__((noinline)) void hot(void)
{
	for (uint64_t i = 0; i < 3000000; i++)
		sink += i * i;
}

static __attribute__((noinline)) void warm(void)
{
	for (uint64_t i = 0; i < 1000000; i++)
		sink += i * i;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void work(double ms)
{
	for (double end = now_ms() + ms; now_ms() < end;) {
		hot();
		warm();
	}
}

struct func {
	const char *name;
	uint64_t samples;
};

static void count(struct func *funcs, int *nr, const char *name)
{
	for (int i = 0; i < *nr; i++)
		if (!strcmp(funcs[i].name, name)) {
			funcs[i].samples++;
			return;
		}
	if (*nr < MAX_FUNCS)
		funcs[(*nr)++] = (struct func){ name, 1 };
}

static int by_samples(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->samples < y->samples ? 1 : x->samples > y->samples ? -1 : 0;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 500;
	struct ember_evlist *evlist = ember_evlist__new();
	struct ember_thread_map *self = ember_thread_map__new_pid(getpid());
	struct ember_cpu_map *any = ember_cpu_map__new_any();
	struct ember_symbolizer *symbolizer = ember_symbolizer__new(NULL);
	struct func funcs[MAX_FUNCS];
	struct perf_event_attr *attr;
	struct ember_evsel *evsel;
	uint64_t total = 0;
	char msg[512];
	int err, nr = 0;

	if (!evlist || !self || !any || !symbolizer ||
	    ember_evlist__parse_events(evlist, "cpu-clock", NULL))
		return 1;
	evsel = ember_evlist__next(evlist, NULL);
	attr = ember_evsel__attr(evsel);
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr->freq = 1;
	attr->sample_freq = 999;
	attr->disabled = 1;
	ember_evlist__set_maps(evlist, any, self);
	err = ember_evlist__open(evlist);
	if (!err)
		err = ember_evlist__mmap(evlist, 64);	/* 256 KB: a few seconds of samples */
	if (err) {
		fprintf(stderr, "sample-top: %s\n", ember_evsel__strerror_open(evsel, err, msg, sizeof(msg)));
		return 1;
	}
	ember_evlist__enable(evlist);
	work(ms);
	ember_evlist__disable(evlist);

	for (int i = 0; i < ember_evlist__nr_mmaps(evlist); i++) {
		struct ember_mmap *map = ember_evlist__mmap_at(evlist, i);
		const struct perf_event_header *rec;

		ember_mmap__read_init(map);
		while ((rec = ember_mmap__read_event(map))) {
			struct ember_addr_location al;
			struct ember_sample s;

			if (rec->type != PERF_RECORD_SAMPLE || ember_sample__parse(&s, rec, attr))
				continue;
			total++;
			if (ember_symbolizer__resolve(symbolizer, s.pid, s.ip, &al) == 0)
				count(funcs, &nr, al.sym_name);
			else
				count(funcs, &nr, "[unknown]");
		}
		ember_mmap__read_done(map);
	}
	qsort(funcs, nr, sizeof(funcs[0]), by_samples);
	printf("# %" PRIu64 " samples of cpu-clock\n", total);
	for (int i = 0; i < nr && i < 10; i++)
		printf("%6.2f%%  %s\n", 100.0 * funcs[i].samples / total, funcs[i].name);
	ember_symbolizer__delete(symbolizer);	/* the names live until here */
	ember_evlist__delete(evlist);
	ember_thread_map__put(self);
	ember_cpu_map__put(any);
	return 0;
}
