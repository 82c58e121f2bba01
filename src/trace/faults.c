// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember trace -F/--pf (see faults.h). As perf trace: the software events
 * major-faults and minor-faults, every fault a sample (period 1) with its
 * ip, address, tid and time, the time on CLOCK_MONOTONIC so that it merges
 * with the BPF tracer's events. The records of all buffers are queued and
 * taken in time order: side-band ones (mmap, comm, fork, exit) change the
 * machine, so that each fault is placed in the maps of its moment.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ember/event.h>
#include <ember/machine.h>
#include <ember/mmap.h>
#include <ember/perf-data.h>
#include <ember/synth.h>
#include "core/scnprintf.h"
#include "trace/faults.h"

/* data pages per ring buffer: 512 KB, room for some 12000 faults between two reads */
#define FAULT_PAGES 128

struct queued {
	uint64_t time;
	uint64_t seq;			/* the order read: equal times keep it */
	struct perf_event_header *rec;	/* a copy */
};

struct trace_faults {
	struct ember_evlist *evlist;
	struct ember_evsel *maj;	/* NULL unless asked for */
	struct perf_event_attr attr;	/* every evsel's sample layout */
	struct ember_machine *machine;
	struct queued *queue;
	size_t nr, alloc;
	uint64_t seq;
	uint64_t lost;
};

int trace_faults__parse(const char *arg, unsigned int *kinds)
{
	if (!strcmp(arg, "all"))
		*kinds = TRACE_PF_MAJ | TRACE_PF_MIN;
	else if (!strcmp(arg, "maj"))
		*kinds = TRACE_PF_MAJ;
	else if (!strcmp(arg, "min"))
		*kinds = TRACE_PF_MIN;
	else
		return -EINVAL;
	return 0;
}

static struct ember_evsel *add_event(struct trace_faults *f, uint64_t config, bool first,
				     const struct trace_faults_target *t)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = config,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR,
		.sample_id_all = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.inherit = t->command > 0 && !t->no_inherit,
		.disabled = t->command > 0,
		.enable_on_exec = t->command > 0,
	};

	/* the first carries the side-band records the maps are made of */
	if (first) {
		a.mmap = 1;
		a.mmap2 = 1;
		a.mmap_data = 1;
		a.comm = 1;
		a.comm_exec = 1;
		a.task = 1;
	}
	f->attr = a;
	return ember_evlist__add_attr(f->evlist, &a, config == PERF_COUNT_SW_PAGE_FAULTS_MAJ ?
						      "major-faults" : "minor-faults");
}

static int to_machine(void *ctx, const struct perf_event_header *rec)
{
	int err = ember_machine__process_event(ctx, rec);

	/* a malformed record is skipped, as perf skips what it cannot use */
	return err == -ENOMEM ? err : 0;
}

/* The processes running already: their comms and maps from /proc, as perf synthesizes them. */
static int synthesize(struct trace_faults *f, const struct trace_faults_target *t,
		      struct ember_thread_map *threads)
{
	struct ember_synth_opts so = { .emit = to_machine, .ctx = f->machine };
	struct ember_synth s;
	int err;

	if (t->command > 0)
		return 0;	/* followed from its exec on: the records say everything */
	err = ember_synth__init(&s, &so);
	if (err)
		return err;
	if (ember_thread_map__is_any(threads)) {
		err = ember_synth__all_processes(&s);
	} else {
		for (int i = 0; !err && i < ember_thread_map__nr(threads); i++) {
			pid_t tid = ember_thread_map__pid(threads, i);

			err = ember_synth__threads(&s, &tid, 1);
			if (err == -ESRCH || err == -EACCES)
				err = 0;
		}
	}
	ember_synth__exit(&s);
	return err == -ESRCH ? 0 : err;
}

