// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember trace's perf events (see perf-events.h). As perf trace: -F's
 * software events major-faults and minor-faults, every fault a sample
 * (period 1) with its ip, address, tid and time; -e's probes, tracepoint
 * events sampled at each hit with their raw record. Times on
 * CLOCK_MONOTONIC, so that they merge with the BPF tracer's events. The
 * records of all buffers are queued and taken in time order: side-band
 * ones (mmap, comm, fork, exit) change the machine, so that each fault is
 * placed in the maps of its moment and each thread is named.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ember/event.h>
#include <ember/machine.h>
#include <ember/mmap.h>
#include <ember/perf-data.h>
#include <ember/synth.h>
#include "trace/fault-text.h"
#include "trace/perf-events.h"

/* data pages per ring buffer: 512 KB, room for some 10000 faults between two reads */
#define PERF_EVENTS_PAGES 128

struct queued {
	uint64_t time;
	uint64_t seq;			/* the order read: equal times keep it */
	struct perf_event_header *rec;	/* a copy */
};

/* What a sample id (PERF_SAMPLE_IDENTIFIER) stands for. */
enum kind { KIND_MAJ, KIND_MIN, KIND_PROBE };

struct id_kind {
	uint64_t id;
	enum kind kind;
	int index;			/* a probe's record index */
};

struct trace_perf_events {
	struct ember_evlist *evlist;
	struct perf_event_attr attr;	/* every evsel's sample layout */
	struct id_kind *ids;
	int nr_ids;
	struct ember_machine *machine;
	struct queued *queue;
	size_t nr, alloc;
	uint64_t seq;
	uint64_t lost;
	uint64_t read_time;		/* CLOCK_MONOTONIC when the buffers were last read */
	char *chain;			/* a fault's frames, CHAIN_SIZE bytes (--call-graph) */
};

#define CHAIN_SIZE 32768

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

/* An event sampled at each occurrence; the first carries the side-band records. */
static struct ember_evsel *add_event(struct trace_perf_events *pe, uint32_t type, uint64_t config,
				     const char *name, const struct trace_perf_events_opts *t)
{
	bool first = !ember_evlist__nr_entries(pe->evlist);
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = type,
		.config = config,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_RAW |
			       (t->callchain && type == PERF_TYPE_SOFTWARE ? PERF_SAMPLE_CALLCHAIN : 0),
		.sample_id_all = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.inherit = t->command > 0 && !t->no_inherit,
		.disabled = t->command > 0,
		.enable_on_exec = t->command > 0,
	};

	if (first) {
		a.mmap = 1;
		a.mmap2 = 1;
		a.mmap_data = 1;
		a.comm = 1;
		a.comm_exec = 1;
		a.task = 1;
	}
	pe->attr = a;
	return ember_evlist__add_attr(pe->evlist, &a, name);
}

