// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Records printed as `perf report -D` (perf 6.1) prints them: the header
 * line, the raw hex dump, then "TIME OFFSET [SIZE]: PERF_RECORD_NAME..."
 * and the decoded fields. Session-level lines (thread, dso) are not ours.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "data/format.h"

void ember_data__dump_hex(FILE *fp, const void *data, size_t size)
{
	const uint8_t *p = data;

	fprintf(fp, ".\n. ... raw event: size %zu bytes\n", size);
	for (size_t line = 0; line < size; line += 16) {
		size_t n = size - line < 16 ? size - line : 16;

		fprintf(fp, ".  %04zx: ", line);
		for (size_t i = 0; i < 16; i++) {
			if (i < n)
				fprintf(fp, " %02x", p[line + i]);
			else
				fputs("   ", fp);
		}
		fputs("  ", fp);
		for (size_t i = 0; i < n; i++)
			fputc(isprint(p[line + i]) && isascii(p[line + i]) ? p[line + i] : '.', fp);
		for (size_t i = n; i < 16; i++)
			fputc(' ', fp);
		fputc('\n', fp);
	}
	fputc('\n', fp);
}

/*
 * The sample_type of the first `nr` events together, and whether the first
 * has sample_id_all: what perf's evlist knew when it printed a record.
 */
static uint64_t combined_sample_type(const struct ember_data_reader *r, uint32_t nr, bool *id_all)
{
	uint64_t st = 0;

	for (uint32_t i = 0; i < nr; i++)
		st |= ember_data_reader__attr(r, i)->attr.sample_type;
	*id_all = nr && ember_data_reader__attr(r, 0)->attr.sample_id_all;
	return st;
}

/*
 * How many events perf had seen when it printed this record: all of them,
 * except for a pipe-mode ATTR record, printed before its own event is added.
 */
static uint32_t events_known(const struct ember_data_reader *r, const struct perf_event_header *h)
{
	uint32_t nr = ember_data_reader__nr_attrs(r);
	const struct ember_data_attr *a;
	uint32_t asz;

	if (h->type != EMBER_RECORD_HEADER_ATTR || h->size < 8 + 8 + 64)
		return nr;
	asz = get_u32((const uint8_t *)h + 8 + offsetof(struct perf_event_attr, size));
	if (!asz)
		asz = 64;
	/* in 64 bits: a corrupt attr size near 4G must not wrap past the check */
	if (h->size < 8 + (uint64_t)asz + 8)
		return nr;
	/* its first id tells which event it is */
	a = ember_data_reader__attr_by_id(r, get_u64((const uint8_t *)h + 8 + asz));
	return a ? a->idx : nr;
}

/*
 * The fields a kernel record of attr a carries (its sample_type, for a
 * sample or a sample_id trailer); all for the records perf adds (no attr),
 * whose zeroed sample perf prints as is.
 */
static uint64_t present_fields(const struct perf_event_header *h, const struct ember_data_attr *a)
{
	if (!a)
		return ~0ULL;
	if (h->type == PERF_RECORD_SAMPLE || a->attr.sample_id_all)
		return a->attr.sample_type;
	return 0;
}

/*
 * The columns come from all the events' sample_types; a record without
 * one of them shows perf's "absent" value, -1 (as u32 for the cpu).
 */
static void print_tstamp(FILE *fp, const struct ember_data_reader *r,
			 const struct perf_event_header *h, const struct ember_sample *s,
			 uint64_t present)
{
	bool id_all;
	uint64_t st = combined_sample_type(r, events_known(r, h), &id_all);

	if (h->type != PERF_RECORD_SAMPLE && !id_all) {
		fputs("-1 -1 ", fp);
		return;
	}
	if (st & PERF_SAMPLE_CPU)
		fprintf(fp, "%u ", present & PERF_SAMPLE_CPU ? s->cpu : UINT32_MAX);
	if (st & PERF_SAMPLE_TIME)
		fprintf(fp, "%" PRIu64 " ", present & PERF_SAMPLE_TIME ? s->time : UINT64_MAX);
}

