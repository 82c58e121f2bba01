// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * PMU event terms: "event=0x3c,umask=1,edge,name=x" encoded through the
 * PMU's sysfs format files, its events/ aliases expanded, and perf's
 * generic terms, on PMU events and on symbolic events and tracepoints
 * ("cpu-clock/period=1000,call-graph=dwarf/"): config*, name, period and
 * freq set the attr; the rest (and period/freq again) are kept in
 * evsel->terms for the command to apply over its options.
 */
#include <ctype.h>
#include <stddef.h>
#include "event/parse-events-priv.h"

/* A decimal or 0x-hex number filling exactly len bytes. 0, -EINVAL or -ERANGE. */
int parse_events__u64(const char *s, size_t len, uint64_t *val)
{
	bool hex = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned int base = hex ? 16 : 10;
	uint64_t v = 0;

	if (hex) {
		s += 2;
		len -= 2;
	}
	if (!len)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)s[i], digit;

		if (isdigit(c))
			digit = c - '0';
		else if (hex && isxdigit(c))
			digit = tolower(c) - 'a' + 10;
		else
			return -EINVAL;
		if (v > (UINT64_MAX - digit) / base)
			return -ERANGE;
		v = v * base + digit;
	}
	*val = v;
	return 0;
}

static bool same(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(s, word, len);
}

/* perf's generic terms, as its config_term_names[] spells them, after the PMU's formats. */
#define GENERIC_TERMS "config,config1,config2,name,period,freq,branch_type,time,call-graph," \
		      "stack-size,no-inherit,inherit,max-stack,nr,no-overwrite,overwrite," \
		      "driver-config,percore,aux-output,aux-sample-size,metric-id"

static char *valid_terms_hint(const struct pmu *pmu)
{
	size_t len = sizeof("valid terms: ") + sizeof(GENERIC_TERMS);
	char *hint;

	for (int i = 0; pmu && i < pmu->nr_formats; i++)
		len += strlen(pmu->formats[i].name) + 1;
	hint = malloc(len);
	if (!hint)
		return NULL;
	strcpy(hint, "valid terms: ");
	for (int i = 0; pmu && i < pmu->nr_formats; i++) {
		strcat(hint, pmu->formats[i].name);
		strcat(hint, ",");
	}
	strcat(hint, GENERIC_TERMS);
	return hint;
}

enum term_val { TV_NUM, TV_STR, TV_BOOL, TV_NOT };	/* TV_NOT: "no-x" is x = !value */

/* The terms kept in struct ember_evsel_terms (config*, name, period and freq set the attr too). */
static const struct {
	const char *name;
	enum ember_evsel_term term;
	enum term_val val;
	bool pmu_only;		/* perf's config_term_pmu only, not on symbolic events */
} term_table[] = {
	{ "period", EMBER_TERM_PERIOD, TV_NUM, false },
	{ "freq", EMBER_TERM_FREQ, TV_NUM, false },
	{ "time", EMBER_TERM_TIME, TV_BOOL, false },
	{ "call-graph", EMBER_TERM_CALLGRAPH, TV_STR, false },
	{ "stack-size", EMBER_TERM_STACK_SIZE, TV_NUM, false },
	{ "max-stack", EMBER_TERM_MAX_STACK, TV_NUM, false },
	{ "inherit", EMBER_TERM_INHERIT, TV_BOOL, false },
	{ "no-inherit", EMBER_TERM_INHERIT, TV_NOT, false },
	{ "overwrite", EMBER_TERM_OVERWRITE, TV_BOOL, false },
	{ "no-overwrite", EMBER_TERM_OVERWRITE, TV_NOT, false },
	{ "percore", EMBER_TERM_PERCORE, TV_BOOL, false },
	{ "aux-output", EMBER_TERM_AUX_OUTPUT, TV_BOOL, false },
	{ "aux-sample-size", EMBER_TERM_AUX_SAMPLE_SIZE, TV_NUM, false },
	{ "branch_type", EMBER_TERM_BRANCH_TYPE, TV_STR, false },
	{ "driver-config", EMBER_TERM_DRV_CFG, TV_STR, true },
	{ "nr", EMBER_TERM_NR, TV_NUM, false },
	{ "metric-id", EMBER_TERM_METRIC_ID, TV_STR, false },
};

