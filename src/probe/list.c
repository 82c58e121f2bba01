// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember probe -l and -d: the probes tracefs holds (ember's, perf's, anyone's),
 * kprobes then uprobes, each file's lines in perf's order (sorted, once
 * each), listed in perf's layout or removed by filter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/probe.h>
#include <ember/symbol.h>
#include "probe/probe.h"

/* One file's probes in perf's order: indices sorted by their lines, repeats dropped. */
struct sorted {
	struct ember_probe_events *list;
	size_t *idx;
	size_t nr;
};

struct sort_ctx {
	const struct ember_probe_events *list;
	bool by_name;
};

/* perf's strlist orders: the lines (-l), or the "group:event" names (-d). */
static int cmp_probes(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct ember_probe_trace *x, *y;
	char nx[2 * EMBER_PROBE_NAME_MAX + 2], ny[sizeof(nx)];

	if (!c->by_name)
		return strcmp(ember_probe_events__line(c->list, i),
			      ember_probe_events__line(c->list, j));
	x = ember_probe_events__get(c->list, i);
	y = ember_probe_events__get(c->list, j);
	snprintf(nx, sizeof(nx), "%s:%s", x->group, x->event);
	snprintf(ny, sizeof(ny), "%s:%s", y->group, y->event);
	return strcmp(nx, ny);
}

/* Read and sort one file; -ENOENT when the kernel has no such file. */
static int sorted_read(struct sorted *s, const char *tracefs, bool uprobe, bool by_name)
{
	struct sort_ctx ctx = { .by_name = by_name };
	size_t n, k = 0;

	memset(s, 0, sizeof(*s));
	s->list = ember_probe_events__read(tracefs, uprobe);
	if (!s->list)
		return -errno;
	n = ember_probe_events__nr(s->list);
	s->idx = calloc(n ? n : 1, sizeof(*s->idx));
	if (!s->idx)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		s->idx[i] = i;
	ctx.list = s->list;
	qsort_r(s->idx, n, sizeof(*s->idx), cmp_probes, &ctx);
	for (size_t i = 0; i < n; i++) {
		if (k && !cmp_probes(&s->idx[k - 1], &s->idx[i], &ctx))
			continue;
		s->idx[k++] = s->idx[i];
	}
	s->nr = k;
	return 0;
}

static void sorted_exit(struct sorted *s)
{
	ember_probe_events__delete(s->list);
	free(s->idx);
}

/* The binaries' symbols, opened once each while listing. */
struct dsos {
	struct ember_dso *dso[16];
	const char *path[16];
	size_t nr;
};

static struct ember_dso *dsos_get(struct dsos *d, const char *path)
{
	struct ember_symbol_opts opts = { .sz = sizeof(opts), .kallsyms = "" };
	struct ember_dso *dso;

	for (size_t i = 0; i < d->nr; i++)
		if (!strcmp(d->path[i], path))
			return d->dso[i];
	dso = ember_dso__open(path, &opts);
	if (!dso || ember_dso__load(dso) <= 0) {
		ember_dso__delete(dso);
		return NULL;
	}
	if (d->nr == sizeof(d->dso) / sizeof(d->dso[0])) {
		ember_dso__delete(d->dso[0]);
		memmove(d->dso, d->dso + 1, (d->nr - 1) * sizeof(d->dso[0]));
		memmove(d->path, d->path + 1, (d->nr - 1) * sizeof(d->path[0]));
		d->nr--;
	}
	d->dso[d->nr] = dso;
	d->path[d->nr++] = path;
	return dso;
}

static void dsos_exit(struct dsos *d)
{
	for (size_t i = 0; i < d->nr; i++)
		ember_dso__delete(d->dso[i]);
}

/*
 * What perf -l carries from one probe to the next of a file: it names
 * every probe in one place whose strings it clears but not its numbers,
 * so a probe that sets no line (or no offset) shows the previous one's
 * ("fn+4@src.c" for a return probe listed after a probe on fn+4).
 */
struct carry {
	int line;
	uint64_t offset;
};

/* Where a probe is, as perf -l says it: "fn:3@src.c" from DWARF, else "fn", "fn+4", the address. */
static void place(char *buf, size_t size, const struct ember_probe_trace *t, struct dsos *d,
		  struct carry *c)
{
	const struct ember_symbol *sym = NULL;
	struct ember_probe_point pt;
	struct ember_dso *dso;
	char msg[256];
	int ret;

