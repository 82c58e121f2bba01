// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* perf's per-event terms kept on an evsel (see evsel-terms.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "event/evsel-terms.h"

struct ember_evsel_terms *evsel_terms__new(void)
{
	return calloc(1, sizeof(struct ember_evsel_terms));
}

void evsel_terms__delete(struct ember_evsel_terms *t)
{
	if (!t)
		return;
	free(t->callgraph);
	free(t->branch_type);
	free(t->drv_cfg);
	free(t->metric_id);
	free(t);
}

static bool dup_str(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return true;
	*dst = strdup(src);
	return *dst != NULL;
}

struct ember_evsel_terms *evsel_terms__clone(const struct ember_evsel_terms *t)
{
	struct ember_evsel_terms *c;
	bool ok;

	if (!t)
		return NULL;
	c = malloc(sizeof(*c));
	if (!c)
		return NULL;
	*c = *t;
	ok = dup_str(&c->callgraph, t->callgraph);
	ok &= dup_str(&c->branch_type, t->branch_type);
	ok &= dup_str(&c->drv_cfg, t->drv_cfg);
	ok &= dup_str(&c->metric_id, t->metric_id);
	if (!ok) {
		evsel_terms__delete(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}
