// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember script's pass over the file: the session delivers samples (time
 * ordered, resolved) and the other records; this prints them as perf
 * script 6.1 does, with -D's raw dump interleaved where perf puts it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <ember/trace.h>
#include <ember/event.h>
#include "script/script.h"
#include "script/sideband.h"

static bool is_dummy(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;
}

/* The name perf gives an event the file does not name, made from its attr (malloc'ed). */
static char *event_name(struct script *sc, const struct ember_data_attr *a)
{
	char buf[256];

	if (a->attr.type == PERF_TYPE_TRACEPOINT) {
		struct ember_trace *t = ember_session__trace(sc->session);
		const char *sys, *name;

		if (t && !ember_trace__event_name(t, (int)a->attr.config, &sys, &name)) {
			snprintf(buf, sizeof(buf), "%s:%s", sys, name);
			return strdup(buf);
		}
	}
	ember_event_names__attr_name(&a->attr, buf, sizeof(buf));
	return strdup(buf);
}

int script__sync_events(struct script *sc)
{
	uint32_t nr = ember_data_reader__nr_attrs(sc->reader);
	struct script_event *ev;
	struct script_event_info *info;

	if (nr <= sc->nr_events)
		return 0;
	ev = realloc(sc->events, nr * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	sc->events = ev;
	info = realloc(sc->infos, nr * sizeof(*info));
	if (!info)
		return -ENOMEM;
	sc->infos = info;
	for (uint32_t i = sc->nr_events; i < nr; i++) {
		const struct ember_data_attr *a = ember_data_reader__attr(sc->reader, i);

		ev[i].attr = a;
		/* copied: in pipe mode the reader's name can point into its read buffer */
		ev[i].owned_name = a->name ? strdup(a->name) : event_name(sc, a);
		ev[i].name = ev[i].owned_name ? ev[i].owned_name : "[unknown]";
		info[i] = (struct script_event_info){
			.type = a->attr.type,
			.sample_type = a->attr.sample_type,
			.name = ev[i].name,
			.dummy = is_dummy(&a->attr),
		};
	}
	sc->nr_events = nr;
	return 0;
}

/* The event column is as wide as the longest name of the events known at the first sample. */
static void set_name_width(struct script *sc)
{
	int w = 0;

	for (uint32_t i = 0; i < sc->nr_events; i++) {
		int n = (int)strlen(sc->events[i].name);

		if (n > w)
			w = n;
	}
	sc->pr.name_width = w;
	sc->width_done = true;
}

static void dump_record(struct script *sc, const struct perf_event_header *hdr, uint64_t offset)
{
	struct ember_data_record rec = { .hdr = hdr, .offset = offset };

	outbuf__flush(&sc->out);
	ember_data__dump_record(stdout, sc->reader, &rec, sc->dump_name, EMBER_DUMP_SCRIPT);
}

static void dump_resolved(struct script *sc, const struct ember_addr_location *al)
{
	const char *dso = al->map && al->dso_name ? al->dso_name :
			  al->level == 'H'        ? "[hypervisor]" :
						    "<not found>";

	outbuf__printf(&sc->out, " ... thread: %s:%d\n ...... dso: %s\n", al->comm ? al->comm : "",
		       al->thread ? (int)ember_thread__tid(al->thread) : -1, dso);
}

static struct ember_trace *trace_of(struct script *sc)
{
	if (!sc->pr.trace && !sc->trace_tried) {
		sc->pr.trace = ember_session__trace(sc->session);
		sc->trace_tried = true;
	}
	return sc->pr.trace;
}

static int on_sample(struct ember_session *s, const struct ember_session_sample *ss, void *ctx)
{
	struct script *sc = ctx;
	const struct ember_sample *sm = ss->sample;
	const struct script_event *ev;
	struct script_sample out;
	struct ember_sample absent;
	uint64_t fields, st;

	if (sc->o.dump)
		dump_record(sc, ss->hdr, ss->file_offset);
	if (script_filter__skip_time(&sc->filter, sm->time) ||
	    script_filter__skip_cpu(&sc->filter, sm->cpu))
		return 0;
	if (sc->o.dump)
		dump_resolved(sc, &ss->al);
	if (script_filter__skip_sample(&sc->filter, &ss->al))
		return 0;
	if (!ss->attr)
		return 0;
	if (ss->attr->idx >= sc->nr_events && script__sync_events(sc))
		return -ENOMEM;
	ev = &sc->events[ss->attr->idx];
	fields = script_fields__of(&sc->fields, ev->attr->attr.type);
	if (!fields)
		return 0;
	if (!sc->width_done)
		set_name_width(sc);
	if ((fields & SF_TRACE) && sm->raw_data)
		trace_of(sc);

	out = (struct script_sample){
		.attr_type = ev->attr->attr.type,
		.sample_type = ev->attr->attr.sample_type,
		.evname = ev->name,
		.s = sm,
		.comm = ss->al.comm,
		.al = &ss->al,
		.record_type = PERF_RECORD_SAMPLE,
		/* without PERIOD in the samples perf shows the fixed period of -c */
		.period = (ev->attr->attr.sample_type & PERF_SAMPLE_PERIOD) ?
				  sm->period : ev->attr->attr.sample_period,
	};
	/*
	 * A field the event does not record is -1 in perf's samples: no
	 * TID is thread -1, known as ":-1"; no CPU is cpu -1.
	 */
	st = ev->attr->attr.sample_type;
	if (!(st & PERF_SAMPLE_TID) || !(st & PERF_SAMPLE_CPU)) {
		absent = *sm;
		if (!(st & PERF_SAMPLE_TID)) {
			absent.pid = absent.tid = (uint32_t)-1;
			out.comm = ":-1";
		}
		if (!(st & PERF_SAMPLE_CPU))
			absent.cpu = (uint32_t)-1;
		out.s = &absent;
	}
	if (script_printer__chain_layout(&sc->pr, fields, out.sample_type)) {
		/* perf stops at --max-stack frames, and looks no further for bad markers */
		out.nr_chain = sc->pr.max_stack ?
			ember_session__callchain_max(s, ss, sc->pr.max_stack, &out.chain) : 0;
		if (out.nr_chain == -ENOMEM)
			return -ENOMEM;
		/* an unknown context marker: perf resets the chain and prints none of it */
		if (out.nr_chain < 0)
			out.nr_chain = 0;
		out.chain_limited = true;
	}
	if (ss->attr->idx < sc->nr_dumps) {
		struct script_dump *d = &sc->dumps[ss->attr->idx];

		d->samples++;
		script_print__sample(&sc->pr, &d->ob, &out);
		return d->ob.error ? -EIO : 0;
	}
	script_print__sample(&sc->pr, &sc->out, &out);
	return sc->out.error ? -EIO : 0;
}

/* perf's print_event_with_time(): the usual prefix, then the record's description. */
static void print_sideband(struct script *sc, const struct perf_event_header *h,
			   const struct ember_sample *id, int32_t pid, int32_t tid, uint64_t time)
{
	const struct ember_data_attr *a = ember_data_reader__attr_of(sc->reader, h);
	struct ember_sample sm;
	struct script_sample out = { .s = &sm, .record_type = h->type };

	if (id) {
		sm = *id;
	} else {
		memset(&sm, 0, sizeof(sm));
		sm.pid = sm.tid = sm.cpu = (uint32_t)-1;
	}
	sm.misc = h->misc;
	if (a && !a->attr.sample_id_all) {
		sm.cpu = 0;
		sm.time = time;
		sm.pid = (uint32_t)pid;
		sm.tid = (uint32_t)tid;
	}
	if (script_filter__skip_cpu(&sc->filter, sm.cpu))
		return;
	if (tid != -1) {
		struct ember_thread *t = ember_machine__findnew_thread(sc->machine, pid, tid);

		out.comm = t ? ember_thread__comm(t) : NULL;
	}
	if (a) {
		if (a->idx >= sc->nr_events && script__sync_events(sc))
			return;
		out.attr_type = a->attr.type;
		out.sample_type = a->attr.sample_type;
		script_print__start(&sc->pr, &sc->out, &out, script_fields__of(&sc->fields, a->attr.type));
	}
	script_sideband__print(&sc->out, h);
	outbuf__line_done(&sc->out);
}

static bool shown(const struct script *sc, uint32_t type)
{
	const struct script_opts *o = &sc->o;

	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return o->show_task;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return o->show_mmap;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return o->show_switch;
	case PERF_RECORD_LOST:
		return o->show_lost;
	case PERF_RECORD_NAMESPACES:
		return o->show_namespace;
	case PERF_RECORD_CGROUP:
		return o->show_cgroup;
	case PERF_RECORD_KSYMBOL:
		return o->show_bpf || o->show_text_poke;
	case PERF_RECORD_BPF_EVENT:
		return o->show_bpf;
	case PERF_RECORD_TEXT_POKE:
		return o->show_text_poke;
	default:
		return false;
	}
}