	if (!t->uprobe) {
		char fn[256];
		uint64_t off = t->offset;
		const char *at = t->target;

		/* perf names _text+OFF by the kallsyms symbol holding it */
		if (at && !ember_probe__kernel_point(NULL, at, t->offset, fn, sizeof(fn), &off))
			at = fn;
		if (!at)
			snprintf(buf, size, "0x%llx", (unsigned long long)t->offset);
		else if (off)
			snprintf(buf, size, "%s+%llu", at, (unsigned long long)off);
		else
			snprintf(buf, size, "%s%s", at, t->retprobe ? "%return" : "");
		return;
	}
	ret = ember_probe__dwarf_point(t->target, t->offset, &pt, msg, sizeof(msg));
	if (ret == -ENOENT)
		fputs(msg, stderr);
	if (ret > 0) {
		if (pt.has_line)
			c->line = pt.line;
		if (pt.has_offset)
			c->offset = pt.offset;
	} else {
		memset(&pt, 0, sizeof(pt));
		dso = dsos_get(d, t->target);
		if (dso)
			sym = ember_dso__find_symbol(dso, t->offset);
		if (sym) {
			snprintf(pt.function, sizeof(pt.function), "%s", ember_symbol__name(sym));
			c->offset = t->offset - ember_symbol__start(sym);
		} else {
			snprintf(pt.function, sizeof(pt.function), "0x%llx",
				 (unsigned long long)t->offset);
			c->offset = 0;
		}
	}
	pt.line = c->line;
	pt.offset = c->offset;
	ember_probe_point__format(&pt, t->retprobe, buf, size);
}

static void show_one(const struct ember_probe_trace *t, struct dsos *d, struct carry *c)
{
	char name[2 * EMBER_PROBE_NAME_MAX + 2], where[1024];

	snprintf(name, sizeof(name), "%s:%s", t->group, t->event);
	place(where, sizeof(where), t, d, c);
	printf("  %-20s (on %s", name, where);
	if (t->uprobe)
		printf(" in %s", t->target);
	if (t->nr_args)
		printf(" with");
	for (unsigned int i = 0; i < t->nr_args; i++)
		printf(" %s", t->args[i].name ? t->args[i].name : t->args[i].value);
	printf(")\n");
}

int probe_list(struct probe_opts *o)
{
	struct dsos d = { 0 };
	int ret = 0, missing = 0;

	for (int uprobe = 0; uprobe < 2; uprobe++) {
		struct sorted s;
		struct carry c = { 0 };
		int err = sorted_read(&s, o->tracefs, uprobe, false);

		if (err) {
			sorted_exit(&s);
			if (err == -ENOENT) {
				missing++;
				continue;
			}
			fprintf(stderr, "ember probe: cannot read %s/%s: %s\n", o->tracefs,
				uprobe ? "uprobe_events" : "kprobe_events", strerror(-err));
			ret = 1;
			break;
		}
		for (size_t i = 0; i < s.nr; i++) {
			const struct ember_probe_trace *t;

			t = ember_probe_events__get(s.list, s.idx[i]);
			if (o->list_filter &&
			    probe_filter__match(o->list_filter, t->group, t->event) != 1)
				continue;
			show_one(t, &d, &c);
		}
		sorted_exit(&s);
	}
	if (missing == 2) {
		fprintf(stderr, "ember probe: %s has neither kprobe_events nor uprobe_events (this "
			"kernel was built without CONFIG_KPROBE_EVENTS and CONFIG_UPROBE_EVENTS)\n",
			o->tracefs);
		ret = 1;
	}
	dsos_exit(&d);
	return ret;
}

/* Whether any of the -d filters names the probe; -EINVAL for a filter that does not parse. */
static int del_matches(struct probe_opts *o, const struct ember_probe_trace *t)
{
	for (size_t i = 0; i < o->nr_dels; i++) {
		int m = probe_filter__match(o->dels[i], t->group, t->event);

		if (m)
			return m;
	}
	return 0;
}

/* Remove t if a filter names it; 0, or the exit code after a message. */
static int del_one(struct probe_opts *o, const struct ember_probe_trace *t, size_t *removed)
{
	int m = del_matches(o, t), err;

	if (m < 0) {
		fprintf(stderr, "ember probe: cannot parse the filter in -d\n");
		return 2;
	}
	if (!m)
		return 0;
	if (o->verbose > 0)
		fprintf(stderr, "Writing event: -:%s/%s\n", t->group, t->event);
	err = ember_probe__del(o->tracefs, t->uprobe, t->group, t->event);
	if (err) {
		fprintf(stderr, "ember probe: cannot remove %s:%s: %s\n", t->group, t->event,
			strerror(-err));
		return 1;
	}
	(*removed)++;
	if (!o->quiet)
		fprintf(stderr, "Removed event: %s:%s\n", t->group, t->event);
	return 0;
}

int probe_del(struct probe_opts *o)
{
	size_t removed = 0;
	int ret = 0;

	for (int uprobe = 0; uprobe < 2 && !ret; uprobe++) {
		struct sorted s;
		int err = sorted_read(&s, o->tracefs, uprobe, true);

		if (err == -ENOENT) {
			sorted_exit(&s);
			continue;
		}
		if (err) {
			fprintf(stderr, "ember probe: cannot read %s/%s: %s\n", o->tracefs,
				uprobe ? "uprobe_events" : "kprobe_events", strerror(-err));
			sorted_exit(&s);
			return 1;
		}
		for (size_t i = 0; i < s.nr && !ret; i++)
			ret = del_one(o, ember_probe_events__get(s.list, s.idx[i]), &removed);
		sorted_exit(&s);
	}
	if (!ret && !removed) {
		fprintf(stderr, "ember probe: \"");
		for (size_t i = 0; i < o->nr_dels; i++)
			fprintf(stderr, "%s%s", i ? "|" : "", o->dels[i]);
		fprintf(stderr, "\" does not hit any event\n");
		ret = 1;
	}
	return ret;
}
