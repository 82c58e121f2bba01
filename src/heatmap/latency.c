// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember heatmap on perf.data: the latency between a start and an end event
 * matched by a key, as perf's block I/O heat map does with awk:
 *
 *   perf script | awk '... $5 ~ /issue/ { ts[dev, sector] = time }
 *                          $5 ~ /complete/ { if (l = ts[dev, sector]) print time, time - l ... }'
 *
 * Keys are sample fields (tid, pid, cpu) or tracepoint fields read from
 * the raw payload; string fields are hashed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ember/perf-data.h>
#include <ember/session.h>
#include <ember/trace.h>
#include <traceevent/event-parse.h>
#include "core/hash.h"
#include "heatmap/heatmap.h"
#include "heatmap/session.h"

#define MAX_KEYS 8

enum key_kind { KEY_TID, KEY_PID, KEY_CPU, KEY_FIELD };

struct key {
	enum key_kind kind;
	const char *name;
	const struct ember_trace_field *field[2];	/* in the start, the end event */
};

struct latency {
	const struct heatmap_cmd *cmd;
	const char *path;
	const char *ev[2];		/* "sys:name" of start and end */
	int id[2];			/* their tracepoint ids */
	struct key keys[MAX_KEYS];
	unsigned int nr_keys;
	double lat_div;			/* ns per latency unit */
	struct ember_heatmap_pairs *pairs;
	struct ember_heatmap_points *points;
	struct heatmap_pair_stats st;
	const char *key_spec;		/* as given, or the default */
	FILE *text;			/* --pairs */
	int err;
};

static int lat_units(const char *units, double *div)
{
	static const struct {
		const char *name;
		double div;
	} u[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (!strcmp(units, u[i].name)) {
			*div = u[i].div;
			return 0;
		}
	}
	return -1;
}

/* The tracepoint attr recorded for "sys:name"; its id through *id. */
static int find_event(struct ember_session *s, struct ember_trace *t, const char *ev, int *id)
{
	struct ember_data_reader *r = ember_session__reader(s);
	char sys[256], events[512];
	const char *colon = strchr(ev, ':');
	uint32_t nr = ember_data_reader__nr_attrs(r);

	if (!colon || colon == ev || !colon[1] || (size_t)(colon - ev) >= sizeof(sys)) {
		fprintf(stderr, "ember heatmap: '%s' is not a tracepoint; name one as sys:name "
			"(block:block_rq_issue, raw_syscalls:sys_enter)\n", ev);
		return -1;
	}
	memcpy(sys, ev, colon - ev);
	sys[colon - ev] = '\0';
	*id = t ? ember_trace__event_id(t, sys, colon + 1) : -ENOENT;
	for (uint32_t i = 0; *id >= 0 && i < nr; i++) {
		const struct ember_data_attr *a = ember_data_reader__attr(r, i);

		if (a->attr.type == PERF_TYPE_TRACEPOINT && a->attr.config == (uint64_t)*id) {
			if (!(a->attr.sample_type & PERF_SAMPLE_TIME)) {
				fprintf(stderr, "ember heatmap: the %s samples of the file have no "
					"time\n", ev);
				return -1;
			}
			if (!(a->attr.sample_type & PERF_SAMPLE_RAW)) {
				fprintf(stderr, "ember heatmap: the %s samples of the file have no "
					"fields (no PERF_SAMPLE_RAW)\n", ev);
				return -1;
			}
			return 0;
		}
	}
	heatmap_session_events(s, events, sizeof(events));
	fprintf(stderr, "ember heatmap: %s has no %s event (it has: %s); record it with "
		"-e %s\n", ember_session__path(s), ev, events[0] ? events : "none", ev);
	return -1;
}

/* "dev, sector, nr_sector": the fields of event id, for the error message. */
static void list_fields(struct ember_trace *t, int id, char *buf, size_t size)
{
	struct tep_event *e = tep_find_event(ember_trace__tep(t), id);
	size_t len = 0;

	buf[0] = '\0';
	for (struct tep_format_field *f = e ? e->format.fields : NULL; f && len < size;
	     f = f->next) {
		int n = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", f->name);

		if (n < 0)
			break;
		len += n;
	}
}

