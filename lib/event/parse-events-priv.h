/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Shared by the parse-*.c files only: the parser's state and the pieces
 * each file gives the others. Positions are byte offsets into the spec.
 *
 *   parse-events.c   the grammar, the event forms, per-parse resources
 *   parse-mods.c     modifiers (":ukp..."), perf's exclude_* rules
 *   parse-terms.c    pmu/term=value,.../ terms and numbers
 *   parse-suggest.c  unknown names: "did you mean ..."
 *   parse-error.c    recording and rendering errors
 */
#ifndef EMBER_LIB_PARSE_EVENTS_PRIV_H
#define EMBER_LIB_PARSE_EVENTS_PRIV_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ember/event.h>
#include "event/evsel.h"
#include "event/pmu.h"

struct group_span {
	int start, end;		/* indexes into parser.evsels */
};

struct parser {
	const char *spec;
	const struct ember_parse_opts *opts;
	struct ember_parse_error *err;

	struct ember_evsel **evsels;	/* parsed so far, in order */
	int nr, alloc;
	struct group_span *groups;
	int nr_groups;

	char tracefs[PATH_MAX];
	int tracefs_state;		/* 0: not looked up, 1: found, <0: -errno */
	struct pmu **pmus;		/* loaded PMUs */
	int nr_pmus;
	char **pmu_names;		/* every PMU, once listed */
	int nr_pmu_names;		/* -1 until listed */
};

/* ---- parse-error.c ---- */

/* Record the first error at pos; hint (may be NULL) is taken over. Returns ret. */
__attribute__((format(printf, 5, 6)))
int parse_events__fail_hint(struct parser *p, int ret, int pos, char *hint, const char *fmt, ...);

static inline char *parse_events__strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* The same with a constant hint. */
#define parse_fail(p, ret, pos, hint, ...) \
	parse_events__fail_hint(p, ret, pos, parse_events__strdup(hint), __VA_ARGS__)

static inline int parse_no_memory(struct parser *p, int pos)
{
	return parse_fail(p, -ENOMEM, pos, NULL, "out of memory");
}

/* ---- parse-events.c ---- */

/* perf's event_attr_init(): the ABI size, and guests excluded unless asked for. */
void parse_events__default_attr(struct perf_event_attr *attr);
/* Append a new evsel named name (len bytes). NULL when out of memory. */
struct ember_evsel *parse_events__add_evsel(struct parser *p, const struct perf_event_attr *attr,
					    const char *name, size_t name_len, enum evsel_kind kind,
					    const char *pmu_name);
/* The tracing directory, found (and mounted) once; NULL when unusable. */
const char *parse_events__tracefs(struct parser *p);
/* The PMU called name, loaded once; NULL with errno when absent. */
const struct pmu *parse_events__get_pmu(struct parser *p, const char *name, size_t len);
/* How many PMUs there are; p->pmu_names holds their names, sorted. */
int parse_events__list_pmus(struct parser *p);

/* ---- parse-mods.c ---- */

/* Check and apply event modifiers spec[start, end) to evsels [first, nr). */
int parse_events__event_mods(struct parser *p, int first, int start, int end);
/* Check and apply group modifiers spec[start, end) to evsels [first, nr). */
int parse_events__group_mods(struct parser *p, int first, int start, int end);

/* ---- parse-terms.c ---- */

/* A decimal or 0x-hex number filling exactly len bytes: 0, -EINVAL or -ERANGE. */
int parse_events__u64(const char *s, size_t len, uint64_t *val);
/*
 * Add an event on pmu from terms text (len bytes) at spec offset pos (for
 * an alias's terms, pos is where the alias was named). It is named name
 * (name_len bytes) unless a name= term says otherwise.
 */
int parse_events__pmu_event(struct parser *p, const struct pmu *pmu, const char *terms, int len,
			    int pos, bool in_alias, const char *name, size_t name_len);
/*
 * Apply generic terms text (len bytes, at spec offset pos) to the evsels
 * [first, nr) just added for a symbolic event or a tracepoint: name= renames
 * them, config*, period and freq set their attrs, the rest go to
 * evsel->terms. 0 or the error recorded.
 */
int parse_events__event_terms(struct parser *p, int first, const char *terms, int len, int pos);

/* ---- parse-suggest.c ---- */

/* An unknown name spec[s, e): the error, with the closest known name as hint. */
int parse_events__unknown_event(struct parser *p, int s, int e);
/* An unknown tracepoint spec[s, end) with its ':' at colon, under root. */
int parse_events__unknown_tracepoint(struct parser *p, int s, int colon, int end, const char *root);

#endif
