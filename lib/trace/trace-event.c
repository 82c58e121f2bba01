// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The parsed TRACING_DATA: its accessors, events by id and name, and the
 * bounds of a raw sample.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include "trace/trace.h"

void ember_trace__delete(struct ember_trace *t)
{
	if (!t)
		return;
	tep_free(t->tep);
	free(t->guards);
	free(t->scratch);
	free(t);
}

struct tep_handle *ember_trace__tep(struct ember_trace *t)
{
	return t->tep;
}

size_t ember_trace__size(const struct ember_trace *t)
{
	return t->size;
}

int ember_trace__event_id(struct ember_trace *t, const char *sys, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(t->tep, sys, name);

	return ev ? ev->id : -ENOENT;
}

int ember_trace__event_name(struct ember_trace *t, int id, const char **sys, const char **name)
{
	struct tep_event *ev = tep_find_event(t->tep, id);

	if (!ev)
		return -ENOENT;
	if (sys)
		*sys = ev->system;
	if (name)
		*name = ev->name;
	return 0;
}

int ember_trace__set_function_resolver(struct ember_trace *t, ember_trace_func_resolver_t fn,
				       void *priv)
{
	if (!fn) {
		tep_reset_function_resolver(t->tep);
		return 0;
	}
	return tep_set_function_resolver(t->tep, fn, priv) ? -ENOMEM : 0;
}

static bool range_fits(long long off, long long len, size_t raw_size)
{
	return off >= 0 && len >= 0 && (unsigned long long)off + len <= raw_size;
}

int trace_field_dynamic(const struct tep_format_field *f, const void *raw, size_t raw_size,
			size_t *off, size_t *len)
{
	unsigned long long loc;
	size_t o;

	if (f->size != 4 || !range_fits(f->offset, 4, raw_size))
		return -EINVAL;
	loc = tep_read_number(f->event->tep, (const char *)raw + f->offset, 4);
	o = loc & 0xffff;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		o += f->offset + f->size;
	if (!range_fits(o, loc >> 16, raw_size))
		return -EINVAL;
	*off = o;
	*len = loc >> 16;
	return 0;
}

bool trace_field_fits(const struct tep_format_field *f, const void *raw, size_t raw_size)
{
	size_t off, len;

	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		return !trace_field_dynamic(f, raw, raw_size, &off, &len);
	return range_fits(f->offset, f->size, raw_size);
}

static bool fields_fit(const struct tep_format_field *f, const void *raw, size_t raw_size)
{
	for (; f; f = f->next)
		if (!trace_field_fits(f, raw, raw_size))
			return false;
	return true;
}

struct tep_event *trace_raw_event(struct ember_trace *t, const void *raw, size_t raw_size)
{
	struct tep_format_field *type;
	struct tep_event *ev;

	/* every event has the same common fields: find common_type on any of them */
	ev = tep_get_events_count(t->tep) > 0 ? tep_get_event(t->tep, 0) : NULL;
	type = ev ? tep_find_common_field(ev, "common_type") : NULL;
	if (!type) {
		errno = ENOENT;
		return NULL;
	}
	if (!raw || !range_fits(type->offset, type->size, raw_size) || type->size > 8) {
		errno = EINVAL;
		return NULL;
	}
	ev = tep_find_event(t->tep, tep_read_number(t->tep, (const char *)raw + type->offset,
						     type->size));
	if (!ev) {
		errno = ENOENT;
		return NULL;
	}
	if (!fields_fit(ev->format.common_fields, raw, raw_size) ||
	    !fields_fit(ev->format.fields, raw, raw_size)) {
		errno = EINVAL;
		return NULL;
	}
	return ev;
}
