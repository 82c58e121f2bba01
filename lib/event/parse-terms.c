// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * PMU event terms: "event=0x3c,umask=1,edge,name=x" encoded through the
 * PMU's sysfs format files, its events/ aliases expanded, and perf's
 * generic terms (config*, period, freq, name).
 */
#include <ctype.h>
#include "event/parse-events-priv.h"

/* A decimal or 0x-hex number filling exactly len bytes. 0, -EINVAL or -ERANGE. */
int ember_parse__u64(const char *s, size_t len, uint64_t *val)
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

static char *valid_terms_hint(const struct ember_pmu *pmu)
{
	size_t len = 128;
	char *hint;

	for (int i = 0; i < pmu->nr_formats; i++)
		len += strlen(pmu->formats[i].name) + 1;
	hint = malloc(len);
	if (!hint)
		return NULL;
	strcpy(hint, "valid terms: ");
	for (int i = 0; i < pmu->nr_formats; i++) {
		strcat(hint, pmu->formats[i].name);
		strcat(hint, ",");
	}
	strcat(hint, "config,config1,config2,name,period,freq");
	return hint;
}

/* perf's generic terms ember does not implement: say so rather than "unknown". */
static const char *const unsupported_terms[] = {
	"call-graph", "stack-size", "time", "branch_type", "inherit", "no-inherit",
	"max-stack", "nr", "overwrite", "no-overwrite", "driver-config", "percore",
	"aux-output", "aux-sample-size", "metric-id",
};

struct term_ctx {
	const struct ember_pmu *pmu;
	struct perf_event_attr *attr;
	char **name;
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

static int apply_term(struct parser *p, struct term_ctx *tc, const char *key, int klen,
		      const char *val, int vlen, int kpos, int vpos)
{
	const struct ember_pmu_format *fmt;
	const struct ember_pmu_alias *alias;
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
	fmt = ember_pmu__format(tc->pmu, key, klen);
	word = fmt ? NULL : generic_term(tc->attr, key, klen);
	if (!fmt && !word) {
		alias = val || tc->in_alias ? NULL : ember_pmu__alias(tc->pmu, key, klen);
		if (alias) {
			struct term_ctx sub = *tc;

			sub.in_alias = true;
			sub.alias_pos = kpos;
			return parse_terms(p, &sub, alias->terms, strlen(alias->terms), kpos);
		}
		for (size_t i = 0; i < sizeof(unsupported_terms) / sizeof(*unsupported_terms); i++)
			if (same(key, klen, unsupported_terms[i]))
				return parse_fail(p, -EINVAL, kpos, NULL,
						  "term '%s' is not supported by ember",
						  unsupported_terms[i]);
		return ember_parse__fail_hint(p, -EINVAL, kpos, valid_terms_hint(tc->pmu),
					      "unknown term '%.*s' for pmu '%s'", klen, key,
					      tc->pmu->name);
	}
	/* A "?" in an alias is a parameter for the user to give; until then, 0. */
	if (val && tc->in_alias && vlen == 1 && *val == '?')
		return 0;
	if (val) {
		ret = ember_parse__u64(val, vlen, &v);
		if (ret == -ERANGE)
			return parse_fail(p, -EINVAL, vpos, NULL,
					  "value '%.*s' does not fit in 64 bits", vlen, val);
		if (ret)
			return parse_fail(p, -EINVAL, vpos, "a value is a decimal or 0x-hex number",
					  "invalid value '%.*s' for term '%.*s'", vlen, val, klen,
					  key);
	}
	if (fmt) {
		if (ember_pmu_format__encode(fmt, v, tc->attr))
			return parse_fail(p, -EINVAL, val ? vpos : kpos, NULL,
					  "value too big for format '%s', maximum is %#llx",
					  fmt->name,
					  (unsigned long long)ember_pmu_format__max(fmt));
		return 0;
	}
	*word = v;
	if (same(key, klen, "freq"))
		tc->attr->freq = 1;
	else if (same(key, klen, "period"))
		tc->attr->freq = 0;
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
					  "empty term in '%s' event", tc->pmu->name);
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

static enum ember_evsel_kind pmu_kind(const struct ember_pmu *pmu)
{
	if (ember_pmu__is_core(pmu) || pmu->type == PERF_TYPE_RAW ||
	    pmu->type == PERF_TYPE_HARDWARE)
		return EMBER_EVSEL_HARDWARE;
	if (pmu->type == PERF_TYPE_SOFTWARE)
		return EMBER_EVSEL_SOFTWARE;
	return EMBER_EVSEL_PMU;
}

int ember_parse__pmu_event(struct parser *p, const struct ember_pmu *pmu, const char *terms,
			   int terms_len, int terms_pos, bool in_alias, const char *name,
			   size_t name_len)
{
	struct perf_event_attr attr;
	char *term_name = NULL;
	struct term_ctx tc = {
		.pmu = pmu, .attr = &attr, .name = &term_name,
		.in_alias = in_alias, .alias_pos = terms_pos,
	};
	struct ember_evsel *evsel;
	int ret;

	ember_parse__default_attr(&attr);
	attr.type = pmu->type;
	ret = parse_terms(p, &tc, terms, terms_len, terms_pos);
	if (ret) {
		free(term_name);
		return ret;
	}
	if (term_name) {
		name = term_name;
		name_len = strlen(term_name);
	}
	evsel = ember_parse__add_evsel(p, &attr, name, name_len, pmu_kind(pmu), pmu->name);
	free(term_name);
	return evsel ? 0 : parse_no_memory(p, terms_pos);
}