static int open_maps(const struct trace_faults_target *t, struct ember_cpu_map **cpus,
		     struct ember_thread_map **threads)
{
	if (t->command > 0)
		*threads = ember_thread_map__new_pid(t->command);
	else if (t->pids)
		*threads = ember_thread_map__new_pids(t->pids);
	else if (t->tids)
		*threads = ember_thread_map__new_tids(t->tids);
	else
		*threads = ember_thread_map__new_any();
	/* a task followed with its children needs a buffer per cpu, as perf record's */
	if (t->nr_cpus)
		*cpus = ember_cpu_map__from_array(t->cpus, t->nr_cpus);
	else if (t->command > 0 || !(t->pids || t->tids))
		*cpus = ember_cpu_map__new(NULL);
	else
		*cpus = ember_cpu_map__new_any();
	return *cpus && *threads ? 0 : errno ? -errno : -ENOMEM;
}

struct trace_faults *trace_faults__new(unsigned int kinds, const struct trace_faults_target *t)
{
	struct trace_faults *f = calloc(1, sizeof(*f));
	struct ember_symbol_opts so = { .sz = sizeof(so) };
	struct ember_cpu_map *cpus = NULL;
	struct ember_thread_map *threads = NULL;
	bool first = true;
	int err = -ENOMEM;

	if (!f)
		return NULL;
	f->evlist = ember_evlist__new();
	f->machine = ember_machine__new(&so);
	if (!f->evlist || !f->machine)
		goto out_err;
	if (kinds & TRACE_PF_MAJ) {
		f->maj = add_event(f, PERF_COUNT_SW_PAGE_FAULTS_MAJ, first, t);
		if (!f->maj)
			goto out_err;
		first = false;
	}
	if ((kinds & TRACE_PF_MIN) && !add_event(f, PERF_COUNT_SW_PAGE_FAULTS_MIN, first, t))
		goto out_err;
	err = open_maps(t, &cpus, &threads);
	if (err)
		goto out_err;
	ember_evlist__set_maps(f->evlist, cpus, threads);
	err = synthesize(f, t, threads);
	if (!err)
		err = ember_evlist__open(f->evlist);
	if (!err)
		err = ember_evlist__mmap(f->evlist, FAULT_PAGES);
	ember_cpu_map__put(cpus);
	ember_thread_map__put(threads);
	if (!err)
		return f;
out_err:
	trace_faults__delete(f);
	errno = -err;
	return NULL;
}

void trace_faults__delete(struct trace_faults *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nr; i++)
		free(f->queue[i].rec);
	free(f->queue);
	ember_evlist__delete(f->evlist);
	ember_machine__delete(f->machine);
	free(f);
}

void trace_faults__stop(struct trace_faults *f)
{
	ember_evlist__disable(f->evlist);
}

uint64_t trace_faults__lost(const struct trace_faults *f)
{
	return f->lost;
}

static int enqueue(struct trace_faults *f, const struct perf_event_header *hdr)
{
	struct ember_sample s;
	struct queued *q;

	if (hdr->type == PERF_RECORD_SAMPLE ? ember_sample__parse(&s, hdr, &f->attr) :
					      ember_sample__parse_id(&s, hdr, &f->attr))
		return 0;	/* malformed: skipped */
	if (f->nr == f->alloc) {
		size_t alloc = f->alloc ? 2 * f->alloc : 256;

		q = realloc(f->queue, alloc * sizeof(*q));
		if (!q)
			return -ENOMEM;
		f->queue = q;
		f->alloc = alloc;
	}
	q = &f->queue[f->nr];
	q->rec = malloc(hdr->size);
	if (!q->rec)
		return -ENOMEM;
	memcpy(q->rec, hdr, hdr->size);
	q->time = s.time;
	q->seq = f->seq++;
	f->nr++;
	return 0;
}