static int attr_arrived(struct script *sc)
{
	struct script_file_info info = {
		.events = sc->infos,
		.nr_events = ++sc->nr_attr_records,
		.pipe = true,
		.no_callchain = sc->o.hide_call_graph,
	};

	if (script__sync_events(sc))
		return -ENOMEM;
	if (info.nr_events > sc->nr_events)
		return 0;
	outbuf__flush(&sc->out);
	if (script_fields__attr_arrived(&sc->fields, &info, sc->pr.use_callchain, stderr)) {
		sc->err = -EINVAL;
		return -EINVAL;
	}
	return 0;
}

/* The record's -D text, malloc'ed and NUL-terminated; NULL when memory runs out. */
static char *dump_text(struct script *sc, const struct ember_data_record *rec, size_t *len)
{
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);

	if (!m)
		return NULL;
	ember_data__dump_record(m, sc->reader, rec, sc->dump_name, EMBER_DUMP_SCRIPT);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * perf script prints an EXIT's --show-task-events line before the session
 * ends the record's -D line with "(pid:tid):(ppid:ptid)": right after
 * "PERF_RECORD_EXIT".
 */
static int dump_exit(struct script *sc, const struct ember_data_record *rec,
		     const struct ember_sample *id)
{
	static const char mark[] = "PERF_RECORD_EXIT";
	const struct ember_record_task *t = (const void *)rec->hdr;
	size_t len, head;
	char *buf = dump_text(sc, rec, &len), *p, *at = NULL;

	if (!buf)
		return -ENOMEM;
	for (p = strstr(buf, mark); p; p = strstr(p + 1, mark))
		at = p;
	head = at ? (size_t)(at - buf) + sizeof(mark) - 1 : len;
	fwrite(buf, 1, head, stdout);
	if (rec->hdr->size >= sizeof(*t)) {
		print_sideband(sc, rec->hdr, id, t->pid, t->tid, t->time);
		outbuf__flush(&sc->out);
	}
	fwrite(buf + head, 1, len - head, stdout);
	free(buf);
	return sc->out.error ? -EIO : 0;
}

