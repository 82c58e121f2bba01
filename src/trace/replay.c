// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember trace -i FILE: a perf.data file holding raw_syscalls:sys_enter and
 * sys_exit samples (perf trace record's or ember trace record's) read
 * through the session, each sample's fields decoded with its tracepoint
 * format, and handed to the lines' printer as the live tracer hands its
 * events: an entry alone, then its exit with the entry it ends. -s/-S fill
 * the summary by perf's rules on the way (a call lasts from its thread's
 * last entry, 0 without one; a thread's events are its entries and exits).
 * As perf trace -i, the samples of major-faults and minor-faults events
 * (perf record -e minor-faults -c 1 -d) are printed too, placed in the
 * session's maps, and a file of faults alone needs no syscall events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <ember/event.h>
#include <ember/machine.h>
#include <ember/session.h>
#include <ember/syscall.h>
#include <ember/systrace-summary.h>
#include <ember/trace.h>
#include "core/hash.h"
#include "core/hashtab.h"
#include "trace/fault-text.h"
#include "trace/print.h"
#include "trace/replay.h"
#include "trace/summary.h"
#include "util/session-open.h"

/* room for a fault's frames, a line each */
#define FAULT_CHAIN_SIZE 32768

/* A thread's last entry: the one its exit ends, and when it was. */
struct pending {
	struct ember_syscall_rec rec;
	bool valid;
	uint64_t enter_time;		/* never reset, as perf's entry_time */
};

/* One of the two events: its id and where its fields are. */
struct sys_event {
	int id;
	const struct ember_trace_field *nr;	/* "id" */
	const struct tep_format_field *args;	/* sys_enter's "args", unsigned long[6] */
	const struct ember_trace_field *ret;	/* sys_exit's "ret" */
};

struct replay {
	struct trace_opts *o;
	struct sys_event enter, exit;
	struct trace_printer printer;
	struct ember_syscalls *syscalls;
	struct ember_syscall_summary *summary;	/* -s/-S */
	struct hashtab threads;			/* hash_mix64(tid) -> struct pending * */
	struct ember_machine *machine;		/* the session's */
	char *chain;				/* a fault's frames, FAULT_CHAIN_SIZE bytes */
	int err;
};

/* perf trace -i names a pid by the file's thread of that number (pid 0: "swapper"). */
static const char *machine_comm(void *names, pid_t pid)
{
	struct ember_thread *t = ember_machine__find_thread(names, pid, pid);

	return t ? ember_thread__comm(t) : NULL;
}

static bool is_fault(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ ||
						  a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN);
}

/* Whether the file has fault events with their addresses, which perf trace -i shows. */
static bool has_faults(struct ember_session *s)
{
	struct ember_data_reader *rd = ember_session__reader(s);

	for (uint32_t i = 0; i < ember_data_reader__nr_attrs(rd); i++) {
		const struct perf_event_attr *a = &ember_data_reader__attr(rd, i)->attr;

		if (is_fault(a) && (a->sample_type & PERF_SAMPLE_ADDR))
			return true;
	}
	return false;
}

static int find_event(struct ember_session *s, const char *name, struct sys_event *ev,
		      bool optional)
{
	struct ember_trace *t = ember_session__trace(s);
	struct tep_event *e;

	ev->id = t ? ember_trace__event_id(t, "raw_syscalls", name) : -ENOENT;
	if (ev->id < 0 && optional)
		return 0;
	if (ev->id < 0) {
		fprintf(stderr, "ember trace: %s has no raw_syscalls:%s event; record it with "
			"ember trace record\n", ember_session__path(s), name);
		return -1;
	}
	ev->nr = ember_trace__field(t, ev->id, "id");
	e = tep_find_event(ember_trace__tep(t), ev->id);
	ev->args = e ? tep_find_field(e, "args") : NULL;
	ev->ret = ember_trace__field(t, ev->id, "ret");
	return ev->nr ? 0 : -1;
}

