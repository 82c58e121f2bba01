// SPDX-License-Identifier: GPL-2.0-only
/* -e sys:name: the tracepoints, their formats, and perf trace's text for their records. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <ember/event.h>
#include "core/scnprintf.h"
#include "trace/tracepoints.h"

static int add_cb(const char *sys, const char *name, uint64_t id, void *arg)
{
	struct trace_tps *t = arg;
	struct ember_tracepoint *v;
	uint64_t *ids;

	for (int i = 0; i < t->nr; i++)
		if (!strcmp(t->tps[i].sys, sys) && !strcmp(t->tps[i].name, name))
			return 0;
	ids = realloc(t->ids, (t->nr + 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	t->ids = ids;
	ids[t->nr] = id;
	v = realloc(t->tps, (t->nr + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->tps = v;
	v[t->nr].sys = strdup(sys);
	v[t->nr].name = strdup(name);
	if (!v[t->nr].sys || !v[t->nr].name) {
		free((char *)v[t->nr].sys);
		free((char *)v[t->nr].name);
		return -ENOMEM;
	}
	t->nr++;
	return 0;
}

int trace_tps__add(struct trace_tps *t, const char *root, const char *spec)
{
	const char *colon = strchr(spec, ':');
	char *sys;
	int before = t->nr, err;

	if (!colon)
		return -EINVAL;
	sys = strndup(spec, colon - spec);
	if (!sys)
		return -ENOMEM;
	err = ember_tracefs__for_each_event(root, sys, colon + 1, EMBER_TRACEFS_READ_ID, add_cb, t);
	free(sys);
	if (err < 0)
		return err;
	return t->nr > before ? 0 : -ENOENT;
}

/* A uprobe's or kprobe's event: its format starts with the probed address (or function). */
static bool is_probe(struct trace_tps *t, const struct ember_tracepoint *tp)
{
	int id = ember_trace__event_id(t->formats, tp->sys, tp->name);
	struct tep_event *ev = id >= 0 ? tep_find_event(ember_trace__tep(t->formats), id) : NULL;

	return ev && (tep_find_field(ev, "__probe_ip") || tep_find_field(ev, "__probe_func"));
}

/* The tracepoints first, the probes after them, each in the order added. */
static void put_probes_last(struct trace_tps *t)
{
	for (int i = 0, end = t->nr; i < end;) {
		struct ember_tracepoint tp = t->tps[i];
		uint64_t id = t->ids[i];

		if (!is_probe(t, &tp)) {
			i++;
			continue;
		}
		memmove(&t->tps[i], &t->tps[i + 1], (t->nr - i - 1) * sizeof(*t->tps));
		memmove(&t->ids[i], &t->ids[i + 1], (t->nr - i - 1) * sizeof(*t->ids));
		t->tps[t->nr - 1] = tp;
		t->ids[t->nr - 1] = id;
		end--;
	}
	t->nr_bpf = 0;
	while (t->nr_bpf < t->nr && !is_probe(t, &t->tps[t->nr_bpf]))
		t->nr_bpf++;
}

int trace_tps__load(struct trace_tps *t, const char *root)
{
	void *data = NULL;
	size_t size = 0;
	int err;

	if (!t->nr)
		return 0;
	err = ember_tracing_data__build(root, t->tps, t->nr, &data, &size);
	if (err)
		return err;
	t->formats = ember_trace__parse(data, size);
	err = t->formats ? 0 : -errno;
	free(data);
	if (!err)
		put_probes_last(t);
	return err;
}

void trace_tps__exit(struct trace_tps *t)
{
	for (int i = 0; i < t->nr; i++) {
		free((char *)t->tps[i].sys);
		free((char *)t->tps[i].name);
	}
	free(t->tps);
	free(t->ids);
	ember_trace__delete(t->formats);
	memset(t, 0, sizeof(*t));
}

/* One field's value: arrays as text (their contents), the rest as numbers. */
static int print_field(struct trace_tps *t, int id, struct tep_format_field *f,
		       const struct ember_systrace_tp_rec *rec, const struct ember_syscall_env *env,
		       char *buf, size_t size)
{
	const struct ember_trace_field *tf = ember_trace__field(t->formats, id, f->name);
	struct ember_syscall_arg arg;
	bool is_array = f->flags & TEP_FIELD_IS_ARRAY;
	char str[256] = "";
	uint64_t val = 0;

	if (!tf)
		return -1;
	if (is_array) {
		if (ember_trace_field__str(tf, rec->raw, rec->size, str, sizeof(str)) < 0)
			return -1;
		val = 1;	/* an array is never "zero" to perf: its address is shown */
	} else if (ember_trace_field__num(tf, rec->raw, rec->size, &val)) {
		return -1;
	}
	if (!val)
		return -1;	/* perf leaves zeros out */
	snprintf(arg.name, sizeof(arg.name), "%s", f->name);
	snprintf(arg.type, sizeof(arg.type), "%s", f->type);
	return ember_syscall__scnprintf_field(&arg, is_array, val, str, env, buf, size);
}

int trace_tps__scnprintf(struct trace_tps *t, const struct ember_systrace_tp_rec *rec,
			 const struct ember_syscall_env *env, char *buf, size_t size)
{
	const struct ember_tracepoint *tp = &t->tps[rec->index];
	struct tep_event *ev;
	bool first = true;
	int n, id;

	n = scnprintf(buf, size, "%s:%s(", tp->sys, tp->name);
	id = t->formats ? ember_trace__event_id(t->formats, tp->sys, tp->name) : -ENOENT;
	ev = id >= 0 ? tep_find_event(ember_trace__tep(t->formats), id) : NULL;
	for (struct tep_format_field *f = ev ? ev->format.fields : NULL; f; f = f->next) {
		char val[512];
		int len = print_field(t, id, f, rec, env, val, sizeof(val));

		if (len < 0)
			continue;
		n += scnprintf(buf + n, size - n, "%s%s: %s", first ? "" : ", ", f->name, val);
		first = false;
	}
	return n + scnprintf(buf + n, size - n, ")");
}