/* Each open fd's sample id, and what it is. */
static int note_ids(struct trace_perf_events *pe, struct ember_evsel *evsel, enum kind kind,
		    int index)
{
	int n = ember_evsel__nr_cpus(evsel) * ember_evsel__nr_threads(evsel);
	struct id_kind *v = realloc(pe->ids, (pe->nr_ids + n) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	pe->ids = v;
	for (int c = 0; c < ember_evsel__nr_cpus(evsel); c++)
		for (int t = 0; t < ember_evsel__nr_threads(evsel); t++)
			pe->ids[pe->nr_ids++] = (struct id_kind){
				.id = ember_evsel__id(evsel, c, t), .kind = kind, .index = index,
			};
	return 0;
}

static const struct id_kind *kind_of(const struct trace_perf_events *pe, uint64_t id)
{
	for (int i = 0; i < pe->nr_ids; i++)
		if (pe->ids[i].id == id)
			return &pe->ids[i];
	return NULL;
}

static int to_machine(void *ctx, const struct perf_event_header *rec)
{
	int err = ember_machine__process_event(ctx, rec);

	/* a malformed record is skipped, as perf skips what it cannot use */
	return err == -ENOMEM ? err : 0;
}

/* The processes running already: their comms and maps from /proc, as perf synthesizes them. */
static int synthesize(struct trace_perf_events *pe, const struct trace_perf_events_opts *t,
		      struct ember_thread_map *threads)
{
	struct ember_synth_opts so = { .emit = to_machine, .ctx = pe->machine };
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

static int open_maps(const struct trace_perf_events_opts *t, struct ember_cpu_map **cpus,
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

/* The events of t, in the order of the kinds and the probes. */
static int add_events(struct trace_perf_events *pe, const struct trace_perf_events_opts *t)
{
	if ((t->pf_kinds & TRACE_PF_MAJ) &&
	    !add_event(pe, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "major-faults", t))
		return -ENOMEM;
	if ((t->pf_kinds & TRACE_PF_MIN) &&
	    !add_event(pe, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, "minor-faults", t))
		return -ENOMEM;
	for (int i = 0; i < t->nr_probes; i++)
		if (!add_event(pe, PERF_TYPE_TRACEPOINT, t->probe_ids[i], NULL, t))
			return -ENOMEM;
	return 0;
}

static int note_all_ids(struct trace_perf_events *pe, const struct trace_perf_events_opts *t)
{
	struct ember_evsel *evsel = NULL;
	int err = 0, probe = 0;

	while (!err && (evsel = ember_evlist__next(pe->evlist, evsel))) {
		const struct perf_event_attr *a = ember_evsel__attr(evsel);

		if (a->type == PERF_TYPE_TRACEPOINT)
			err = note_ids(pe, evsel, KIND_PROBE, t->index_base + probe++);
		else
			err = note_ids(pe, evsel, a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ ?
						 KIND_MAJ : KIND_MIN, 0);
	}
	return err;
}

struct trace_perf_events *trace_perf_events__new(const struct trace_perf_events_opts *t)
{
	struct trace_perf_events *pe = calloc(1, sizeof(*pe));
	struct ember_symbol_opts so = { .sz = sizeof(so) };
	struct ember_cpu_map *cpus = NULL;
	struct ember_thread_map *threads = NULL;
	int err = -ENOMEM;

	if (!pe)
		return NULL;
	pe->evlist = ember_evlist__new();
	pe->machine = ember_machine__new(&so);
	if (!pe->evlist || !pe->machine)
		goto out_err;
	if (t->callchain && !(pe->chain = malloc(CHAIN_SIZE)))
		goto out_err;
	err = add_events(pe, t);
	if (!err)
		err = open_maps(t, &cpus, &threads);
	if (err)
		goto out_err;
	ember_evlist__set_maps(pe->evlist, cpus, threads);
	err = synthesize(pe, t, threads);
	if (!err)
		err = ember_evlist__open(pe->evlist);
	if (!err)
		err = note_all_ids(pe, t);
	if (!err)
		err = ember_evlist__mmap(pe->evlist, PERF_EVENTS_PAGES);
	ember_cpu_map__put(cpus);
	ember_thread_map__put(threads);
	if (!err)
		return pe;
out_err:
	trace_perf_events__delete(pe);
	errno = -err;
	return NULL;
}

void trace_perf_events__delete(struct trace_perf_events *pe)
{
	if (!pe)
		return;
	free(pe->ids);
	free(pe->chain);
	for (size_t i = 0; i < pe->nr; i++)
		free(pe->queue[i].rec);
	free(pe->queue);
	ember_evlist__delete(pe->evlist);
	ember_machine__delete(pe->machine);
	free(pe);
}

void trace_perf_events__stop(struct trace_perf_events *pe)
{
	ember_evlist__disable(pe->evlist);
}

uint64_t trace_perf_events__lost(const struct trace_perf_events *pe)
{
	return pe->lost;
}

static int enqueue(struct trace_perf_events *pe, const struct perf_event_header *hdr)
{
	struct ember_sample s;
	struct queued *q;

	if (hdr->type == PERF_RECORD_SAMPLE ? ember_sample__parse(&s, hdr, &pe->attr) :
					      ember_sample__parse_id(&s, hdr, &pe->attr))
		return 0;	/* malformed: skipped */
	if (pe->nr == pe->alloc) {
		size_t alloc = pe->alloc ? 2 * pe->alloc : 256;

		q = realloc(pe->queue, alloc * sizeof(*q));
		if (!q)
			return -ENOMEM;
		pe->queue = q;
		pe->alloc = alloc;
	}
	q = &pe->queue[pe->nr];
	q->rec = malloc(hdr->size);
	if (!q->rec)
		return -ENOMEM;
	memcpy(q->rec, hdr, hdr->size);
	q->time = s.time;
	q->seq = pe->seq++;
	pe->nr++;
	return 0;
}

static int cmp_queued(const void *pa, const void *pb)
{
	const struct queued *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

int trace_perf_events__read(struct trace_perf_events *pe)
{
	int n = ember_evlist__nr_mmaps(pe->evlist), err = 0;

	/* what happened before now is in the buffers (a sample is written as it happens) */
	pe->read_time = now();
	for (int i = 0; i < n && !err; i++) {
		struct ember_mmap *map = ember_evlist__mmap_at(pe->evlist, i);
		const struct perf_event_header *hdr;

		if (!ember_mmap__read_init(map))
			continue;
		while (!err && (hdr = ember_mmap__read_event(map))) {
			if (hdr->type == PERF_RECORD_LOST)
				pe->lost += ((const uint64_t *)(hdr + 1))[1];
			else
				err = enqueue(pe, hdr);
		}
		ember_mmap__read_done(map);
	}
	if (pe->nr)	/* (qsort is not given NULL) */
		qsort(pe->queue, pe->nr, sizeof(*pe->queue), cmp_queued);
	return err;
}

/* A fault: its description, then the printer's. */
static int handle_fault(struct trace_perf_events *pe, const struct ember_sample *s, bool major,
			trace_fault_fn fn, void *ctx)
{
	struct trace_fault fault;
	char text[1024];

	if (trace_fault__describe(pe->machine, s, major, text, sizeof(text), pe->chain,
				  pe->chain ? CHAIN_SIZE : 0, &fault))
		return -ENOMEM;
	return fn(ctx, &fault);
}

/* A probe's hit as a record of the BPF tracer's tracepoints, the thread named by the machine. */
static int handle_probe(struct trace_perf_events *pe, const struct ember_sample *s, int index,
			ember_systrace_tp_fn fn, void *ctx)
{
	struct ember_thread *t = ember_machine__findnew_thread(pe->machine, (pid_t)s->pid,
							       (pid_t)s->tid);
	struct ember_systrace_tp_rec rec = {
		.time = s->time, .pid = (pid_t)s->pid, .tid = (pid_t)s->tid, .index = index,
		.raw = s->raw_data, .size = s->raw_size,
	};

	if (!t)
		return -ENOMEM;
	snprintf(rec.comm, sizeof(rec.comm), "%s", ember_thread__comm(t));
	return fn(ctx, &rec);
}

static int handle_sample(struct trace_perf_events *pe, const struct perf_event_header *hdr,
			 const struct trace_perf_handlers *h)
{
	const struct id_kind *k;
	struct ember_sample s;

	if (ember_sample__parse(&s, hdr, &pe->attr) || !(k = kind_of(pe, s.id)))
		return 0;
	if (k->kind == KIND_PROBE)
		return h->probe ? handle_probe(pe, &s, k->index, h->probe, h->ctx) : 0;
	return h->fault ? handle_fault(pe, &s, k->kind == KIND_MAJ, h->fault, h->ctx) : 0;
}

int trace_perf_events__flush(struct trace_perf_events *pe, uint64_t before,
			     const struct trace_perf_handlers *h)
{
	size_t i;
	int err = 0;

	/*
	 * An event from after the last read: the buffers may hold older ones
	 * since (a thread's fault written before its next syscall, say)
	 */
	if (before != UINT64_MAX && before > pe->read_time)
		err = trace_perf_events__read(pe);
	if (err || !pe->nr || pe->queue[0].time >= before)
		return err;
	for (i = 0; i < pe->nr && pe->queue[i].time < before && !err; i++) {
		struct perf_event_header *hdr = pe->queue[i].rec;

		if (hdr->type == PERF_RECORD_SAMPLE)
			err = handle_sample(pe, hdr, h);
		else
			err = to_machine(pe->machine, hdr);
		free(hdr);
	}
	memmove(pe->queue, pe->queue + i, (pe->nr - i) * sizeof(*pe->queue));
	pe->nr -= i;
	return err;
}
