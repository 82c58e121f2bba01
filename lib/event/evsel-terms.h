/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The parser's side of perf's per-event terms (struct ember_evsel_terms,
 * <ember/event.h>): it keeps them on the evsel (evsel->terms, NULL when
 * none were given).
 */
#ifndef EMBER_LIB_EVSEL_TERMS_H
#define EMBER_LIB_EVSEL_TERMS_H

#include <ember/event.h>

/* A new, empty set, or NULL. */
struct ember_evsel_terms *evsel_terms__new(void);
/* A deep copy, or NULL (ENOMEM). NULL in gives NULL out. */
struct ember_evsel_terms *evsel_terms__clone(const struct ember_evsel_terms *t);
/* Free. NULL is fine. */
void evsel_terms__delete(struct ember_evsel_terms *t);

#endif
