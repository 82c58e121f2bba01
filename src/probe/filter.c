// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf probe's event filters for -l and -d: glob terms joined by '|' (or)
 * and '&' (and), '!' (not) and parentheses, as perf's strfilter reads
 * them. A probe matches when its event name or its "group:event" does.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <ember/event.h>
#include "probe/probe.h"

#define FILTER_MAX_DEPTH 32

struct filter_parse {
	const char *s;
	const char *name;	/* what a term is matched against */
	int depth;
	bool bad;
};

static int parse_or(struct filter_parse *p);

/* One glob term or a parenthesised filter, '!' before either. */
static int parse_term(struct filter_parse *p)
{
	char glob[1024];
	size_t n;
	int v;

	while (*p->s == ' ')
		p->s++;
	if (*p->s == '!') {
		p->s++;
		v = parse_term(p);
		return v < 0 ? v : !v;
	}
	if (*p->s == '(') {
		if (++p->depth > FILTER_MAX_DEPTH)
			return -EINVAL;
		p->s++;
		v = parse_or(p);
		if (v < 0 || *p->s != ')')
			return -EINVAL;
		p->s++;
		p->depth--;
		return v;
	}
	n = strcspn(p->s, "|&()! ");
	if (!n || n >= sizeof(glob))
		return -EINVAL;
	memcpy(glob, p->s, n);
	glob[n] = '\0';
	p->s += n;
	while (*p->s == ' ')
		p->s++;
	return ember_glob_match(glob, p->name);
}

static int parse_and(struct filter_parse *p)
{
	int v = parse_term(p), w;

	while (v >= 0 && *p->s == '&') {
		p->s++;
		w = parse_term(p);
		v = w < 0 ? w : v && w;
	}
	return v;
}

static int parse_or(struct filter_parse *p)
{
	int v = parse_and(p), w;

	while (v >= 0 && *p->s == '|') {
		p->s++;
		w = parse_and(p);
		v = w < 0 ? w : v || w;
	}
	return v;
}

int probe_filter__match_name(const char *filter, const char *name)
{
	struct filter_parse p = { .s = filter, .name = name };
	int v = parse_or(&p);

	if (v >= 0 && *p.s)
		return -EINVAL;
	return v;
}

int probe_filters__match(const struct probe_opts *o, const char *name)
{
	for (size_t i = 0; i < o->nr_filters; i++) {
		int m = probe_filter__match_name(o->filters[i], name);

		if (m)
			return m;
	}
	return 0;
}

int probe_filter__match(const char *filter, const char *group, const char *event)
{
	char full[256];
	int v;

	v = probe_filter__match_name(filter, event);
	if (v)
		return v;
	if (snprintf(full, sizeof(full), "%s:%s", group, event) >= (int)sizeof(full))
		return 0;
	return probe_filter__match_name(filter, full);
}