static int parse_keys(struct latency *l, struct ember_trace *t, const char *spec)
{
	char *dup = strdup(spec), *save = NULL, *name;
	int ret = 0;

	if (!dup)
		return -1;
	for (name = strtok_r(dup, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		struct key *k = &l->keys[l->nr_keys];

		if (l->nr_keys == MAX_KEYS) {
			fprintf(stderr, "ember heatmap: --key takes up to %d fields\n", MAX_KEYS);
			ret = -1;
			break;
		}
		k->name = spec + (name - dup);
		if (!strcmp(name, "tid")) {
			k->kind = KEY_TID;
		} else if (!strcmp(name, "pid")) {
			k->kind = KEY_PID;
		} else if (!strcmp(name, "cpu")) {
			k->kind = KEY_CPU;
		} else {
			k->kind = KEY_FIELD;
			for (int i = 0; i < 2; i++) {
				char fields[1024];

				k->field[i] = ember_trace__field(t, l->id[i], name);
				if (k->field[i])
					continue;
				list_fields(t, l->id[i], fields, sizeof(fields));
				fprintf(stderr, "ember heatmap: %s has no field '%s' (its fields: %s; "
					"or tid, pid, cpu)\n", l->ev[i], name, fields);
				ret = -1;
				break;
			}
			if (ret)
				break;
		}
		l->nr_keys++;
	}
	if (!ret && !l->nr_keys) {
		fprintf(stderr, "ember heatmap: --key names no field\n");
		ret = -1;
	}
	free(dup);
	return ret;
}

/* The key of a sample of event `which` (0 start, 1 end); false when a field cannot be read. */
static bool sample_key(const struct latency *l, const struct ember_sample *smp, int which,
		       uint64_t *key)
{
	for (unsigned int i = 0; i < l->nr_keys; i++) {
		const struct key *k = &l->keys[i];
		char str[256];

		switch (k->kind) {
		case KEY_TID:
			key[i] = smp->tid;
			break;
		case KEY_PID:
			key[i] = smp->pid;
			break;
		case KEY_CPU:
			key[i] = smp->cpu;
			break;
		case KEY_FIELD:
			if (!ember_trace_field__num(k->field[which], smp->raw_data, smp->raw_size,
						    &key[i]))
				break;
			if (ember_trace_field__str(k->field[which], smp->raw_data, smp->raw_size,
						   str, sizeof(str)) < 0)
				return false;
			key[i] = hash_str(str);
			break;
		}
	}
	return true;
}

static int on_sample(struct ember_session *s, const struct ember_session_sample *ss, void *ctx)
{
	struct latency *l = ctx;
	const struct ember_sample *smp = ss->sample;
	uint64_t key[MAX_KEYS], start;
	int which;

	if (ss->attr->attr.type != PERF_TYPE_TRACEPOINT)
		return 0;
	if (ss->attr->attr.config == (uint64_t)l->id[0])
		which = 0;
	else if (ss->attr->attr.config == (uint64_t)l->id[1])
		which = 1;
	else
		return 0;
	if (!sample_key(l, smp, which, key))
		return 0;
	if (which == 0) {
		l->st.starts++;
		l->err = ember_heatmap_pairs__start(l->pairs, key, smp->time);
		return l->err;
	}
	l->st.ends++;
	if (!ember_heatmap_pairs__end(l->pairs, key, &start)) {
		l->st.unmatched_ends++;
		return 0;
	}
	l->st.pairs++;
	/* As the awk script: the pair's time is the end's, in us. */
	if (l->text)
		fprintf(l->text, "%.3f %.15g\n", smp->time / 1e3,
			((double)smp->time - (double)start) / l->lat_div);
	else
		l->err = ember_heatmap_points__add(l->points, smp->time / 1e3,
						   ((double)smp->time - (double)start) / l->lat_div);
	return l->err;
}

static int setup(struct latency *l, struct ember_session *s)
{
	const struct heatmap_cmd *cmd = l->cmd;
	struct ember_trace *t = ember_session__trace(s);
	const char *keys;

	l->ev[0] = cmd->start_ev ? cmd->start_ev : "block:block_rq_issue";
	l->ev[1] = cmd->end_ev ? cmd->end_ev : "block:block_rq_complete";
	keys = cmd->keys ? cmd->keys : cmd->start_ev ? "tid" : "dev,sector";
	l->key_spec = keys;
	if (find_event(s, t, l->ev[0], &l->id[0]) || find_event(s, t, l->ev[1], &l->id[1]))
		return -1;
	if (l->id[0] == l->id[1]) {
		fprintf(stderr, "ember heatmap: --start and --end name the same event, %s\n",
			l->ev[0]);
		return -1;
	}
	if (parse_keys(l, t, keys))
		return -1;
	l->pairs = ember_heatmap_pairs__new(l->nr_keys);
	l->points = ember_heatmap_points__new();
	if (!l->pairs || !l->points) {
		fprintf(stderr, "ember heatmap: out of memory\n");
		return -1;
	}
	return 0;
}

int heatmap_latency(struct heatmap_cmd *cmd, const char *path, FILE *out)
{
	struct latency l = { .cmd = cmd, .path = path, .lat_div = 1e3 };
	struct ember_session_ops ops = { .sample = on_sample };
	struct ember_session *s;
	char what[1024];
	int ret = 1, err;

	if (cmd->units_time) {
		fprintf(stderr, "ember heatmap: --unitstime is for text input; perf.data times "
			"are known\n");
		return 2;
	}
	/* The points' times are in us, as the awk script prints them. */
	cmd->units_time = "us";
	if (!cmd->units_lat)
		cmd->units_lat = "us";
	if (lat_units(cmd->units_lat, &l.lat_div)) {
		fprintf(stderr, "ember heatmap: --unitslat for perf.data is ns, us, ms or s, not "
			"'%s'\n", cmd->units_lat);
		return 2;
	}
	if (!!cmd->start_ev != !!cmd->end_ev) {
		fprintf(stderr, "ember heatmap: --start and --end go together\n");
		return 2;
	}
	s = heatmap_session_open(path, cmd->force, false);
	if (!s)
		return 1;
	if (setup(&l, s))
		goto out;
	if (cmd->pairs)
		l.text = out;
	err = ember_session__process(s, &ops, &l);
	if (err) {
		fprintf(stderr, "ember heatmap: cannot read %s: %s\n", path,
			strerror(err < 0 ? -err : -l.err));
		goto out;
	}
	ember_session__fprintf_warnings(s, stderr);
	l.st.pending = ember_heatmap_pairs__pending(l.pairs);
	snprintf(what, sizeof(what), "%s", path);
	if (cmd->verbose)
		fprintf(stderr, "ember heatmap: %llu %s, %llu %s, %llu pairs by %s; %llu ends "
			"without a start, %llu starts without an end\n", l.st.starts, l.ev[0],
			l.st.ends, l.ev[1], l.st.pairs, l.key_spec,
			l.st.unmatched_ends, l.st.pending);
	if (!l.st.pairs) {
		fprintf(stderr, "ember heatmap: no %s in %s matched a %s (%llu starts, %llu ends)\n",
			l.ev[1], path, l.ev[0], l.st.starts, l.st.ends);
		goto out;
	}
	if (cmd->pairs) {
		ret = 0;
		goto out;
	}
	if (!cmd->title)
		cmd->title = "Latency Heat Map";
	ret = heatmap_cmd__draw(cmd, l.points, what, out);
out:
	ember_heatmap_points__delete(l.points);
	ember_heatmap_pairs__delete(l.pairs);
	ember_session__delete(s);
	return ret;
}
