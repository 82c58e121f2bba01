// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf script's sample line. The widths, separators and quirks below are
 * perf 6.1's, checked line for line against it (tests/e2e/script*.sh).
 */
#include <errno.h>
#include <string.h>
#include <ember/trace.h>
#include "script/print.h"
#include "script/srcline.h"

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_USEC 1000ULL

void script_print__time(struct outbuf *ob, uint64_t t, bool ns)
{
	outbuf__u64(ob, t / NSEC_PER_SEC, 0);
	outbuf__putc(ob, '.');
	if (ns)
		outbuf__u64_zero(ob, t % NSEC_PER_SEC, 9);
	else
		outbuf__u64_zero(ob, (t % NSEC_PER_SEC) / NSEC_PER_USEC, 6);
}

/* "%12s: " of "sec.usec", or "%5lu.%09llu: " with --ns: once per line, so by hand */
static void print_time_column(struct outbuf *ob, uint64_t t, bool ns)
{
	char tmp[24], *sec = outbuf__utoa(tmp, t / NSEC_PER_SEC), *p;
	size_t nsec = tmp + 24 - sec, nfrac = ns ? 9 : 6, width = ns ? 15 : 12;
	uint64_t frac = ns ? t % NSEC_PER_SEC : (t % NSEC_PER_SEC) / NSEC_PER_USEC;
	size_t len = nsec + 1 + nfrac;

	if (!outbuf__reserve(ob, (len > width ? len : width) + 2))
		return;
	p = ob->buf + ob->len;
	for (size_t i = len; i < width; i++)
		*p++ = ' ';
	p = outbuf__raw_str(p, sec, nsec);
	*p++ = '.';
	for (size_t i = nfrac; i > 0; i--) {
		p[i - 1] = '0' + frac % 10;
		frac /= 10;
	}
	p += nfrac;
	*p++ = ':';
	*p++ = ' ';
	ob->len = p - ob->buf;
}

static void print_misc(struct outbuf *ob, uint16_t misc, uint16_t record_type)
{
	size_t start = ob->len;
	int n;

	/* perf tests each cpumode as a bit pattern: a HYPERVISOR (3) sample shows "KUH" */
#define HAS(m) ((misc & (m)) == (m))
	if (HAS(PERF_RECORD_MISC_KERNEL))
		outbuf__putc(ob, 'K');
	if (HAS(PERF_RECORD_MISC_USER))
		outbuf__putc(ob, 'U');
	if (HAS(PERF_RECORD_MISC_HYPERVISOR))
		outbuf__putc(ob, 'H');
	if (HAS(PERF_RECORD_MISC_GUEST_KERNEL))
		outbuf__putc(ob, 'G');
	if (HAS(PERF_RECORD_MISC_GUEST_USER))
		outbuf__putc(ob, 'g');
	switch (record_type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (HAS(PERF_RECORD_MISC_MMAP_DATA))
			outbuf__putc(ob, 'M');
		break;
	case PERF_RECORD_COMM:
		if (HAS(PERF_RECORD_MISC_COMM_EXEC))
			outbuf__putc(ob, 'E');
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (HAS(PERF_RECORD_MISC_SWITCH_OUT)) {
			outbuf__putc(ob, 'S');
			if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
				outbuf__putc(ob, 'p');
		}
		break;
	default:
		break;
	}
#undef HAS
	/* "%*s" of " " in 6 - n columns: at least one space */
	n = (int)(ob->len - start);
	outbuf__fill(ob, ' ', n < 5 ? 6 - n : 1);
}

