// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Print a tracepoint sample's fields as perf script does: perf 6.1's
 * event_format__fprintf() runs the event's print fmt through
 * tep_print_event(..., "%s", TEP_PRINT_INFO), without libtraceevent plugins.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/trace-seq.h>
#include "trace/trace.h"

/*
 * The zeroes to leave after the copy of a sample of event ev: the default,
 * or more when its print fmt dumps as many elements as a wide field says
 * (up to 8 bytes each). -EINVAL for an absurd length: a corrupt sample.
 */
static long slack_for(const struct ember_trace *t, const struct tep_event *ev, const void *raw)
{
	unsigned long long len, max = 0;

	for (size_t i = 0; i < t->nr_guards; i++) {
		if (t->guards[i].id != ev->id)
			continue;
		for (int j = 0; j < t->guards[i].nr; j++) {
			const struct tep_format_field *f = t->guards[i].fields[j];

			len = tep_read_number(ev->tep, (const char *)raw + f->offset, f->size);
			if (len > max)
				max = len;
		}
	}
	if (max > (TRACE_PRINT_MAX_SLACK - TRACE_PRINT_SLACK) / 8)
		return -EINVAL;
	return TRACE_PRINT_SLACK + max * 8;
}

/*
 * Copy raw into t's scratch buffer, followed by `slack` zero bytes, so that
 * a length read from a corrupt sample cannot send libtraceevent past the
 * end of the caller's buffer. libtraceevent only reads the copy: only what
 * the last, longer sample left there needs clearing.
 */
static void *padded_copy(struct ember_trace *t, const void *raw, size_t raw_size, size_t slack)
{
	size_t need = raw_size + slack;
	uint8_t *p;

	if (need > t->scratch_size) {
		p = realloc(t->scratch, need);
		if (!p)
			return NULL;
		memset(p + t->scratch_size, 0, need - t->scratch_size);
		t->scratch = p;
		t->scratch_size = need;
	}
	if (t->scratch_used > raw_size)
		memset(t->scratch + raw_size, 0, t->scratch_used - raw_size);
	memcpy(t->scratch, raw, raw_size);
	t->scratch_used = raw_size;
	return t->scratch;
}

/* Format into s; 0 or -errno. */
static int format(struct ember_trace *t, int cpu, const void *raw, size_t raw_size,
		  struct trace_seq *s)
{
	struct tep_record rec;
	struct tep_event *ev;
	long slack;
	void *copy;

	if (raw_size > INT_MAX)
		return -EINVAL;
	ev = trace_raw_event(t, raw, raw_size);
	if (!ev)
		return -errno;
	slack = slack_for(t, ev, raw);
	if (slack < 0)
		return slack;
	copy = padded_copy(t, raw, raw_size, slack);
	if (!copy)
		return -ENOMEM;
	memset(&rec, 0, sizeof(rec));
	rec.cpu = cpu;
	rec.size = raw_size;
	rec.data = copy;
	tep_print_event(t->tep, s, &rec, "%s", TEP_PRINT_INFO);
	if (s->state != TRACE_SEQ__GOOD)
		return -ENOMEM;
	return 0;
}

int ember_trace__snprintf(struct ember_trace *t, int cpu, const void *raw, size_t raw_size,
			  char *buf, size_t size)
{
	struct trace_seq s;
	size_t n;
	int err;

	trace_seq_init(&s);
	err = format(t, cpu, raw, raw_size, &s);
	if (err) {
		trace_seq_destroy(&s);
		return err;
	}
	if (size) {
		n = s.len < size - 1 ? s.len : size - 1;
		memcpy(buf, s.buffer, n);
		buf[n] = '\0';
	}
	n = s.len;
	trace_seq_destroy(&s);
	return n;
}

int ember_trace__fprintf(struct ember_trace *t, int cpu, const void *raw, size_t raw_size,
			 FILE *fp)
{
	struct trace_seq s;
	int err;

	trace_seq_init(&s);
	err = format(t, cpu, raw, raw_size, &s);
	if (!err && s.len && fwrite(s.buffer, 1, s.len, fp) != s.len)
		err = -EIO;
	if (!err)
		err = s.len;
	trace_seq_destroy(&s);
	return err;
}
