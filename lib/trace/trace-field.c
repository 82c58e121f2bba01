// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Field access by name on tracepoint samples, bounds-checked against the raw size. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "trace/trace.h"

/* The handle is libtraceevent's field itself. */
static const struct tep_format_field *tep_field(const struct ember_trace_field *f)
{
	return (const struct tep_format_field *)f;
}

const struct ember_trace_field *ember_trace__field(struct ember_trace *t, int id, const char *name)
{
	struct tep_event *ev = tep_find_event(t->tep, id);
	struct tep_format_field *f = ev && name ? tep_find_any_field(ev, name) : NULL;

	if (!f) {
		errno = ENOENT;
		return NULL;
	}
	return (const struct ember_trace_field *)f;
}

int ember_trace_field__num(const struct ember_trace_field *field, const void *raw, size_t raw_size,
			   uint64_t *val)
{
	const struct tep_format_field *f = tep_field(field);
	uint64_t v;
	int bits;

	if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC))
		return -EINVAL;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return -EINVAL;
	if (!raw || !trace_field_fits(f, raw, raw_size))
		return -EINVAL;
	v = tep_read_number(f->event->tep, (const char *)raw + f->offset, f->size);
	bits = f->size * 8;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && bits < 64 && (v >> (bits - 1)) & 1)
		v |= ~0ULL << bits;
	*val = v;
	return 0;
}

int ember_trace_field__str(const struct ember_trace_field *field, const void *raw, size_t raw_size,
			   char *buf, size_t size)
{
	const struct tep_format_field *f = tep_field(field);
	const char *p;
	size_t off, len;

	if (!(f->flags & TEP_FIELD_IS_STRING) || !raw || !trace_field_fits(f, raw, raw_size))
		return -EINVAL;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (trace_field_dynamic(f, raw, raw_size, &off, &len))
			return -EINVAL;
	} else {
		off = f->offset;
		len = f->size;
	}
	p = (const char *)raw + off;
	len = strnlen(p, len);
	return snprintf(buf, size, "%.*s", (int)len, p);
}