void script_print__start(struct script_printer *p, struct outbuf *ob, const struct script_sample *ss,
			 uint64_t fields)
{
	const struct ember_sample *s = ss->s;

	if (fields & SF_COMM) {
		const char *comm = ss->comm ? ss->comm : ":-1";

		if (p->latency) {
			size_t n = strnlen(comm, 8);

			outbuf__fill(ob, ' ', 8 - n);
			outbuf__putn(ob, comm, n);
		} else if (script_printer__chain_layout(p, fields, ss->sample_type)) {
			outbuf__puts(ob, comm);
		} else {
			outbuf__puts_right(ob, comm, 16);
		}
		outbuf__putc(ob, ' ');
	}

	if ((fields & SF_PID) && (fields & SF_TID)) {
		outbuf__s64(ob, (int32_t)s->pid, 5, false);
		outbuf__putc(ob, '/');
		outbuf__s64(ob, (int32_t)s->tid, 5, true);
		outbuf__putc(ob, ' ');
	} else if (fields & (SF_PID | SF_TID)) {
		outbuf__s64(ob, (int32_t)((fields & SF_PID) ? s->pid : s->tid), 5, false);
		outbuf__putc(ob, ' ');
	}

	if (fields & SF_CPU) {
		if (p->latency) {
			outbuf__s64(ob, (int32_t)s->cpu, 3, false);
			outbuf__putc(ob, ' ');
		} else {
			outbuf__putc(ob, '[');
			int32_t cpu = (int32_t)s->cpu;
			char tmp[24], *d = outbuf__utoa(tmp, cpu < 0 ? -(int64_t)cpu : cpu);

			/* "%03d": -1 is "-01" */
			outbuf__num(ob, d, tmp + 24 - d, cpu < 0, 3, false, true);
			outbuf__putn(ob, "] ", 2);
		}
	}

	if (fields & SF_MISC)
		print_misc(ob, s->misc, ss->record_type);

	if ((fields & SF_TOD) && p->tod_disabled)
		outbuf__putn(ob, "disabled ", 9);

	if (fields & SF_TIME) {
		uint64_t t = s->time;

		if (p->reltime) {
			if (!p->initial_time)
				p->initial_time = s->time;
			t = s->time - p->initial_time;
		} else if (p->deltatime) {
			t = p->previous_time ? s->time - p->previous_time : 0;
			p->previous_time = s->time;
		}
		print_time_column(ob, t, p->nanosecs);
	}
}

/* sym+0xoff, or [unknown] */
static void print_sym(struct outbuf *ob, const struct ember_addr_location *al, bool symoff)
{
	if (!al->sym_name) {
		outbuf__putn(ob, "[unknown]", 9);
		return;
	}
	outbuf__puts(ob, al->sym_name);
	if (symoff) {
		outbuf__putn(ob, "+0x", 3);
		outbuf__hex(ob, al->sym_off, 0);
	}
}

static void print_dso(struct outbuf *ob, const struct ember_addr_location *al)
{
	outbuf__putn(ob, " (", 2);
	outbuf__puts(ob, al->map && al->dso_name ? al->dso_name : "[unknown]");
	outbuf__putc(ob, ')');
}

static bool stop_here(const struct script_printer *p, const struct ember_addr_location *al)
{
	if (!p->stop_bt || !al->sym_name)
		return false;
	for (const char *const *s = p->stop_bt; *s; s++)
		if (!strcmp(*s, al->sym_name))
			return true;
	return false;
}

/* One "\t ip sym+off (dso)" line, written in one go. */
static void print_frame(struct outbuf *ob, const struct ember_addr_location *al, uint64_t fields,
			struct script_srclines *srclines)
{
	const char *sym = al->sym_name ? al->sym_name : "[unknown]";
	const char *dso = al->map && al->dso_name ? al->dso_name : "[unknown]";
	/* a function inlined at an unwound frame: no dso, " (inlined)" at the end */
	uint64_t dso_field = al->inlined ? 0 : fields & SF_DSO;
	size_t sl = (fields & SF_SYM) ? strlen(sym) : 0, dl = dso_field ? strlen(dso) : 0;
	char *p;

	if (!outbuf__reserve(ob, 64 + sl + dl))
		return;
	p = ob->buf + ob->len;
	*p++ = '\t';
	if (fields & SF_IP) {
		bool kernel = al->cpumode == PERF_RECORD_MISC_KERNEL ||
			      al->cpumode == PERF_RECORD_MISC_GUEST_KERNEL;

		/* user frames print the binary's offset, kernel ones the address */
		p = outbuf__raw_hex(p, al->map && !kernel ? al->addr : al->ip, 16);
	}
	if (fields & SF_SYM) {
		*p++ = ' ';
		p = outbuf__raw_str(p, sym, sl);
		if ((fields & SF_SYMOFFSET) && al->sym_name) {
			p = outbuf__raw_str(p, "+0x", 3);
			p = outbuf__raw_hex(p, al->sym_off, 0);
		}
	}
	if (dso_field) {
		*p++ = ' ';
		*p++ = '(';
		p = outbuf__raw_str(p, dso, dl);
		*p++ = ')';
	}
	ob->len = p - ob->buf;
	/* an inline level prints its own line: the call site for an outer one */
	if (srclines && al->srcline) {
		outbuf__puts(ob, "\n  ");
		outbuf__puts(ob, al->srcline);
	} else if (srclines && script_srclines__print(srclines, ob, al)) {
		ob->error = true;
	}
	if (al->inlined)
		outbuf__puts(ob, " (inlined)");
	outbuf__putc(ob, '\n');
}