static const char *x86_reg_name(unsigned int id)
{
	static const char *const names[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static const char *const xmm[] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7",
		"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};

	if (id < sizeof(names) / sizeof(names[0]))
		return names[id];
	/* each XMM register takes two u64 slots, from 32 */
	if (id >= 32 && id < 64 && !(id & 1))
		return xmm[(id - 32) / 2];
	return "unknown";
}

static void print_regs(FILE *fp, const char *type, const struct ember_sample_regs *regs,
		       const char *arch)
{
	static const char *const abi[] = { "none", "32-bit", "64-bit" };
	bool x86 = arch && (!strcmp(arch, "x86_64") || !strcmp(arch, "x86") ||
			    !strncmp(arch, "i686", 4));
	unsigned int i = 0;

	if (!regs->regs)
		return;
	fprintf(fp, "... %s regs: mask 0x%" PRIx64 " ABI %s\n", type, regs->mask,
		regs->abi <= 2 ? abi[regs->abi] : "unknown");
	for (unsigned int bit = 0; bit < 64 && i < regs->nr; bit++) {
		if (!((regs->mask >> bit) & 1))
			continue;
		fprintf(fp, ".... %-5s 0x%016" PRIx64 "\n", x86 ? x86_reg_name(bit) : "unknown",
			regs->regs[i++]);
	}
}

static void page_size_name(char *buf, size_t sz, uint64_t size)
{
	static const char unit[] = "BKMG";
	int i = 0;

	if (!size) {
		snprintf(buf, sz, "N/A");
		return;
	}
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	snprintf(buf, sz, "%" PRIu64 "%c", size, unit[i]);
}

static const char *branch_type_name(unsigned int type)
{
	static const char *const names[] = {
		"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
		"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "";
}

static void print_sample(FILE *fp, const struct perf_event_header *h,
			 const struct perf_event_attr *attr, const struct ember_sample *s,
			 const char *arch)
{
	uint64_t st = attr->sample_type;
	bool tid = st & PERF_SAMPLE_TID;
	char str[32];

	/* without PERIOD in the sample, perf shows the attr's fixed period (-c N) */
	uint64_t period = st & PERF_SAMPLE_PERIOD ? s->period : attr->sample_period;

	fprintf(fp, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		h->misc, tid ? (int)s->pid : -1, tid ? (int)s->tid : -1, s->ip, period, s->addr);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		fprintf(fp, "... FP chain: nr:%" PRIu64 "\n", s->callchain_nr);
		for (uint64_t i = 0; i < s->callchain_nr; i++)
			fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)i, get_u64(&s->callchain[i]));
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		fprintf(fp, "... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
		for (uint64_t i = 0; i < s->branch_nr; i++) {
			struct perf_branch_entry e;

			memcpy(&e, &s->branch[i], sizeof(e));
			fprintf(fp, "..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64
				" %hu cycles %s%s%s%s %x %s\n", i, (uint64_t)e.from, (uint64_t)e.to,
				(unsigned short)e.cycles, e.mispred ? "M" : " ",
				e.predicted ? "P" : " ", e.abort ? "A" : " ", e.in_tx ? "T" : " ",
				(unsigned int)e.reserved, e.type ? branch_type_name(e.type) : "");
		}
	}
	if (st & PERF_SAMPLE_REGS_USER)
		print_regs(fp, "user", &s->user_regs, arch);
	if (st & PERF_SAMPLE_REGS_INTR)
		print_regs(fp, "intr", &s->intr_regs, arch);
	if (st & PERF_SAMPLE_STACK_USER) {
		/*
		 * perf's "size" is the bytes the kernel could fill (dyn_size),
		 * its offset that of the size field within the record
		 */
		unsigned int off = (unsigned int)((const uint8_t *)s->user_stack.data - 8 -
						  (const uint8_t *)h);

		fprintf(fp, "... ustack: size %" PRIu64 ", offset 0x%x\n", s->user_stack.dyn_size, off);
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		fprintf(fp, "... weight: %" PRIu64, s->weight);
		if (st & PERF_SAMPLE_WEIGHT_STRUCT)
			fprintf(fp, ",0x%" PRIx16 ",0x%" PRIx16, s->ins_lat, s->p_stage_cyc);
		fputc('\n', fp);
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		fprintf(fp, " . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		fprintf(fp, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE) {
		page_size_name(str, sizeof(str), s->data_page_size);
		fprintf(fp, " .. data page size: %s\n", str);
	}
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE) {
		page_size_name(str, sizeof(str), s->code_page_size);
		fprintf(fp, " .. code page size: %s\n", str);
	}
	if (st & PERF_SAMPLE_TRANSACTION)
		fprintf(fp, "... transaction: %" PRIx64 "\n", s->transaction);
	if (st & PERF_SAMPLE_READ) {
		uint64_t rf = attr->read_format;

		fprintf(fp, "... sample_read:\n");
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			fprintf(fp, "...... time enabled %016" PRIx64 "\n", s->read.time_enabled);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			fprintf(fp, "...... time running %016" PRIx64 "\n", s->read.time_running);
		if (rf & PERF_FORMAT_GROUP) {
			fprintf(fp, ".... group nr %" PRIu64 "\n", s->read.group_nr);
			for (uint64_t i = 0; i < s->read.group_nr; i++) {
				const uint64_t *v = s->read.group + i * s->read.group_stride;
				uint32_t k = 1;
				uint64_t id = (rf & PERF_FORMAT_ID) ? get_u64(&v[k++]) : 0;

				fprintf(fp, "..... id %016" PRIx64 ", value %016" PRIx64, id,
					get_u64(&v[0]));
				if (rf & PERF_FORMAT_LOST)
					fprintf(fp, ", lost %" PRIu64, get_u64(&v[k]));
				fputc('\n', fp);
			}
		} else {
			fprintf(fp, "..... id %016" PRIx64 ", value %016" PRIx64, s->read.id,
				s->read.value);
			if (rf & PERF_FORMAT_LOST)
				fprintf(fp, ", lost %" PRIu64, s->read.lost);
			fputc('\n', fp);
		}
	}
}

