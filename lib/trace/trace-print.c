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
 * Copy raw into t's scratch buffer, followed by TRACE_PRINT_SLACK zero bytes,
 * so that a length read from a corrupt sample cannot send libtraceevent
 * past the end of the caller's buffer.
 */
static void *padded_copy(struct ember_trace *t, const void *raw, size_t raw_size)
{
	size_t need = raw_size + TRACE_PRINT_SLACK;
	uint8_t *p;

	if (need > t->scratch_size) {
		p = realloc(t->scratch, need);
		if (!p)
			return NULL;
		memset(p + t->scratch_size, 0, need - t->scratch_size);
		t->scratch = p;
		t->scratch_size = need;
	}
	/* only what the last, longer sample left there needs clearing */
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
	void *copy;

	if (raw_size > INT_MAX)
		return -EINVAL;
	if (!trace_raw_event(t, raw, raw_size))
		return -errno;
	copy = padded_copy(t, raw, raw_size);
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