static void print_chain(struct script_printer *p, struct outbuf *ob, const struct script_sample *ss,
			uint64_t fields)
{
	int nr = ss->nr_chain;

	if (!ss->chain_limited && p->max_stack && (unsigned int)nr > p->max_stack)
		nr = (int)p->max_stack;
	for (int i = 0; i < nr; i++) {
		print_frame(ob, &ss->chain[i], fields,
			    (fields & SF_SRCLINE) ? p->srclines : NULL);
		if (stop_here(p, &ss->chain[i]))
			break;
	}
}

static void print_trace(struct script_printer *p, struct outbuf *ob, const struct ember_sample *s)
{
	size_t room = 512;
	int n;

	for (int pass = 0; pass < 2; pass++) {
		if (!outbuf__reserve(ob, room))
			return;
		n = ember_trace__snprintf(p->trace, (int)s->cpu, s->raw_data, s->raw_size,
					  ob->buf + ob->len, room + 1);
		if (n < 0)
			return;
		if ((size_t)n <= room) {
			ob->len += n;
			return;
		}
		room = n;
	}
}

/* perf's page size names: divided by 1024 while more than one unit is left ("4K", "1024B"). */
static const char *page_size_name(uint64_t size, char *buf, size_t len)
{
	static const char units[] = "BKMG";
	int u = 0;

	if (!size)
		return "N/A";
	while (size / 1024 > 1 && u < 3) {
		size /= 1024;
		u++;
	}
	snprintf(buf, len, "%lu%c", (unsigned long)size, units[u]);
	return buf;
}

void script_print__sample(struct script_printer *p, struct outbuf *ob,
			  const struct script_sample *ss)
{
	uint64_t fields = script_fields__of(p->fields, ss->attr_type);
	const struct ember_sample *s = ss->s;
	char tmp[32];

	if (!fields)
		return;

	script_print__start(p, ob, ss, fields);

	if (fields & SF_PERIOD) {
		outbuf__u64(ob, ss->period, 10);
		outbuf__putc(ob, ' ');
	}
	if (fields & SF_EVNAME) {
		const char *name = ss->evname ? ss->evname : "[unknown]";

		outbuf__puts_right(ob, name, p->name_width);
		outbuf__putn(ob, ": ", 2);
	}
	if (p->fields->print_flags)	/* no sample flags outside itrace: "  %-21s " of "" */
		outbuf__fill(ob, ' ', 24);

	if ((fields & SF_TRACE) && s->raw_data && p->trace)
		print_trace(p, ob, s);

	if (fields & SF_ADDR)
		outbuf__hex(ob, s->addr, 16);
	if (fields & SF_WEIGHT)
		outbuf__u64(ob, s->weight, 16);
	if (fields & SF_INS_LAT)
		outbuf__u64(ob, s->ins_lat, 16);

	if (fields & SF_IP) {
		if (p->use_callchain && (ss->sample_type & PERF_SAMPLE_CALLCHAIN)) {
			outbuf__putc(ob, '\n');
			print_chain(p, ob, ss, fields);
		} else {
			outbuf__putc(ob, ' ');
			outbuf__hex(ob, s->ip, 16);
			if (fields & SF_SYM) {
				outbuf__putc(ob, ' ');
				print_sym(ob, ss->al, fields & SF_SYMOFFSET);
			}
			if (fields & SF_DSO)
				print_dso(ob, ss->al);
			if ((fields & SF_SRCLINE) && p->srclines &&
			    script_srclines__print(p->srclines, ob, ss->al))
				ob->error = true;
		}
	}

	if (fields & SF_PHYS_ADDR)
		outbuf__hex(ob, s->phys_addr, 16);
	if (fields & SF_DATA_PAGE_SIZE) {
		outbuf__putc(ob, ' ');
		outbuf__puts(ob, page_size_name(s->data_page_size, tmp, sizeof(tmp)));
	}
	if (fields & SF_CODE_PAGE_SIZE) {
		outbuf__putc(ob, ' ');
		outbuf__puts(ob, page_size_name(s->code_page_size, tmp, sizeof(tmp)));
	}
	outbuf__putc(ob, '\n');
	outbuf__line_done(ob);
}
