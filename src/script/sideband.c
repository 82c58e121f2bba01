// SPDX-License-Identifier: GPL-2.0-only
/*
 * The description perf script prints after the usual prefix for the
 * side-band records --show-task-events, --show-mmap-events, ... select:
 * "PERF_RECORD_COMM exec: ls:12/12". Fields that run to the end of the
 * record are bounded by it.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <ember/perf-data.h>
#include "script/sideband.h"

/* A string at the end of a record, bounded by the record. */
static int str_len(const struct perf_event_header *h, const char *s)
{
	const char *end = (const char *)h + h->size;

	return s < end ? (int)strnlen(s, end - s) : 0;
}

static void print_mmap2(struct outbuf *ob, const struct perf_event_header *h)
{
	const struct ember_record_mmap2 *m = (const void *)h;

	outbuf__printf(ob, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m->pid,
		       (int)m->tid, m->start, m->len, m->pgoff);
	if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		outbuf__puts(ob, " <");
		for (int i = 0; i < m->build_id_size && i < 20; i++)
			outbuf__printf(ob, "%02x", m->build_id[i]);
		outbuf__putc(ob, '>');
	} else {
		outbuf__printf(ob, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino,
			       m->ino_generation);
	}
	outbuf__printf(ob, "]: %c%c%c%c %.*s\n", (m->prot & PROT_READ) ? 'r' : '-',
		       (m->prot & PROT_WRITE) ? 'w' : '-', (m->prot & PROT_EXEC) ? 'x' : '-',
		       (m->flags & MAP_SHARED) ? 's' : 'p', str_len(h, m->filename), m->filename);
}

static void print_switch(struct outbuf *ob, const struct perf_event_header *h)
{
	const struct ember_record_switch *sw = (const void *)h;
	bool out = h->misc & PERF_RECORD_MISC_SWITCH_OUT;
	const char *in_out = !out ? "IN         " :
			     !(h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT        " :
										 "OUT preempt";

	if (h->type == PERF_RECORD_SWITCH)
		outbuf__printf(ob, " %s\n", in_out);
	else
		outbuf__printf(ob, " %s  %s pid/tid: %5d/%-5d\n", in_out, out ? "next" : "prev",
			       (int)sw->next_prev_pid, (int)sw->next_prev_tid);
}

void script_sideband__print(struct outbuf *ob, const struct perf_event_header *h)
{
	const char *name = ember_record__name(h->type);
	const void *p = h;

	outbuf__puts(ob, "PERF_RECORD_");
	outbuf__puts(ob, name ? name : "(unknown)");
	if (h->size < ember_record__min_size(h->type)) {
		outbuf__putc(ob, '\n');
		return;
	}
	switch (h->type) {
	case PERF_RECORD_MMAP: {
		const struct ember_record_mmap *m = p;

		outbuf__printf(ob, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %.*s\n",
			       (int)m->pid, (int)m->tid, m->start, m->len, m->pgoff,
			       (h->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
			       str_len(h, m->filename), m->filename);
		break;
	}
	case PERF_RECORD_MMAP2:
		print_mmap2(ob, h);
		break;
	case PERF_RECORD_COMM: {
		const struct ember_record_comm *c = p;

		outbuf__printf(ob, "%s: %.*s:%d/%d\n",
			       (h->misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
			       str_len(h, c->comm), c->comm, (int)c->pid, (int)c->tid);
		break;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		const struct ember_record_task *t = p;

		outbuf__printf(ob, "(%d:%d):(%d:%d)\n", (int)t->pid, (int)t->tid, (int)t->ppid,
			       (int)t->ptid);
		break;
	}
	case PERF_RECORD_LOST:
		outbuf__printf(ob, " lost %" PRIu64 "\n", ((const struct ember_record_lost *)p)->lost);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		print_switch(ob, h);
		break;
	case PERF_RECORD_KSYMBOL: {
		const struct ember_record_ksymbol *k = p;

		outbuf__printf(ob, " addr %" PRIx64 " len %u type %u flags 0x%x name %.*s\n",
			       k->addr, k->len, k->ksym_type, k->flags, str_len(h, k->name),
			       k->name);
		break;
	}
	case PERF_RECORD_BPF_EVENT: {
		const struct ember_record_bpf_event *b = p;

		outbuf__printf(ob, " type %u, flags %u, id %u\n", b->type, b->flags, b->id);
		break;
	}
	case PERF_RECORD_CGROUP: {
		const struct ember_record_cgroup *c = p;

		outbuf__printf(ob, " cgroup: %" PRIu64 " %.*s\n", c->id, str_len(h, c->path),
			       c->path);
		break;
	}
	case PERF_RECORD_NAMESPACES: {
		static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt",
						  "cgroup" };
		const struct ember_record_namespaces *n = p;
		uint64_t nr = n->nr_namespaces, max = (h->size - sizeof(*n)) / 16;

		if (nr > max)
			nr = max;
		outbuf__printf(ob, " %d/%d - nr_namespaces: %u\n\t\t[", (int)n->pid, (int)n->tid,
			       (unsigned int)n->nr_namespaces);
		for (uint64_t i = 0; i < nr; i++) {
			if (i && !(i % 4))
				outbuf__puts(ob, "\n\t\t ");
			outbuf__printf(ob, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned int)i,
				       i < 7 ? ns[i] : "?", n->link_info[i].dev,
				       n->link_info[i].ino, i + 1 != nr ? ", " : "]\n");
		}
		if (!nr)
			outbuf__puts(ob, "]\n");
		break;
	}
	default:
		outbuf__putc(ob, '\n');
		break;
	}
}