struct term_ctx {
	const struct pmu *pmu;	/* NULL: a symbolic event or tracepoint, generic terms only */
	struct perf_event_attr *attr;
	char **name;
	struct ember_evsel_terms **terms; /* allocated at the first kept term */
	bool in_alias;		/* terms from an events/ file: errors point at the alias */
	int alias_pos;
};

static int parse_terms(struct parser *p, struct term_ctx *tc, const char *text, int len,
		       int base);

/* The attr word a generic term sets, or NULL when key is not one. */
static uint64_t *generic_term(struct perf_event_attr *attr, const char *key, int klen)
{
	if (same(key, klen, "config"))
		return (uint64_t *)&attr->config;
	if (same(key, klen, "config1"))
		return (uint64_t *)&attr->config1;
	if (same(key, klen, "config2"))
		return (uint64_t *)&attr->config2;
	if (same(key, klen, "period") || same(key, klen, "freq"))
		return (uint64_t *)&attr->sample_period;	/* same union as sample_freq */
	return NULL;
}

static bool counting(const struct parser *p)
{
	return p->opts && p->opts->sz >= offsetof(struct ember_parse_opts, counting) + sizeof(bool) &&
	       p->opts->counting;
}

static int store_str(struct parser *p, char **dst, const char *val, int vlen, int vpos)
{
	free(*dst);
	*dst = strndup(val, vlen);
	return *dst ? 0 : parse_no_memory(p, vpos);
}

/* A term of term_table[i] with its value (NULL: given bare). */
static int keep_term(struct parser *p, struct term_ctx *tc, size_t i, const char *val, int vlen,
		     int kpos, int vpos)
{
	enum ember_evsel_term term = term_table[i].term;
	struct ember_evsel_terms *t;
	uint64_t v = 1;
	int ret;

	if (counting(p) && !(term & EMBER_TERMS_COUNTING))
		return parse_fail(p, -EINVAL, kpos, "it applies to sampling (ember record)",
				  "'%s' is not usable in 'ember stat'", term_table[i].name);
	if (term_table[i].val == TV_STR) {
		if (!val)
			return parse_fail(p, -EINVAL, kpos, NULL, "term '%s' needs a value",
					  term_table[i].name);
	} else if (val) {
		ret = parse_events__u64(val, vlen, &v);
		if (ret == -ERANGE)
			return parse_fail(p, -EINVAL, vpos, NULL,
					  "value '%.*s' does not fit in 64 bits", vlen, val);
		if (ret)
			return parse_fail(p, -EINVAL, vpos, "a value is a decimal or 0x-hex number",
					  "invalid value '%.*s' for term '%s'", vlen, val,
					  term_table[i].name);
	} else if (term_table[i].val == TV_NUM) {
		return parse_fail(p, -EINVAL, kpos, NULL, "term '%s' needs a value",
				  term_table[i].name);
	}
	if (term == EMBER_TERM_CALLGRAPH && !same(val, vlen, "fp") && !same(val, vlen, "dwarf") &&
	    !same(val, vlen, "lbr") && !same(val, vlen, "no"))
		return parse_fail(p, -EINVAL, vpos, "call-graph=fp, dwarf, lbr or no",
				  "invalid call-graph mode '%.*s'", vlen, val);
	if (term == EMBER_TERM_STACK_SIZE && (v == 0 || v > 65528))
		return parse_fail(p, -EINVAL, vpos, NULL,
				  "invalid stack-size '%.*s': 8 to 65528 bytes", vlen, val);
	if ((term == EMBER_TERM_MAX_STACK || term == EMBER_TERM_AUX_SAMPLE_SIZE) &&
	    v > UINT32_MAX)
		return parse_fail(p, -EINVAL, vpos, NULL, "value '%.*s' is too big for '%s'", vlen,
				  val, term_table[i].name);
	if (!*tc->terms && !(*tc->terms = evsel_terms__new()))
		return parse_no_memory(p, kpos);
	t = *tc->terms;
	t->set |= term;
	switch (term) {
	case EMBER_TERM_PERIOD:		t->period = v; break;
	case EMBER_TERM_FREQ:		t->freq = v; break;
	case EMBER_TERM_TIME:		t->time = v != 0; break;
	case EMBER_TERM_STACK_SIZE:	t->stack_size = (uint32_t)v; break;
	case EMBER_TERM_MAX_STACK:	t->max_stack = (uint32_t)v; break;
	case EMBER_TERM_INHERIT:
		t->inherit = term_table[i].val == TV_NOT ? v == 0 : v != 0;
		break;
	case EMBER_TERM_OVERWRITE:
		t->overwrite = term_table[i].val == TV_NOT ? v == 0 : v != 0;
		break;
	case EMBER_TERM_PERCORE:	t->percore = v != 0; break;
	case EMBER_TERM_AUX_OUTPUT:	t->aux_output = v != 0; break;
	case EMBER_TERM_AUX_SAMPLE_SIZE: t->aux_sample_size = (uint32_t)v; break;
	case EMBER_TERM_NR:		t->nr = v; break;
	case EMBER_TERM_CALLGRAPH:	return store_str(p, &t->callgraph, val, vlen, vpos);
	case EMBER_TERM_BRANCH_TYPE:	return store_str(p, &t->branch_type, val, vlen, vpos);
	case EMBER_TERM_DRV_CFG:	return store_str(p, &t->drv_cfg, val, vlen, vpos);
	case EMBER_TERM_METRIC_ID:	return store_str(p, &t->metric_id, val, vlen, vpos);
	}
	return 0;
}

