// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* perf's per-event terms kept on an evsel (see evsel-terms.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "event/evsel-terms.h"

struct ember_evsel_terms *ember_evsel_terms__new(void)
{
	return calloc(1, sizeof(struct ember_evsel_terms));
}

void ember_evsel_terms__delete(struct ember_evsel_terms *t)
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

struct ember_evsel_terms *ember_evsel_terms__clone(const struct ember_evsel_terms *t)
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
		ember_evsel_terms__delete(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

const char *ember_evsel_term__name(enum ember_evsel_term term)
{
	switch (term) {
	case EMBER_TERM_PERIOD:		return "period";
	case EMBER_TERM_FREQ:		return "freq";
	case EMBER_TERM_TIME:		return "time";
	case EMBER_TERM_CALLGRAPH:	return "call-graph";
	case EMBER_TERM_STACK_SIZE:	return "stack-size";
	case EMBER_TERM_MAX_STACK:	return "max-stack";
	case EMBER_TERM_INHERIT:	return "inherit";
	case EMBER_TERM_OVERWRITE:	return "overwrite";
	case EMBER_TERM_PERCORE:	return "percore";
	case EMBER_TERM_AUX_OUTPUT:	return "aux-output";
	case EMBER_TERM_AUX_SAMPLE_SIZE: return "aux-sample-size";
	case EMBER_TERM_BRANCH_TYPE:	return "branch_type";
	case EMBER_TERM_DRV_CFG:	return "driver-config";
	case EMBER_TERM_NR:		return "nr";
	case EMBER_TERM_METRIC_ID:	return "metric-id";
	}
	return "?";
}
