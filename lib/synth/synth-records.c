// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf's own records written at the start of a recording: ID_INDEX,
 * THREAD_MAP, CPU_MAP (in perf 6.1's three encodings) and FINISHED_INIT.
 * None carries a sample_id trailer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "synth/synth-int.h"

#define RECORD_MAX 0xffff

/* perf 6.1's struct perf_record_cpu_map_data type values. */
enum {
	CPU_MAP_CPUS = 0,
	CPU_MAP_MASK = 1,
	CPU_MAP_RANGE = 2,
};

int ember_synth__id_index(ember_synth_emit_fn emit, void *ctx,
			  const struct ember_synth_id_index_entry *entries, size_t nr)
{
	const size_t hdr = sizeof(struct perf_event_header) + sizeof(uint64_t);
	const size_t max_nr = (RECORD_MAX - hdr) / sizeof(*entries);
	size_t first = nr < max_nr ? nr : max_nr;
	uint64_t *buf;
	int err = 0;

	if (!nr)
		return 0;
	buf = malloc(hdr + first * sizeof(*entries));
	if (!buf)
		return -ENOMEM;
	for (size_t done = 0; done < nr && !err;) {
		size_t n = nr - done < max_nr ? nr - done : max_nr;
		struct perf_event_header *h = (struct perf_event_header *)buf;

		h->type = SYNTH_RECORD_ID_INDEX;
		h->misc = 0;
		h->size = (uint16_t)(hdr + n * sizeof(*entries));
		buf[1] = n;
		memcpy(buf + 2, entries + done, n * sizeof(*entries));
		err = emit(ctx, h);
		done += n;
	}
	free(buf);
	return err;
}

int ember_synth__thread_map(ember_synth_emit_fn emit, void *ctx, const pid_t *pids,
			    const char *const *comms, int nr)
{
	struct entry {
		uint64_t pid;
		char comm[16];
	};
	const size_t hdr = sizeof(struct perf_event_header) + sizeof(uint64_t);
	size_t size;
	uint64_t *buf;
	struct entry *e;
	int err;

	if (nr < 0)
		return -EINVAL;
	size = hdr + (size_t)nr * sizeof(struct entry);
	if (size > RECORD_MAX)
		return -E2BIG;
	buf = calloc(1, size);
	if (!buf)
		return -ENOMEM;
	((struct perf_event_header *)buf)->type = SYNTH_RECORD_THREAD_MAP;
	((struct perf_event_header *)buf)->size = (uint16_t)size;
	buf[1] = (uint64_t)nr;
	e = (struct entry *)(buf + 2);
	for (int i = 0; i < nr; i++) {
		/* A pid of -1 ("every thread") is stored as u64 -1, as perf does. */
		e[i].pid = (uint64_t)(int64_t)pids[i];
		if (comms && comms[i])
			strncpy(e[i].comm, comms[i], sizeof(e[i].comm));
	}
	err = emit(ctx, (struct perf_event_header *)buf);
	free(buf);
	return err;
}

static void put16(uint8_t *p, int v)
{
	uint16_t x = (uint16_t)v;

	memcpy(p, &x, sizeof(x));
}

ssize_t ember_synth__cpu_map_data(void *buf, size_t size, const int *cpus, int nr)
{
	int any, min, max;
	size_t size_cpus, size_mask, words, need;
	uint8_t *p = buf;
	int type;

	if (nr <= 0 || nr > 0xffff)
		return -EINVAL;
	for (int i = 1; i < nr; i++)
		if (cpus[i] <= cpus[i - 1] || cpus[i] < 0)
			return -EINVAL;
	if (cpus[0] < -1 || cpus[nr - 1] > 0xfffe)
		return -EINVAL;
	any = cpus[0] == -1;
	/* As perf: with only "any cpu" there is no real min, and max reads -1. */
	min = nr > any ? cpus[any] : -1;
	max = cpus[nr - 1];

	/*
	 * perf 6.1 sizes the mask by BITS_TO_U32(max), one bit short when max is
	 * a multiple of 32; the mask here always has room for max.
	 */
	words = max >= 0 ? ((size_t)max + 1 + 31) / 32 : 0;
	size_cpus = 2 + 2 + (size_t)nr * 2;
	size_mask = 2 + 4 + words * 4;
	if (max - min + 1 == nr - any) {
		type = CPU_MAP_RANGE;
		need = 8;
	} else if (any || size_cpus < size_mask) {
		type = CPU_MAP_CPUS;
		need = SYNTH_ALIGN8(size_cpus);
	} else {
		type = CPU_MAP_MASK;
		need = SYNTH_ALIGN8(size_mask);
	}
	if (!buf)
		return (ssize_t)need;
	if (size < need)
		return -E2BIG;
	memset(p, 0, need);
	put16(p, type);
	switch (type) {
	case CPU_MAP_RANGE:
		p[2] = (uint8_t)any;
		put16(p + 4, min);
		put16(p + 6, max);
		break;
	case CPU_MAP_CPUS:
		put16(p + 2, nr);
		for (int i = 0; i < nr; i++)
			put16(p + 4 + 2 * i, cpus[i]);
		break;
	default:
		put16(p + 2, (int)words);
		put16(p + 4, 4);
		for (int i = 0; i < nr; i++) {
			uint32_t w;
			uint8_t *at = p + 6 + 4 * (cpus[i] / 32);

			memcpy(&w, at, sizeof(w));
			w |= 1U << (cpus[i] & 31);
			memcpy(at, &w, sizeof(w));
		}
		break;
	}
	return (ssize_t)need;
}

int ember_synth__cpu_map(ember_synth_emit_fn emit, void *ctx, const int *cpus, int nr)
{
	const size_t hdr = sizeof(struct perf_event_header);
	ssize_t n = ember_synth__cpu_map_data(NULL, 0, cpus, nr);
	struct perf_event_header *h;
	uint64_t *buf;
	int err;

	if (n < 0)
		return (int)n;
	if (hdr + (size_t)n > RECORD_MAX)
		return -E2BIG;
	buf = malloc(hdr + (size_t)n);
	if (!buf)
		return -ENOMEM;
	h = (struct perf_event_header *)buf;
	h->type = SYNTH_RECORD_CPU_MAP;
	h->misc = 0;
	h->size = (uint16_t)(hdr + (size_t)n);
	ember_synth__cpu_map_data(buf + 1, (size_t)n, cpus, nr);
	err = emit(ctx, h);
	free(buf);
	return err;
}

int ember_synth__finished_init(ember_synth_emit_fn emit, void *ctx)
{
	struct perf_event_header h = {
		.type = SYNTH_RECORD_FINISHED_INIT,
		.misc = 0,
		.size = sizeof(h),
	};

	return emit(ctx, &h);
}