static int apply_term(struct parser *p, struct term_ctx *tc, const char *key, int klen,
		      const char *val, int vlen, int kpos, int vpos)
{
	const struct pmu_format *fmt;
	const struct pmu_alias *alias;
	uint64_t v = 1, *word;
	int ret;

	if (!klen)
		return parse_fail(p, -EINVAL, kpos, NULL, "missing term name");
	if (val && !vlen)
		return parse_fail(p, -EINVAL, vpos, NULL, "missing value for term '%.*s'", klen,
				  key);
	if (same(key, klen, "name")) {
		if (!val)
			return parse_fail(p, -EINVAL, kpos, NULL, "term 'name' needs a value");
		if (tc->in_alias)
			return 0;
		free(*tc->name);
		*tc->name = strndup(val, vlen);
		return *tc->name ? 0 : parse_no_memory(p, vpos);
	}
	fmt = tc->pmu ? pmu__format(tc->pmu, key, klen) : NULL;
	word = fmt ? NULL : generic_term(tc->attr, key, klen);
	if (!fmt && !word) {
		alias = val || tc->in_alias || !tc->pmu ? NULL : pmu__alias(tc->pmu, key, klen);
		if (alias) {
			struct term_ctx sub = *tc;

			sub.in_alias = true;
			sub.alias_pos = kpos;
			return parse_terms(p, &sub, alias->terms, strlen(alias->terms), kpos);
		}
		for (size_t i = 0; i < sizeof(term_table) / sizeof(*term_table); i++) {
			if (!same(key, klen, term_table[i].name) ||
			    (term_table[i].pmu_only && !tc->pmu))
				continue;
			/* An alias's "?" parameter the user did not give: left unset. */
			if (val && tc->in_alias && vlen == 1 && *val == '?')
				return 0;
			return keep_term(p, tc, i, val, vlen, kpos, vpos);
		}
		if (!tc->pmu)
			return parse_events__fail_hint(p, -EINVAL, kpos, valid_terms_hint(NULL),
						       "unknown term '%.*s'", klen, key);
		return parse_events__fail_hint(p, -EINVAL, kpos, valid_terms_hint(tc->pmu),
					       "unknown term '%.*s' for pmu '%s'", klen, key,
					       tc->pmu->name);
	}
	/* A "?" in an alias is a parameter for the user to give; until then, 0. */
	if (val && tc->in_alias && vlen == 1 && *val == '?')
		return 0;
	if (val) {
		ret = parse_events__u64(val, vlen, &v);
		if (ret == -ERANGE)
			return parse_fail(p, -EINVAL, vpos, NULL,
					  "value '%.*s' does not fit in 64 bits", vlen, val);
		if (ret)
			return parse_fail(p, -EINVAL, vpos, "a value is a decimal or 0x-hex number",
					  "invalid value '%.*s' for term '%.*s'", vlen, val, klen,
					  key);
	}
	if (fmt) {
		if (pmu_format__encode(fmt, v, tc->attr))
			return parse_fail(p, -EINVAL, val ? vpos : kpos, NULL,
					  "value too big for format '%s', maximum is %#llx",
					  fmt->name, (unsigned long long)pmu_format__max(fmt));
		return 0;
	}
	if (same(key, klen, "freq") && counting(p))
		return parse_fail(p, -EINVAL, kpos, "it applies to sampling (ember record)",
				  "'freq' is not usable in 'ember stat'");
	*word = v;
	if (same(key, klen, "freq"))
		tc->attr->freq = 1;
	else if (same(key, klen, "period"))
		tc->attr->freq = 0;
	if (same(key, klen, "freq") || same(key, klen, "period")) {
		/* Kept too: a command's -F/-c must not override it (perf applies it last). */
		for (size_t i = 0; i < sizeof(term_table) / sizeof(*term_table); i++)
			if (same(key, klen, term_table[i].name))
				return keep_term(p, tc, i, val, vlen, kpos, vpos);
	}
	return 0;
}