/* A NUL-terminated string field that may run to the end of the record. */
static int str_len(const struct perf_event_header *h, const char *s)
{
	const char *end = (const char *)h + h->size;

	return s < end ? (int)strnlen(s, end - s) : 0;
}

static void print_cpus(FILE *fp, const int *cpus, int nr)
{
	for (int i = 0; i < nr; i++) {
		int j = i;

		while (j + 1 < nr && cpus[j + 1] == cpus[j] + 1 && cpus[i] >= 0)
			j++;
		fprintf(fp, "%s%d", i ? "," : "", cpus[i]);
		if (j > i)
			fprintf(fp, "-%d", cpus[j]);
		i = j;
	}
	fputc('\n', fp);
}

/* A perf_record_cpu_map_data at [p, end) as a cpu list. */
static void print_cpu_map(FILE *fp, const uint8_t *p, const uint8_t *end)
{
	int cpus[1024], nr = 0;
	uint16_t type;

	if (end - p < 4)
		goto bad;
	type = get_u16(p);
	if (type == 0) {		/* u16 nr, u16 cpu[nr] */
		uint16_t n = get_u16(p + 2);

		if ((size_t)(end - p - 4) < n * 2u)
			goto bad;
		for (uint16_t i = 0; i < n && nr < 1024; i++)
			cpus[nr++] = (int16_t)get_u16(p + 4 + 2 * i);
	} else if (type == 1) {		/* u16 nr, u16 long_size, masks */
		uint16_t n = get_u16(p + 2), ls = end - p >= 6 ? get_u16(p + 4) : 0;
		const uint8_t *m = p + (ls == 4 ? 6 : 8);

		if ((ls != 4 && ls != 8) || (size_t)(end - m) < (size_t)n * ls)
			goto bad;
		for (uint32_t bit = 0; bit < (uint32_t)n * ls * 8 && nr < 1024; bit++) {
			uint64_t word = ls == 4 ? get_u32(m + bit / 32 * 4) : get_u64(m + bit / 64 * 8);

			if ((word >> (bit % (ls * 8))) & 1)
				cpus[nr++] = bit;
		}
	} else if (type == 2) {		/* u8 any_cpu, u8 pad, u16 start, u16 end */
		if (end - p < 8)
			goto bad;
		if (p[2])
			cpus[nr++] = -1;
		for (int c = get_u16(p + 4); c <= get_u16(p + 6) && nr < 1024; c++)
			cpus[nr++] = c;
	} else {
		goto bad;
	}
	print_cpus(fp, cpus, nr);
	return;
bad:
	fprintf(fp, "failed to get cpumap from event\n");
}

