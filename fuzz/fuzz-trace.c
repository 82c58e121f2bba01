// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the TRACING_DATA parser (ember_trace__parse), then
 * the printing and field access of tracepoint samples. The bytes after the
 * blob (parse ignores them, as it does pipe-mode padding) are the raw
 * sample: it is printed once per event, its common_type set to that event.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <ember/trace.h>

#define MAX_EVENTS 16

static void fields(struct ember_trace *t, struct tep_event *ev, const void *raw, size_t size)
{
	struct tep_format_field **v = tep_event_fields(ev);
	char buf[256];
	uint64_t val;

	for (int i = 0; v && v[i]; i++) {
		const struct ember_trace_field *f = ember_trace__field(t, ev->id, v[i]->name);

		if (!f)
			continue;
		ember_trace_field__num(f, raw, size, &val);
		ember_trace_field__str(f, raw, size, buf, sizeof(buf));
	}
	free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ember_trace *t = ember_trace__parse(data, size);
	struct tep_handle *tep;
	size_t used, raw_size;
	uint8_t *raw;
	char out[4096];
	int n;

	if (!t)
		return 0;
	tep = ember_trace__tep(t);
	used = ember_trace__size(t);
	if (used > size)
		abort();
	raw_size = size - used;
	/* at least the u16 common_type; a copy of exactly raw_size for ASan */
	raw = malloc(raw_size < 2 ? 2 : raw_size);
	if (!raw)
		abort();
	memcpy(raw, data + used, raw_size);
	if (raw_size < 2)
		raw_size = 2;
	n = tep_get_events_count(tep);
	for (int i = 0; i < n && i < MAX_EVENTS; i++) {
		struct tep_event *ev = tep_get_event(tep, i);
		const char *sys, *name;
		uint16_t id;

		if (!ev)
			continue;
		id = (uint16_t)ev->id;
		memcpy(raw, &id, 2);
		ember_trace__event_name(t, ev->id, &sys, &name);
		ember_trace__snprintf(t, 0, raw, raw_size, out, sizeof(out));
		fields(t, ev, raw, raw_size);
	}
	free(raw);
	ember_trace__delete(t);
	return 0;
}

/*
 * libtraceevent 1.7 leaks a token when tep_parse_format() fails on some
 * malformed field lines ("field:int0common_pid;"): its bug, not ours. The
 * handle and events ember owns are freed by ember_trace__delete(), and a
 * leak of those is still reported (it is not allocated under this function).
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_format\n";
}