static struct pending *pending_of(struct replay *r, pid_t tid)
{
	uint64_t h = hash_mix64((uint64_t)(uint32_t)tid);
	struct hashtab_slot *s;
	struct pending *p;

	if (hashtab__reserve(&r->threads, 1))
		return NULL;
	s = hashtab__slot(&r->threads, h, hashtab__eq_hash, NULL);
	if (s->val)
		return (struct pending *)(uintptr_t)s->val;
	p = calloc(1, sizeof(*p));
	if (p)
		hashtab__fill(&r->threads, s, h, (uintptr_t)p);
	return p;
}

static void fill_rec(struct ember_syscall_rec *rec, const struct ember_session_sample *ss, int nr)
{
	const char *comm = ss->thread ? ember_thread__comm(ss->thread) : NULL;

	memset(rec, 0, sizeof(*rec));
	rec->time = ss->sample->time;
	rec->pid = ss->sample->pid;
	rec->tid = ss->sample->tid;
	rec->nr = nr;
	snprintf(rec->comm, sizeof(rec->comm), "%s", comm ? comm : "");
}

/* The summary's thread for the sample, named as the session names it now. */
static struct ember_syscall_summary_thread *summary_thread(struct replay *r,
							   const struct ember_syscall_rec *rec)
{
	struct ember_syscall_summary_thread *t;

	if (!r->summary)
		return NULL;
	t = ember_syscall_summary__thread(r->summary, rec->pid, rec->tid);
	if (!t) {
		r->err = -ENOMEM;
		return NULL;
	}
	memcpy(t->comm, rec->comm, sizeof(t->comm));
	t->events++;
	return t;
}

static int on_sys_enter(struct replay *r, const struct ember_session_sample *ss, int nr)
{
	const struct ember_sample *smp = ss->sample;
	const struct tep_format_field *f = r->enter.args;
	struct pending *p = pending_of(r, smp->tid);

	if (!p)
		return -ENOMEM;
	fill_rec(&p->rec, ss, nr);
	if (f && (uint32_t)(f->offset + f->size) <= smp->raw_size)
		for (int i = 0; i < EMBER_SYSCALL_MAX_ARGS && (i + 1) * 8 <= f->size; i++)
			p->rec.args[i] = tep_read_number(f->event->tep,
							 (const char *)smp->raw_data + f->offset +
								 i * 8, 8);
	p->valid = true;
	p->enter_time = smp->time;
	summary_thread(r, &p->rec);
	return r->o->summary_only ? 0 : trace_printer__event(&r->printer, &p->rec, NULL);
}

static int on_sys_exit(struct replay *r, const struct ember_session_sample *ss, int nr)
{
	const struct ember_sample *smp = ss->sample;
	struct pending *p = pending_of(r, smp->tid);
	const struct ember_syscall_rec *enter = NULL;
	struct ember_syscall_summary_thread *t;
	struct ember_syscall_rec rec;
	uint64_t ret = 0;
	int err = 0;

	if (!p)
		return -ENOMEM;
	fill_rec(&rec, ss, nr);
	if (r->exit.ret)
		ember_trace_field__num(r->exit.ret, smp->raw_data, smp->raw_size, &ret);
	rec.ret = (int64_t)ret;
	if (p->valid && p->rec.nr == nr)
		enter = &p->rec;
	t = summary_thread(r, &rec);
	if (t) {
		struct ember_syscall_stats *st = ember_syscall_summary_thread__stats(t, nr);
		uint64_t d = p->enter_time && smp->time > p->enter_time ?
				     smp->time - p->enter_time : 0;

		if (st)
			ember_syscall_stats__add(st, d, rec.ret < 0);
		if (!st || (rec.ret < 0 && rec.ret >= -4095 &&
			    ember_syscall_stats__add_errno(st, (int)-rec.ret, 1)))
			r->err = -ENOMEM;
	}
	if (!r->o->summary_only)
		err = trace_printer__event(&r->printer, enter, &rec);
	p->valid = false;
	return err;
}