static void print_event_update(FILE *fp, const struct perf_event_header *h)
{
	const struct ember_record_event_update *u = (const void *)h;
	int n;

	if (h->size < sizeof(*u)) {
		fputc('\n', fp);
		return;
	}
	fprintf(fp, "\n... id:    %" PRIu64 "\n", u->id);
	switch (u->type) {
	case 0:
		n = str_len(h, u->data);
		fprintf(fp, "... unit:  %.*s\n", n, u->data);
		break;
	case 1: {
		double scale = 0;

		if (h->size >= sizeof(*u) + sizeof(double))
			memcpy(&scale, u->data, sizeof(scale));
		fprintf(fp, "... scale: %f\n", scale);
		break;
	}
	case 2:
		n = str_len(h, u->data);
		fprintf(fp, "... name:  %.*s\n", n, u->data);
		break;
	case 3:
		fputs("... ", fp);
		print_cpu_map(fp, (const uint8_t *)u->data, (const uint8_t *)h + h->size);
		break;
	default:
		fprintf(fp, "... unknown type\n");
	}
}

static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

static void print_kernel(FILE *fp, const struct perf_event_header *h, const struct ember_sample *s,
			 uint64_t present, bool unhandled)
{
	const void *p = h;

	switch (h->type) {
	case PERF_RECORD_MMAP: {
		const struct ember_record_mmap *m = p;

		fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %.*s\n",
			(int)m->pid, (int)m->tid, m->start, m->len, m->pgoff,
			(h->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
			str_len(h, m->filename), m->filename);
		break;
	}
	case PERF_RECORD_MMAP2: {
		const struct ember_record_mmap2 *m = p;
		char perm[5] = {
			(m->prot & PROT_READ) ? 'r' : '-', (m->prot & PROT_WRITE) ? 'w' : '-',
			(m->prot & PROT_EXEC) ? 'x' : '-', (m->flags & MAP_SHARED) ? 's' : 'p', 0,
		};

		fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m->pid,
			(int)m->tid, m->start, m->len, m->pgoff);
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			fputs(" <", fp);
			for (int i = 0; i < m->build_id_size && i < 20; i++)
				fprintf(fp, "%02x", m->build_id[i]);
			fputc('>', fp);
		} else {
			fprintf(fp, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino,
				m->ino_generation);
		}
		fprintf(fp, "]: %s %.*s\n", perm, str_len(h, m->filename), m->filename);
		break;
	}
	case PERF_RECORD_COMM: {
		const struct ember_record_comm *c = p;

		fprintf(fp, "%s: %.*s:%d/%d\n", (h->misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
			str_len(h, c->comm), c->comm, (int)c->pid, (int)c->tid);
		break;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		const struct ember_record_task *t = p;

		fprintf(fp, "(%d:%d):(%d:%d)\n", (int)t->pid, (int)t->tid, (int)t->ppid,
			(int)t->ptid);
		break;
	}
	case PERF_RECORD_LOST: {
		const struct ember_record_lost *l = p;

		fprintf(fp, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", l->id, l->lost);
		break;
	}
	case PERF_RECORD_LOST_SAMPLES: {
		const struct ember_record_lost_samples *l = p;

		/* perf's "absent" id is -1, as the columns' (print_tstamp()) */
		uint64_t id = present & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER) ? s->id : (uint64_t)-1;

		fprintf(fp, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", id, l->lost);
		break;
	}
	case PERF_RECORD_READ: {
		const struct ember_record_read *rd = p;

		fprintf(fp, ": %d %d %" PRIu64 "\n", (int)rd->pid, (int)rd->tid,
			h->size >= sizeof(*rd) + 8 ? get_u64(rd->values) : 0);
		break;
	}
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		const struct ember_record_switch *sw = p;
		bool out = h->misc & PERF_RECORD_MISC_SWITCH_OUT;
		const char *in_out = !out ? "IN         " :
				     !(h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ?
				     "OUT        " : "OUT preempt";

		if (h->type == PERF_RECORD_SWITCH)
			fprintf(fp, " %s\n", in_out);
		else
			fprintf(fp, " %s  %s pid/tid: %5d/%-5d\n", in_out, out ? "next" : "prev",
				(int)sw->next_prev_pid, (int)sw->next_prev_tid);
		break;
	}
	case PERF_RECORD_KSYMBOL: {
		const struct ember_record_ksymbol *k = p;

		fprintf(fp, " addr %" PRIx64 " len %u type %u flags 0x%x name %.*s\n", k->addr,
			k->len, k->ksym_type, k->flags, str_len(h, k->name), k->name);
		break;
	}
	case PERF_RECORD_BPF_EVENT: {
		const struct ember_record_bpf_event *b = p;

		fprintf(fp, " type %u, flags %u, id %u\n", b->type, b->flags, b->id);
		break;
	}
	case PERF_RECORD_TEXT_POKE: {
		const struct ember_record_text_poke *t = p;
		size_t avail = h->size - sizeof(*t);
		uint16_t olen = t->old_len < avail ? t->old_len : avail;
		uint16_t nlen = t->new_len < avail - olen ? t->new_len : avail - olen;

		fprintf(fp, " %" PRIx64 "  old len %u new len %u\n", t->addr, t->old_len,
			t->new_len);
		for (int pass = 0; pass < 2; pass++) {
			const uint8_t *b = t->bytes + (pass ? olen : 0);
			uint16_t n = pass ? nlen : olen;

			for (uint16_t i = 0; i < n; i++) {
				if (!(i % 16))
					fprintf(fp, "            %s bytes:", pass ? "New" : "Old");
				fprintf(fp, " %02x", b[i]);
				if (i % 16 == 15 || i == n - 1)
					fputc('\n', fp);
			}
		}
		break;
	}
	case PERF_RECORD_CGROUP: {
		const struct ember_record_cgroup *c = p;

		fprintf(fp, " cgroup: %" PRIu64 " %.*s\n", c->id, str_len(h, c->path), c->path);
		break;
	}
	case PERF_RECORD_NAMESPACES: {
		const struct ember_record_namespaces *n = p;
		uint64_t nr = n->nr_namespaces, max = (h->size - sizeof(*n)) / 16;

		if (nr > max)
			nr = max;
		fprintf(fp, " %d/%d - nr_namespaces: %u\n\t\t[", (int)n->pid, (int)n->tid,
			(unsigned int)n->nr_namespaces);
		for (uint64_t i = 0; i < nr; i++) {
			if (i && !(i % 4))
				fprintf(fp, "\n\t\t ");
			fprintf(fp, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned int)i,
				i < 7 ? ns_names[i] : "?", n->link_info[i].dev, n->link_info[i].ino,
				i + 1 != nr ? ", " : "]\n");
		}
		if (!nr)
			fprintf(fp, "]\n");
		break;
	}
	case PERF_RECORD_AUX: {
		const struct ember_record_aux *a = p;

		fprintf(fp, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
			a->aux_offset, a->aux_size, a->flags,
			(a->flags & PERF_AUX_FLAG_TRUNCATED) ? "T" : "",
			(a->flags & PERF_AUX_FLAG_OVERWRITE) ? "O" : "",
			(a->flags & PERF_AUX_FLAG_PARTIAL) ? "P" : "");
		break;
	}
	case PERF_RECORD_ITRACE_START: {
		const struct ember_record_itrace_start *it = p;

		fprintf(fp, " pid: %u tid: %u\n", it->pid, it->tid);
		break;
	}
	case 21: {	/* PERF_RECORD_AUX_OUTPUT_HW_ID */
		const struct ember_record_aux_output_hw_id *hw = p;

		fprintf(fp, " hw_id: %#" PRIx64 "\n", hw->hw_id);
		break;
	}
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		/*
		 * perf report has no handler; perf script's prints nothing, not
		 * even the end of the line: the next record's blank line ends it.
		 */
		if (unhandled)
			fprintf(fp, ": unhandled!\n");
		break;
	default:
		fprintf(fp, unhandled ? ": unhandled!\n" : "\n");
		break;
	}
}