static int cmp_queued(const void *pa, const void *pb)
{
	const struct queued *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int trace_faults__read(struct trace_faults *f)
{
	int n = ember_evlist__nr_mmaps(f->evlist), err = 0;

	for (int i = 0; i < n && !err; i++) {
		struct ember_mmap *map = ember_evlist__mmap_at(f->evlist, i);
		const struct perf_event_header *hdr;

		if (!ember_mmap__read_init(map))
			continue;
		while (!err && (hdr = ember_mmap__read_event(map))) {
			if (hdr->type == PERF_RECORD_LOST)
				f->lost += ((const uint64_t *)(hdr + 1))[1];
			else
				err = enqueue(f, hdr);
		}
		ember_mmap__read_done(map);
	}
	qsort(f->queue, f->nr, sizeof(*f->queue), cmp_queued);
	return err;
}

/*
 * perf's print_location(): the place's dso (with_dso), then its symbol and
 * offset (with_sym), else the map-relative address, else the bare address.
 */
static int location(char *buf, size_t size, const struct ember_addr_location *al,
		    uint64_t bare, bool with_dso, bool with_sym)
{
	int n = 0;

	if (with_dso && al->map)
		n += scnprintf(buf + n, size - n, "%s@", al->dso_name);
	if (with_sym && al->sym)
		return n + scnprintf(buf + n, size - n, "%s+0x%" PRIx64, al->sym_name,
				     al->sym_off);
	return n + scnprintf(buf + n, size - n, "0x%" PRIx64, al->map ? al->addr : bare);
}

/* perf trace's text for a fault: where it happened, the address and its map's kind. */
static int handle_fault(struct trace_faults *f, const struct perf_event_header *hdr,
			trace_fault_fn fn, void *ctx)
{
	struct ember_addr_location al;
	struct trace_fault fault;
	struct ember_sample s;
	char text[1024], comm[16];
	char map_type = 'd';
	int n;

	if (ember_sample__parse(&s, hdr, &f->attr))
		return 0;
	fault = (struct trace_fault){ .time = s.time, .pid = (pid_t)s.pid, .tid = (pid_t)s.tid };
	if (f->maj) {
		for (int c = 0; !fault.major && c < ember_evsel__nr_cpus(f->maj); c++)
			for (int t = 0; t < ember_evsel__nr_threads(f->maj); t++)
				fault.major |= ember_evsel__id(f->maj, c, t) == s.id;
	}
	if (ember_machine__resolve(f->machine, fault.pid, fault.tid, s.cpumode, s.ip, &al) ==
	    -ENOMEM)
		return -ENOMEM;
	snprintf(comm, sizeof(comm), "%s", al.comm ? al.comm : "");
	/* perf's slip, kept: an ip without a map is shown as the faulting address */
	n = scnprintf(text, sizeof(text), "%sfault [", fault.major ? "maj" : "min");
	n += location(text + n, sizeof(text) - n, &al, s.addr, false, true);
	n += scnprintf(text + n, sizeof(text) - n, "] => ");
	if (ember_machine__resolve(f->machine, fault.pid, fault.tid, s.cpumode, s.addr, &al) ==
	    -ENOMEM)
		return -ENOMEM;
	/* perf looks a second time, in the same maps: 'x' can never come, '?' says none */
	if (!al.map)
		map_type = '?';
	n += location(text + n, sizeof(text) - n, &al, s.addr, true, false);
	scnprintf(text + n, sizeof(text) - n, " (%c%c)", map_type, al.level);
	fault.comm = comm;
	fault.text = text;
	return fn(ctx, &fault);
}

int trace_faults__flush(struct trace_faults *f, uint64_t before, trace_fault_fn fn, void *ctx)
{
	size_t i;
	int err = 0;

	if (!f->nr || f->queue[0].time >= before)
		return 0;
	for (i = 0; i < f->nr && f->queue[i].time < before && !err; i++) {
		struct perf_event_header *hdr = f->queue[i].rec;

		if (hdr->type == PERF_RECORD_SAMPLE)
			err = handle_fault(f, hdr, fn, ctx);
		else
			err = to_machine(f->machine, hdr);
		free(hdr);
	}
	memmove(f->queue, f->queue + i, (f->nr - i) * sizeof(*f->queue));
	f->nr -= i;
	return err;
}
