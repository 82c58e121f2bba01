// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember heatmap --samples: FlameScope's view of a perf.data file — the
 * samples by second and offset within the second, each with its stack
 * (process name at the root, as stackcollapse-perf.pl folds it), written
 * as one HTML page that draws the flame graph of any range of cells.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ember/session.h>
#include "heatmap/heatmap.h"
#include "heatmap/session.h"

/* Idle stacks, as FlameScope's idle filter names them. */
static const char *const idle_frames[] = {
	"cpuidle", "cpu_idle", "cpu_bringup_and_idle", "native_safe_halt", "xen_hypercall_sched_op",
	"xen_hypercall_vcpu_op", "default_idle", "acpi_idle_do_entry", "cpu_startup_entry",
	"poll_idle", "intel_idle", NULL,
};

struct samples {
	const struct heatmap_cmd *cmd;
	struct ember_heatmap_density *d;
	const char **frames;
	size_t alloc;
	uint64_t seen, kept, idle, no_time;
	bool has_event;
	int err;
};

/* The frame name stackcollapse-perf.pl gives: the symbol, else [module], else [unknown]. */
static const char *frame_name(const struct ember_addr_location *al)
{
	if (al->sym_name)
		return al->sym_name;
	if (al->dso_short_name)
		return al->dso_short_name;
	return "[unknown]";
}

static bool is_idle(const char *const *frames, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		for (const char *const *p = idle_frames; *p; p++)
			if (strstr(frames[i], *p))
				return true;
	return false;
}

/* name as given, or with modifiers: "cpu-clock" is the "cpu-clock:ppp" of the file. */
static bool event_matches(const char *attr_name, const char *name)
{
	size_t len = strlen(name);

	if (!attr_name || strncmp(attr_name, name, len))
		return false;
	if (!attr_name[len])
		return true;
	if (attr_name[len] != ':' || !attr_name[len + 1])
		return false;
	for (const char *p = attr_name + len + 1; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			return false;
	return true;
}

static int on_sample(struct ember_session *s, const struct ember_session_sample *ss, void *ctx)
{
	struct samples *sm = ctx;
	const struct ember_addr_location *chain;
	const char *comm;
	int n;
	size_t nr = 0;

	if (sm->cmd->event && !event_matches(ss->attr->name, sm->cmd->event))
		return 0;
	sm->seen++;
	if (!(ss->attr->attr.sample_type & PERF_SAMPLE_TIME)) {
		sm->no_time++;
		return 0;
	}
	n = ember_session__callchain(s, ss, &chain);
	if (n < 0)
		return sm->err = n;
	if ((size_t)n + 2 > sm->alloc) {
		size_t alloc = 2 * ((size_t)n + 2);
		const char **f = realloc(sm->frames, alloc * sizeof(*f));

		if (!f)
			return sm->err = -ENOMEM;
		sm->frames = f;
		sm->alloc = alloc;
	}
	comm = ss->al.comm ? ss->al.comm : ss->thread ? ember_thread__comm(ss->thread) : NULL;
	sm->frames[nr++] = comm ? comm : "[unknown]";
	if (n > 0) {
		/* The chain is leaf first; the flame graph wants the root first. */
		for (int i = n - 1; i >= 0; i--)
			sm->frames[nr++] = frame_name(&chain[i]);
	} else {
		sm->frames[nr++] = frame_name(&ss->al);
	}
	if (sm->cmd->no_idle && is_idle(sm->frames, nr)) {
		sm->idle++;
		return 0;
	}
	sm->err = ember_heatmap_density__add(sm->d, ss->sample->time, sm->frames, nr);
	if (!sm->err)
		sm->kept++;
	return sm->err;
}

static bool file_has_event(struct ember_session *s, const char *name)
{
	struct ember_data_reader *r = ember_session__reader(s);
	uint32_t nr = ember_data_reader__nr_attrs(r);

	for (uint32_t i = 0; i < nr; i++) {
		const struct ember_data_attr *a = ember_data_reader__attr(r, i);

		if (event_matches(a->name, name))
			return true;
	}
	return false;
}

int heatmap_samples(const struct heatmap_cmd *cmd, const char *path, FILE *out)
{
	struct samples sm = { .cmd = cmd };
	struct ember_session_ops ops = { .sample = on_sample };
	struct ember_heatmap_html_opts html = { .sz = sizeof(html), .title = cmd->title,
						.subtitle = path };
	struct ember_session *s;
	char events[512];
	int ret = 1, err;

	if (cmd->rows > 1000) {
		fprintf(stderr, "ember heatmap: --samples takes up to 1000 --rows\n");
		return 2;
	}
	s = heatmap_session_open(path, cmd->force, true);
	if (!s)
		return 1;
	if (cmd->event && !file_has_event(s, cmd->event)) {
		heatmap_session_events(s, events, sizeof(events));
		fprintf(stderr, "ember heatmap: %s has no %s event (it has: %s)\n", path, cmd->event,
			events);
		goto out;
	}
	sm.d = ember_heatmap_density__new(cmd->rows);
	if (!sm.d) {
		fprintf(stderr, "ember heatmap: out of memory\n");
		goto out;
	}
	err = ember_session__process(s, &ops, &sm);
	if (err) {
		fprintf(stderr, "ember heatmap: cannot read %s: %s\n", path,
			strerror(err < 0 ? -err : -sm.err));
		goto out;
	}
	ember_session__fprintf_warnings(s, stderr);
	if (cmd->verbose)
		fprintf(stderr, "ember heatmap: %llu samples, %llu drawn, %llu idle left out, %llu "
			"without time\n", (unsigned long long)sm.seen, (unsigned long long)sm.kept,
			(unsigned long long)sm.idle, (unsigned long long)sm.no_time);
	if (!sm.kept) {
		if (sm.no_time)
			fprintf(stderr, "ember heatmap: the samples of %s have no time (record "
				"with -T or without --no-time)\n", path);
		else
			fprintf(stderr, "ember heatmap: %s has no samples%s\n", path,
				sm.idle ? " but idle ones (drop --no-idle)" : "");
		goto out;
	}
	err = ember_heatmap_density__write_html(sm.d, &html, out);
	if (err == -E2BIG) {
		fprintf(stderr, "ember heatmap: the samples of %s span too many seconds for one "
			"page (over 20 million cells); try fewer --rows\n", path);
		goto out;
	}
	if (err) {
		fprintf(stderr, "ember heatmap: cannot write the page: %s\n", strerror(-err));
		goto out;
	}
	ret = 0;
out:
	free(sm.frames);
	ember_heatmap_density__delete(sm.d);
	ember_session__delete(s);
	return ret;
}