/* `unhandled`: the tool (perf report) has no handler for maps and stats */
static void print_user(FILE *fp, const struct perf_event_header *h, bool unhandled)
{
	const char *tail = unhandled ? ": unhandled!\n" : "";
	const void *p = h;

	switch (h->type) {
	case EMBER_RECORD_FINISHED_ROUND:
		fputc('\n', fp);
		break;
	case EMBER_RECORD_ID_INDEX: {
		const struct ember_record_id_index *ix = p;
		uint64_t nr = ix->nr, max = (h->size - sizeof(*ix)) / sizeof(ix->entries[0]);

		fprintf(fp, " nr: %" PRIu64 "\n", nr);
		for (uint64_t i = 0; i < nr && i < max; i++)
			fprintf(fp, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64
				"  tid: %" PRId64 "\n", ix->entries[i].id, ix->entries[i].idx,
				(int64_t)ix->entries[i].cpu, (int64_t)ix->entries[i].tid);
		break;
	}
	case EMBER_RECORD_THREAD_MAP: {
		const struct ember_record_thread_map *tm = p;
		uint64_t nr = tm->nr, max = (h->size - sizeof(*tm)) / sizeof(tm->entries[0]);

		if (nr > max)
			nr = max;
		fprintf(fp, " nr: %d thread%s: ", (int)nr, nr > 1 ? "s" : "");
		for (uint64_t i = 0; i < nr; i++)
			fprintf(fp, "%s%d", i ? ", " : "", (int)tm->entries[i].pid);
		fprintf(fp, "\n%s", tail);
		break;
	}
	case EMBER_RECORD_CPU_MAP:
		fputs(": ", fp);
		print_cpu_map(fp, (const uint8_t *)h + 8, (const uint8_t *)h + h->size);
		fputs(tail, fp);
		break;
	case EMBER_RECORD_EVENT_UPDATE:
		print_event_update(fp, h);
		break;
	case EMBER_RECORD_STAT_CONFIG: {
		const struct ember_record_stat_config *sc = p;
		int64_t v[4] = { 0 };
		uint64_t max = (h->size - sizeof(*sc)) / 16;

		for (uint64_t i = 0; i < sc->nr && i < max; i++) {
			if (sc->data[i].tag < 4)
				v[sc->data[i].tag] = sc->data[i].val;
		}
		fprintf(fp, "\n... aggr_mode %d\n... scale     %d\n... interval  %u\n%s",
			(int)v[0], (int)v[2], (unsigned int)v[1], tail);
		break;
	}
	case EMBER_RECORD_STAT: {
		const struct ember_record_stat *st = p;

		fprintf(fp, "\n... id %" PRIu64 ", cpu %d, thread %d\n", st->id, (int)st->cpu,
			(int)st->thread);
		fprintf(fp, "... value %" PRIu64 ", enabled %" PRIu64 ", running %" PRIu64
			"\n%s", st->val, st->ena, st->run, tail);
		break;
	}
	case EMBER_RECORD_STAT_ROUND: {
		const struct ember_record_stat_round *sr = p;

		fprintf(fp, "\n... time %" PRIu64 ", type %s\n%s", sr->time,
			sr->type ? "INTERVAL" : "FINAL", tail);
		break;
	}
	case EMBER_RECORD_TIME_CONV: {
		const struct ember_record_time_conv *tc = p;

		fprintf(fp, "\n... Time Shift      %" PRIu64 "\n", tc->time_shift);
		fprintf(fp, "... Time Muliplier  %" PRIu64 "\n", tc->time_mult);
		fprintf(fp, "... Time Zero       %" PRIu64 "\n", tc->time_zero);
		if (h->size >= offsetof(struct ember_record_time_conv, time_mask) + 8) {
			fprintf(fp, "... Time Cycles     %" PRIu64 "\n", tc->time_cycles);
			fprintf(fp, "... Time Mask       %#" PRIx64 "\n", tc->time_mask);
		}
		if (h->size >= sizeof(*tc)) {
			fprintf(fp, "... Cap Time Zero   %d\n", tc->cap_user_time_zero);
			fprintf(fp, "... Cap Time Short  %d\n", tc->cap_user_time_short);
		}
		fprintf(fp, ": unhandled!\n");
		break;
	}
	case EMBER_RECORD_AUXTRACE: {
		const struct ember_record_auxtrace *a = p;

		fprintf(fp, " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
			"  idx: %u  tid: %d  cpu: %d\n", a->size, a->offset, a->reference, a->idx,
			(int)a->tid, (int)a->cpu);
		break;
	}
	case EMBER_RECORD_FINISHED_INIT:
	case EMBER_RECORD_AUXTRACE_INFO:
	case EMBER_RECORD_AUXTRACE_ERROR:
		fprintf(fp, ": unhandled!\n");
		break;
	default:
		/* ATTR, FEATURE, TRACING_DATA, BUILD_ID, EVENT_TYPE, COMPRESSED: nothing */
		break;
	}
}