/* Terms "k=v,k,..." in text[0, len); base is text's offset in the spec. */
static int parse_terms(struct parser *p, struct term_ctx *tc, const char *text, int len,
		       int base)
{
	int i = 0;

	if (!len)
		return 0;
	while (i <= len) {
		int a = i, b, ret;
		const char *eq;

		while (i < len && text[i] != ',')
			i++;
		b = i++;
		if (a == b)
			return parse_fail(p, -EINVAL, tc->in_alias ? tc->alias_pos : base + a, NULL,
					  "empty term in '%s' event",
					  tc->pmu ? tc->pmu->name : "this");
		eq = memchr(text + a, '=', b - a);
		ret = apply_term(p, tc, text + a, (eq ? eq - text : b) - a, eq ? eq + 1 : NULL,
				 eq ? b - (eq + 1 - text) : 0,
				 tc->in_alias ? tc->alias_pos : base + a,
				 tc->in_alias ? tc->alias_pos : base + (eq ? eq + 1 - text : b));
		if (ret)
			return ret;
	}
	return 0;
}

static enum evsel_kind pmu_kind(const struct pmu *pmu)
{
	if (pmu__is_core(pmu) || pmu->type == PERF_TYPE_RAW || pmu->type == PERF_TYPE_HARDWARE)
		return EVSEL_HARDWARE;
	if (pmu->type == PERF_TYPE_SOFTWARE)
		return EVSEL_SOFTWARE;
	return EVSEL_PMU;
}

int parse_events__pmu_event(struct parser *p, const struct pmu *pmu, const char *terms,
			    int terms_len, int terms_pos, bool in_alias, const char *name,
			    size_t name_len)
{
	struct perf_event_attr attr;
	struct ember_evsel_terms *kept = NULL;
	char *term_name = NULL;
	struct term_ctx tc = {
		.pmu = pmu, .attr = &attr, .name = &term_name, .terms = &kept,
		.in_alias = in_alias, .alias_pos = terms_pos,
	};
	struct ember_evsel *evsel;
	int ret;

	parse_events__default_attr(&attr);
	attr.type = pmu->type;
	ret = parse_terms(p, &tc, terms, terms_len, terms_pos);
	if (ret) {
		free(term_name);
		evsel_terms__delete(kept);
		return ret;
	}
	if (term_name) {
		name = term_name;
		name_len = strlen(term_name);
	}
	evsel = parse_events__add_evsel(p, &attr, name, name_len, pmu_kind(pmu), pmu->name);
	free(term_name);
	if (!evsel) {
		evsel_terms__delete(kept);
		return parse_no_memory(p, terms_pos);
	}
	evsel->terms = kept;
	return 0;
}

int parse_events__event_terms(struct parser *p, int first, const char *terms, int len, int pos)
{
	for (int i = first; i < p->nr; i++) {
		struct ember_evsel *evsel = p->evsels[i];
		char *term_name = NULL;
		struct term_ctx tc = {
			.attr = &evsel->attr, .name = &term_name, .terms = &evsel->terms,
		};
		int ret = parse_terms(p, &tc, terms, len, pos);

		if (ret) {
			free(term_name);
			return ret;
		}
		if (term_name) {
			free(evsel->name);
			evsel->name = term_name;
		}
	}
	return 0;
}
