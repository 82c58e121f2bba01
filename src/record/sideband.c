// SPDX-License-Identifier: GPL-2.0-only
/* The side-band events of --switch-output-event (see sideband.h). */
#include <errno.h>
#include <string.h>
#include <ember/ember.h>
#include "record/err.h"
#include "record/sideband.h"

/* Enough for a burst of samples; a full buffer still tells it fired. */
#define SIDEBAND_PAGES 4

int record_sideband__open(struct ember_evlist *sb)
{
	struct ember_cpu_map *cpus;
	struct ember_thread_map *threads;
	struct ember_evsel *pos;
	int err;

	if (!sb)
		return 0;
	cpus = ember_cpu_map__new(NULL);
	threads = ember_thread_map__new_any();
	if (!cpus || !threads) {
		ember_cpu_map__put(cpus);
		ember_thread_map__put(threads);
		record_err("out of memory");
		return 1;
	}
	ember_evlist__set_maps(sb, cpus, threads);
	ember_cpu_map__put(cpus);
	ember_thread_map__put(threads);
	/* perf's side-band attr: every sample wakes the reader; enabled from the open */
	ember_evlist__for_each(sb, pos) {
		struct perf_event_attr *a = ember_evsel__attr(pos);

		a->sample_period = 1;
		a->freq = 0;
		a->sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
		a->sample_id_all = 1;
		a->watermark = 1;
		a->wakeup_watermark = 1;
		a->disabled = 0;
		a->inherit = 0;
		a->enable_on_exec = 0;
	}
	err = ember_evlist__open(sb);
	if (err) {
		struct ember_evsel *failed = ember_evlist__failed(sb);
		char buf[1024];

		if (failed) {
			ember_evsel__strerror_open(failed, err, buf, sizeof(buf));
			record_err("cannot open --switch-output-event '%s': %s",
				   ember_evsel__name(failed), buf);
		} else {
			record_err("cannot open --switch-output-event: %s", strerror(-err));
		}
		return 1;
	}
	err = ember_evlist__mmap(sb, SIDEBAND_PAGES);
	if (err) {
		record_err("cannot map the --switch-output-event buffers: %s", strerror(-err));
		return 1;
	}
	return 0;
}

bool record_sideband__fired(struct ember_evlist *sb)
{
	bool fired = false;

	if (!sb)
		return false;
	for (int i = 0; i < ember_evlist__nr_mmaps(sb); i++) {
		struct ember_mmap *map = ember_evlist__mmap_at(sb, i);
		const struct perf_event_header *ev;

		if (!ember_mmap__read_init(map))
			continue;
		while ((ev = ember_mmap__read_event(map)) != NULL)
			if (ev->type == PERF_RECORD_SAMPLE || ev->type == PERF_RECORD_LOST)
				fired = true;
		ember_mmap__read_done(map);
	}
	return fired;
}

void record_sideband__close(struct ember_evlist *sb)
{
	if (!sb)
		return;
	ember_evlist__munmap(sb);
	ember_evlist__close(sb);
}
