/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * perf's per-event terms that are not attr bits the parser can set alone:
 * "cpu-clock/period=1000,call-graph=dwarf,stack-size=4096,no-inherit/".
 * The parser keeps them on the evsel (evsel->terms, NULL when none were
 * given); a command applies them over its own options, as perf's
 * evsel__apply_config_terms() does after evsel__config(), so a term wins
 * over -F, -c, -g, -i and --overwrite for its event.
 */
#ifndef EMBER_LIB_EVSEL_TERMS_H
#define EMBER_LIB_EVSEL_TERMS_H

#include <stdbool.h>
#include <stdint.h>

/* Which terms were given (ember_evsel_terms.set). */
enum ember_evsel_term {
	EMBER_TERM_PERIOD		= 1u << 0,
	EMBER_TERM_FREQ			= 1u << 1,
	EMBER_TERM_TIME			= 1u << 2,
	EMBER_TERM_CALLGRAPH		= 1u << 3,
	EMBER_TERM_STACK_SIZE		= 1u << 4,
	EMBER_TERM_MAX_STACK		= 1u << 5,
	EMBER_TERM_INHERIT		= 1u << 6,
	EMBER_TERM_OVERWRITE		= 1u << 7,
	EMBER_TERM_PERCORE		= 1u << 8,
	EMBER_TERM_AUX_OUTPUT		= 1u << 9,
	EMBER_TERM_AUX_SAMPLE_SIZE	= 1u << 10,
	EMBER_TERM_BRANCH_TYPE		= 1u << 11,
	EMBER_TERM_DRV_CFG		= 1u << 12,
	EMBER_TERM_NR			= 1u << 13,
	EMBER_TERM_METRIC_ID		= 1u << 14,
};

/* The terms usable when counting (perf stat): the rest are for sampling only. */
#define EMBER_TERMS_COUNTING (EMBER_TERM_PERIOD | EMBER_TERM_PERCORE | EMBER_TERM_METRIC_ID)

struct ember_evsel_terms {
	unsigned int set;		/* enum ember_evsel_term bits */
	uint64_t period;		/* period= */
	uint64_t freq;			/* freq= */
	bool time;			/* time[=0|1] */
	bool inherit;			/* inherit / no-inherit */
	bool overwrite;			/* overwrite / no-overwrite */
	bool percore;			/* percore[=0|1] */
	bool aux_output;		/* aux-output[=0|1] */
	uint32_t stack_size;		/* stack-size=, bytes */
	uint32_t max_stack;		/* max-stack= */
	uint32_t aux_sample_size;	/* aux-sample-size= */
	uint64_t nr;			/* nr=: perf's max events */
	char *callgraph;		/* call-graph=: "fp", "dwarf", "lbr" or "no"; owned */
	char *branch_type;		/* branch_type=; owned */
	char *drv_cfg;			/* driver-config=; owned */
	char *metric_id;		/* metric-id=; owned */
};

/* A new, empty set, or NULL. */
struct ember_evsel_terms *ember_evsel_terms__new(void);
/* A deep copy, or NULL (ENOMEM). NULL in gives NULL out. */
struct ember_evsel_terms *ember_evsel_terms__clone(const struct ember_evsel_terms *t);
/* Free. NULL is fine. */
void ember_evsel_terms__delete(struct ember_evsel_terms *t);

/* The term's name as perf spells it ("call-graph", "no-inherit" for inherit=0...). */
const char *ember_evsel_term__name(enum ember_evsel_term term);

#endif