/*
 * Unordered, a round's -D line ends in the handler: --show-round-events
 * prints its own line right after it, else perf's stub says "unhandled".
 */
static int dump_round(struct script *sc, const struct ember_data_record *rec)
{
	size_t len;
	char *buf = dump_text(sc, rec, &len);

	if (!buf)
		return -ENOMEM;
	if (len && buf[len - 1] == '\n')
		len--;
	fwrite(buf, 1, len, stdout);
	if (!sc->o.show_round)
		fputs(": unhandled!\n", stdout);
	free(buf);
	return 0;
}

static int on_record(struct ember_session *s, const struct ember_data_record *rec,
		     const struct ember_sample *id, void *ctx)
{
	struct script *sc = ctx;
	const struct perf_event_header *h = rec->hdr;
	int err = 0;

	if (sc->o.dump) {
		outbuf__flush(&sc->out);
		if (h->type == PERF_RECORD_EXIT && shown(sc, h->type))
			return dump_exit(sc, rec, id);
		if (h->type == EMBER_RECORD_FINISHED_ROUND && (sc->o.show_round || sc->o.dump_unsorted))
			err = dump_round(sc, rec);
		else
			ember_data__dump_record(stdout, sc->reader, rec, sc->dump_name,
						EMBER_DUMP_SCRIPT);
		if (err)
			return err;
	}

	switch (h->type) {
	case EMBER_RECORD_HEADER_ATTR:
		return sc->pipe ? attr_arrived(sc) : 0;
	case EMBER_RECORD_HEADER_TRACING_DATA:
		sc->trace_tried = false;	/* pipe mode: the formats are here now */
		return 0;
	case EMBER_RECORD_FINISHED_ROUND:
		if (sc->o.show_round) {
			script_sideband__print(&sc->out, h);
			outbuf__line_done(&sc->out);
		}
		return 0;
	}
	if (!shown(sc, h->type))
		return 0;

	switch (h->type) {
	case PERF_RECORD_COMM: {
		const struct ember_record_comm *c = (const void *)h;

		print_sideband(sc, h, id, c->pid, c->tid, 0);
		break;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		const struct ember_record_task *t = (const void *)h;

		if (h->size >= sizeof(*t))
			print_sideband(sc, h, id, t->pid, t->tid, t->time);
		break;
	}
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		const struct ember_record_mmap *m = (const void *)h;

		print_sideband(sc, h, id, m->pid, m->tid, 0);
		break;
	}
	case PERF_RECORD_NAMESPACES: {
		const struct ember_record_namespaces *n = (const void *)h;

		print_sideband(sc, h, id, n->pid, n->tid, 0);
		break;
	}
	default:
		print_sideband(sc, h, id, id ? (int32_t)id->pid : -1, id ? (int32_t)id->tid : -1,
			       0);
		break;
	}
	return sc->out.error ? -EIO : 0;
}

int script__run(struct script *sc)
{
	const struct ember_session_ops ops = { .sample = on_sample, .record = on_record };
	int ret = ember_session__process(sc->session, &ops, sc);

	outbuf__flush(&sc->out);
	return ret;
}