int ember_data__dump_record(FILE *fp, const struct ember_data_reader *r,
			    const struct ember_data_record *rec, const char *file_name,
			    enum ember_dump_style style)
{
	bool report = style == EMBER_DUMP_REPORT;
	const struct perf_event_header *h = rec->hdr;
	const char *name = ember_record__name(h->type);
	const struct ember_env *env = ember_data_reader__env(r);
	const struct ember_data_attr *a = NULL;
	struct ember_sample s;
	uint64_t present;
	int err = 0;

	fprintf(fp, "\n%#" PRIx64 "@%s [%#x]: event: %u\n", rec->offset, file_name, h->size,
		h->type);
	ember_data__dump_hex(fp, h, h->size);

	memset(&s, 0, sizeof(s));
	if (!name) {
		fprintf(fp, "%#" PRIx64 " [%#x]: failed to process type: %u\n", rec->offset, h->size,
			h->type);
		return 0;
	}
	if (h->size < ember_record__min_size(h->type)) {
		fprintf(fp, "%#" PRIx64 " [%#x]: failed to process type: %u\n", rec->offset, h->size,
			h->type);
		return -EINVAL;
	}
	if (h->type < EMBER_RECORD_HEADER_ATTR) {
		a = ember_data_reader__attr_of(r, h);
		err = !a ? -ENOENT : h->type == PERF_RECORD_SAMPLE ?
		      ember_sample__parse(&s, h, &a->attr) : ember_sample__parse_id(&s, h, &a->attr);
		if (err) {
			fprintf(fp, "%#" PRIx64 " [%#x]: failed to process type: %u\n", rec->offset,
				h->size, h->type);
			return err;
		}
	}
	present = present_fields(h, a);
	print_tstamp(fp, r, h, &s, present);
	fprintf(fp, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", rec->offset, h->size, name);
	if (h->type == PERF_RECORD_SAMPLE)
		print_sample(fp, h, &a->attr, &s, env->arch);
	else if (h->type < EMBER_RECORD_HEADER_ATTR)
		print_kernel(fp, h, &s, present, report);
	else
		print_user(fp, h, report);
	return 0;
}