/* A fault as the live -F prints it, counted for -s by the printer. */
static int on_fault(struct replay *r, const struct ember_session_sample *ss)
{
	const struct perf_event_attr *a = &ss->attr->attr;
	struct trace_fault fault;
	char text[1024];

	if (!(a->sample_type & PERF_SAMPLE_ADDR))
		return 0;
	if (trace_fault__describe(r->machine, ss->sample,
				  a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ, text, sizeof(text),
				  r->chain, FAULT_CHAIN_SIZE, &fault))
		return -ENOMEM;
	return trace_printer__fault(&r->printer, &fault);
}

static int on_sample(struct ember_session *s, const struct ember_session_sample *ss, void *ctx)
{
	struct replay *r = ctx;
	const struct ember_sample *smp = ss->sample;
	bool is_enter = (int)ss->attr->attr.config == r->enter.id;
	uint64_t nr;
	int err;

	if (is_fault(&ss->attr->attr))
		return on_fault(r, ss);
	if (ss->attr->attr.type != PERF_TYPE_TRACEPOINT ||
	    (!is_enter && (int)ss->attr->attr.config != r->exit.id))
		return 0;
	if (ember_trace_field__num(is_enter ? r->enter.nr : r->exit.nr, smp->raw_data,
				   smp->raw_size, &nr))
		return 0;
	/* what perf trace knows no format for it does not show */
	if ((int64_t)nr < 0 || !ember_syscalls__format(r->syscalls, (int)nr))
		return 0;
	err = is_enter ? on_sys_enter(r, ss, (int)nr) : on_sys_exit(r, ss, (int)nr);
	return err ? err : r->err;
}

int trace_replay(struct trace_opts *o)
{
	struct ember_session_opts sopts = { .sz = sizeof(sopts) };
	const struct ember_session_ops ops = { .sample = on_sample };
	struct replay r = { .o = o };
	struct ember_session *s;
	struct hashtab_slot *slot;
	char root[4000];
	int err, ret = 1;
	bool faults;

	s = session_open("trace", o->input, &sopts);
	if (!s)
		return 1;
	faults = has_faults(s);
	if (find_event(s, "sys_enter", &r.enter, faults) ||
	    find_event(s, "sys_exit", &r.exit, faults))
		goto out_session;
	err = ember_tracefs__find(root, sizeof(root));
	if (err) {
		fprintf(stderr, "ember trace: cannot find tracefs: %s\n", strerror(-err));
		goto out_session;
	}
	r.syscalls = ember_syscalls__new(root);
	r.summary = o->summary ? ember_syscall_summary__new() : NULL;
	r.machine = ember_session__machine(s);
	r.chain = faults ? malloc(FAULT_CHAIN_SIZE) : NULL;
	if (!r.syscalls || (o->summary && !r.summary) || (faults && !r.chain)) {
		fprintf(stderr, "ember trace: out of memory\n");
		goto out;
	}
	trace_printer__init(&r.printer, stderr, r.syscalls);
	r.printer.summary_only = o->summary_only;
	r.printer.pid_comm = machine_comm;
	r.printer.names = ember_session__machine(s);
	err = ember_session__process(s, &ops, &r);
	if (err)
		fprintf(stderr, "ember trace: cannot read %s: %s\n", ember_session__path(s),
			strerror(err < 0 ? -err : err));
	else if (r.summary)
		trace_summary__print(stderr, r.summary, o->errno_summary,
				     faults ? &r.printer.state : NULL);
	trace_printer__exit(&r.printer);
	ret = err ? 1 : 0;
out:
	hashtab__for_each(&r.threads, slot)
		free((void *)(uintptr_t)slot->val);
	hashtab__exit(&r.threads);
	free(r.chain);
	ember_syscall_summary__delete(r.summary);
	ember_syscalls__delete(r.syscalls);
out_session:
	ember_session__delete(s);
	return ret;
}
