// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf's event syntax, parsed by hand (recursive descent):
 *
 *   spec   := item (',' item)*
 *   item   := '{' event (',' event)* '}' [':' mods]  |  event
 *   event  := pmu '/' [term (',' term)*] '/' [mods]
 *           | 'mem:' addr ['/' len] [':' access] [':' mods]
 *           | name [':' mods]           hardware, software, tool, hw-cache, rHEX, PMU alias
 *           | sys ':' tp [':' mods]     tracepoints; sys and tp may be globs
 *   term   := key ['=' value]
 *   mods   := [ukhpPGHSDIWeb]*
 *
 * An event's text runs, as in perf's lexer, up to ',', '{' or '}', except
 * that the slashes of a PMU event may enclose commas. That text, without
 * group braces or group modifiers, is the evsel's name ("cycles:u",
 * "msr/tsc/"), unless a name= term gives one; tracepoints are named
 * "sys:name". Events reach the evlist only when the whole spec parses.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include "event/event-names.h"
#include "event/evlist.h"
#include "event/parse-events.h"
#include "event/pmu.h"
#include "event/tracefs.h"

#define MOD_CHARS "ukhpPGHSDIWeb"

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
	struct ember_pmu **pmus;	/* loaded PMUs */
	int nr_pmus;
	char **pmu_names;		/* every PMU, once listed */
	int nr_pmu_names;		/* -1 until listed */
};

/* ---- errors ------------------------------------------------------------- */

/* Record the first error at byte pos; hint is taken over (may be NULL). Returns ret. */
__attribute__((format(printf, 5, 6)))
static int fail_hint(struct parser *p, int ret, int pos, char *hint, const char *fmt, ...)
{
	struct ember_parse_error *err = p->err;
	va_list ap;

	if (!err || err->msg) {
		free(hint);
		return ret;
	}
	err->pos = pos;
	err->str = strdup(p->spec);
	va_start(ap, fmt);
	if (vasprintf(&err->msg, fmt, ap) < 0)
		err->msg = NULL;
	va_end(ap);
	err->hint = hint;
	return ret;
}

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

#define fail(p, ret, pos, hint, ...) fail_hint(p, ret, pos, xstrdup(hint), __VA_ARGS__)

void ember_parse_error__exit(struct ember_parse_error *err)
{
	if (!err)
		return;
	free(err->str);
	free(err->msg);
	free(err->hint);
	memset(err, 0, sizeof(*err));
}

int ember_parse_error__snprintf(const struct ember_parse_error *err, int width, char *buf,
				size_t size)
{
	static const char prefix[] = "event syntax error: ";
	const int len_prefix = sizeof(prefix) - 1, max_idx = 13;
	const char *str = err->str ? err->str : "";
	int len = strlen(str), pos = err->pos, cut = 0, max_len, n;
	char window[512];

	/* perf's layout: cut the spec on the left so the caret stays near column 33. */
	if (width <= 0)
		width = 80;
	max_len = width - 2 - len_prefix;
	if (max_len < 16)
		max_len = 16;
	if (max_len > (int)sizeof(window) - 1)
		max_len = sizeof(window) - 1;
	if (pos < 0)
		pos = 0;
	if (pos > len)
		pos = len;
	if (pos > max_idx)
		cut = pos - max_idx;
	snprintf(window, max_len + 1, "%s", str + cut);
	if (cut)
		window[0] = window[1] = '.';
	if (len - cut > max_len)
		window[max_len - 1] = window[max_len - 2] = '.';
	n = snprintf(buf, size, "%s'%s'\n%*s\\___ %s\n", prefix, window,
		     len_prefix + pos - cut + 1, "", err->msg ? err->msg : "parser error");
	if (err->hint && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - n, "\n%s\n", err->hint);
	return n;
}

/* ---- suggestions: the closest known name, for "did you mean" ------------ */

struct suggest {
	const char *want;
	size_t want_len;
	int limit;		/* farthest edit distance worth suggesting */
	int best;
	char *pick;		/* malloc'd */
	const char *suffix;	/* appended to symbolic picks (the typed ":mods") */
};

/* Optimal-string-alignment distance, or limit + 1 when farther than limit. */
static int edit_distance(const char *a, size_t la, const char *b, size_t lb, int limit)
{
	int d[3][130], *prev2 = d[0], *prev = d[1], *cur = d[2];

	if (la > 128 || lb > 128 || (la > lb ? la - lb : lb - la) > (size_t)limit)
		return limit + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		int row_min, *t;

		cur[0] = row_min = i;
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = prev[j] + 1;

			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + cost < v)
				v = prev[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
			if (v < row_min)
				row_min = v;
		}
		if (row_min > limit)
			return limit + 1;
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

static void suggest_init(struct suggest *sg, const char *want, size_t len)
{
	memset(sg, 0, sizeof(*sg));
	sg->want = want;
	sg->want_len = len;
	sg->limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
	sg->best = sg->limit + 1;
}

/* Consider candidate cand (compared) standing for full (suggested; NULL: cand). */
static void suggest_consider(struct suggest *sg, const char *cand, const char *full,
			     const char *suffix)
{
	int d = edit_distance(sg->want, sg->want_len, cand, strlen(cand), sg->limit);
	char *pick;

	/* Distance 0 is the typed text itself, unless it stands for a longer name. */
	if ((d == 0 && !full) || d >= sg->best)
		return;
	if (asprintf(&pick, "%s%s", full ? full : cand, suffix ? suffix : "") < 0)
		return;
	free(sg->pick);
	sg->pick = pick;
	sg->best = d;
}

static int suggest_symbol_cb(const char *name, void *arg)
{
	struct suggest *sg = arg;

	suggest_consider(sg, name, NULL, sg->suffix);
	return 0;
}

static int suggest_tp_cb(const char *sys, const char *name, uint64_t id, void *arg)
{
	struct suggest *sg = arg;
	char full[512];

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	suggest_consider(sg, full, NULL, NULL);
	/* A bare name may be the tracepoint without its system. */
	if (!memchr(sg->want, ':', sg->want_len))
		suggest_consider(sg, name, full, NULL);
	return 0;
}

/* "did you mean 'x'?" for sg's pick, or NULL. */
static char *suggest_hint(struct suggest *sg)
{
	char *hint = NULL;

	if (sg->pick && asprintf(&hint, "did you mean '%s'?", sg->pick) < 0)
		hint = NULL;
	free(sg->pick);
	sg->pick = NULL;
	return hint;
}

/* ---- resources, looked up once per parse -------------------------------- */

static const char *get_tracefs(struct parser *p)
{
	if (p->opts && p->opts->tracefs)
		return p->opts->tracefs;
	if (!p->tracefs_state) {
		int ret = ember_tracefs__find(p->tracefs, sizeof(p->tracefs));

		p->tracefs_state = ret ? ret : 1;
	}
	return p->tracefs_state > 0 ? p->tracefs : NULL;
}

static const char *pmu_dir(struct parser *p)
{
	return p->opts && p->opts->pmu_dir ? p->opts->pmu_dir : NULL;
}

/* The PMU called name (len bytes), loaded once. NULL with errno when absent. */
static const struct ember_pmu *get_pmu(struct parser *p, const char *name, size_t len)
{
	struct ember_pmu *pmu, **grown;
	char *namez;

	for (int i = 0; i < p->nr_pmus; i++)
		if (strlen(p->pmus[i]->name) == len && !memcmp(p->pmus[i]->name, name, len))
			return p->pmus[i];
	namez = strndup(name, len);
	if (!namez)
		return NULL;
	pmu = ember_pmu__load(pmu_dir(p), namez);
	free(namez);
	if (!pmu)
		return NULL;
	grown = realloc(p->pmus, (p->nr_pmus + 1) * sizeof(*grown));
	if (!grown) {
		ember_pmu__delete(pmu);
		errno = ENOMEM;
		return NULL;
	}
	p->pmus = grown;
	p->pmus[p->nr_pmus++] = pmu;
	return pmu;
}

/* List every PMU name (sorted); returns how many, 0 when the directory is unreadable. */
static int list_pmus(struct parser *p)
{
	if (p->nr_pmu_names < 0) {
		int nr = ember_pmu__names(pmu_dir(p), &p->pmu_names);

		p->nr_pmu_names = nr < 0 ? 0 : nr;
	}
	return p->nr_pmu_names;
}

static char *pmu_list_hint(struct parser *p)
{
	size_t len = 0;
	char *hint;

	list_pmus(p);
	for (int i = 0; i < p->nr_pmu_names; i++)
		len += strlen(p->pmu_names[i]) + 2;
	hint = malloc(len + 32);
	if (!hint)
		return NULL;
	strcpy(hint, "PMUs on this machine: ");
	for (int i = 0; i < p->nr_pmu_names; i++) {
		if (i)
			strcat(hint, ", ");
		strcat(hint, p->pmu_names[i]);
	}
	return hint;
}

/* ---- building evsels ---------------------------------------------------- */

/* perf's event_attr_init(): the ABI size, and guests excluded unless asked for. */
static void default_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->exclude_guest = 1;
}

static struct ember_evsel *add_evsel(struct parser *p, const struct perf_event_attr *attr,
				     const char *name, size_t name_len,
				     enum ember_evsel_kind kind, const char *pmu_name)
{
	struct ember_evsel *evsel;
	char *namez;

	if (p->nr == p->alloc) {
		int alloc = p->alloc ? 2 * p->alloc : 16;
		struct ember_evsel **grown = realloc(p->evsels, alloc * sizeof(*grown));

		if (!grown)
			return NULL;
		p->evsels = grown;
		p->alloc = alloc;
	}
	namez = strndup(name, name_len);
	if (!namez)
		return NULL;
	evsel = ember_evsel__new(attr, namez);
	free(namez);
	if (!evsel)
		return NULL;
	evsel->kind = kind;
	evsel->exclude_guest_default = true;
	if (pmu_name && !(evsel->pmu_name = strdup(pmu_name))) {
		ember_evsel__delete(evsel);
		return NULL;
	}
	p->evsels[p->nr++] = evsel;
	return evsel;
}

static int no_memory(struct parser *p, int pos)
{
	return fail(p, -ENOMEM, pos, NULL, "out of memory");
}

/* ---- modifiers ---------------------------------------------------------- */

/* perf's check_modifier(): known letters, each once except 'p' (at most 3). */
static int check_mods(struct parser *p, int start, int end)
{
	const char *s = p->spec;
	int np = 0;

	for (int i = start; i < end; i++) {
		if (!strchr(MOD_CHARS, s[i]))
			return fail(p, -EINVAL, i,
				    "modifiers: u k h (user, kernel, hypervisor), p pp ppp P (precise), "
				    "G H (guest, host), S (read sample), D (pinned), I (non idle), "
				    "W (weak group), e (exclusive), b (bpf counter)",
				    "unknown modifier '%c'", s[i]);
		if (s[i] == 'p') {
			if (++np > 3)
				return fail(p, -EINVAL, i, NULL,
					    "bad modifier: at most 3 'p' (precise levels 0-3)");
		} else if (memchr(s + start, s[i], i - start)) {
			return fail(p, -EINVAL, i, NULL, "bad modifier: '%c' given twice", s[i]);
		}
	}
	return 0;
}

/*
 * Apply modifier letters as perf's get_event_modifier() does. Event
 * modifiers (add false) start from nothing excluded; group modifiers
 * (add true) build on each member's own. Returns -EINVAL when the
 * precise levels add up past 3.
 */
static int apply_mods(struct ember_evsel *evsel, const char *m, size_t len, bool add,
		      bool leader)
{
	struct perf_event_attr *a = &evsel->attr;
	int eu = add && a->exclude_user, ek = add && a->exclude_kernel;
	int eh = add && a->exclude_hv, eH = add && a->exclude_host;
	int eG = add && a->exclude_guest, eI = add && a->exclude_idle;
	int precise = add ? a->precise_ip : 0;
	int pinned = add && a->pinned, exclusive = add && a->exclusive;
	int exclude = eu | ek | eh;
	int exclude_GH = add && !evsel->exclude_guest_default;
	bool precise_max = false;

	for (size_t i = 0; i < len; i++) {
		switch (m[i]) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (!exclude_GH)
				eG = 1;
			eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eh = 0;
			break;
		case 'G':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eG = 0;
			break;
		case 'H':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eH = 0;
			break;
		case 'I':
			eI = 1;
			break;
		case 'p':
			precise++;
			/* precise sampling needs exclude_guest */
			if (!exclude_GH)
				eG = 1;
			break;
		case 'P':
			precise_max = true;
			break;
		case 'D':
			pinned = 1;
			break;
		case 'e':
			exclusive = 1;
			break;
		default:	/* S, W, b: read from evsel->modifiers by the commands */
			break;
		}
	}
	if (precise > 3)
		return -EINVAL;
	a->exclude_user = eu;
	a->exclude_kernel = ek;
	a->exclude_hv = eh;
	a->exclude_host = eH;
	a->exclude_guest = eG;
	a->exclude_idle = eI;
	a->precise_ip = precise;
	evsel->exclude_guest_default = !exclude_GH;
	evsel->precise_max = precise_max;
	if (leader) {
		a->pinned = pinned;
		a->exclusive = exclusive;
	}
	return 0;
}

/*
 * Keep the modifier text on the evsel. A group modifier is appended; as in
 * perf it replaces the member's own S, P, W and b, so those are dropped.
 */
static int store_mods(struct ember_evsel *evsel, const char *m, size_t len, bool group)
{
	const char *old = evsel->modifiers ? evsel->modifiers : "";
	size_t n = 0, olen = strlen(old);
	char *text = malloc(olen + len + 1);

	if (!text)
		return -ENOMEM;
	for (size_t i = 0; i < olen; i++)
		if (!group || !strchr("SPWb", old[i]))
			text[n++] = old[i];
	memcpy(text + n, m, len);
	text[n + len] = '\0';
	free(evsel->modifiers);
	evsel->modifiers = text;
	return 0;
}

/* Check and apply the event modifiers spec[start, end) to evsels first.. */
static int event_mods(struct parser *p, int first, int start, int end)
{
	int ret;

	if (start >= end)
		return 0;
	ret = check_mods(p, start, end);
	if (ret)
		return ret;
	for (int i = first; i < p->nr; i++) {
		apply_mods(p->evsels[i], p->spec + start, end - start, false, true);
		if (store_mods(p->evsels[i], p->spec + start, end - start, false))
			return no_memory(p, start);
	}
	return 0;
}

/* ---- numbers and terms -------------------------------------------------- */

/* A decimal or 0x-hex number filling exactly len bytes. 0, -EINVAL or -ERANGE. */
static int parse_u64(const char *s, size_t len, uint64_t *val)
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
		return fail(p, -EINVAL, kpos, NULL, "missing term name");
	if (val && !vlen)
		return fail(p, -EINVAL, vpos, NULL, "missing value for term '%.*s'", klen, key);
	if (same(key, klen, "name")) {
		if (!val)
			return fail(p, -EINVAL, kpos, NULL, "term 'name' needs a value: name=NAME");
		if (tc->in_alias)
			return 0;
		free(*tc->name);
		*tc->name = strndup(val, vlen);
		return *tc->name ? 0 : no_memory(p, vpos);
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
				return fail(p, -EINVAL, kpos, NULL,
					    "term '%s' is not supported by ember",
					    unsupported_terms[i]);
		return fail_hint(p, -EINVAL, kpos, valid_terms_hint(tc->pmu),
				 "unknown term '%.*s' for pmu '%s'", klen, key, tc->pmu->name);
	}
	/* A "?" in an alias is a parameter for the user to give; until then, 0. */
	if (val && tc->in_alias && vlen == 1 && *val == '?')
		return 0;
	if (val) {
		ret = parse_u64(val, vlen, &v);
		if (ret == -ERANGE)
			return fail(p, -EINVAL, vpos, NULL, "value '%.*s' does not fit in 64 bits",
				    vlen, val);
		if (ret)
			return fail(p, -EINVAL, vpos, "a value is a decimal or 0x-hex number",
				    "invalid value '%.*s' for term '%.*s'", vlen, val, klen, key);
	}
	if (fmt) {
		if (ember_pmu_format__encode(fmt, v, tc->attr))
			return fail(p, -EINVAL, val ? vpos : kpos, NULL,
				    "value too big for format '%s', maximum is %#llx", fmt->name,
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
			return fail(p, -EINVAL, tc->in_alias ? tc->alias_pos : base + a, NULL,
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

/* Add an event on pmu from terms text; name (len bytes) unless a name= term says. */
static int add_pmu_event(struct parser *p, const struct ember_pmu *pmu, const char *terms,
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

	default_attr(&attr);
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
	evsel = add_evsel(p, &attr, name, name_len, pmu_kind(pmu), pmu->name);
	free(term_name);
	return evsel ? 0 : no_memory(p, terms_pos);
}

/* ---- the event forms ---------------------------------------------------- */

/* pmu/terms/mods: spec[s, slash1) the PMU, (slash1, slash2) terms, (slash2, e) mods. */
static int parse_pmu_event(struct parser *p, int s, int slash1, int slash2, int e)
{
	const char *spec = p->spec;
	const struct ember_pmu *pmu = get_pmu(p, spec + s, slash1 - s);
	int first = p->nr, ret;

	if (!pmu) {
		if (errno == ENOMEM)
			return no_memory(p, s);
		return fail_hint(p, -EINVAL, s, pmu_list_hint(p),
				 "cannot find PMU '%.*s'; missing kernel support?", slash1 - s,
				 spec + s);
	}
	if (slash2 + 1 < e && spec[slash2 + 1] == ':')
		return fail_hint(p, -EINVAL, slash2 + 1, NULL,
				 "unexpected ':': modifiers follow the closing '/' directly, as in "
				 "'%.*s/u'", slash2 - s, spec + s);
	ret = add_pmu_event(p, pmu, spec + slash1 + 1, slash2 - slash1 - 1, slash1 + 1, false,
			    spec + s, e - s);
	if (ret)
		return ret;
	return event_mods(p, first, slash2 + 1, e);
}

/* mem:addr[/len][:access][:mods] */
static int parse_breakpoint(struct parser *p, int s, int e)
{
	const char *spec = p->spec;
	struct perf_event_attr attr;
	int i = s + 4, j, name_end, first = p->nr, mods = e;
	uint64_t addr, len = 0;
	unsigned int access = 0;

	for (j = i; j < e && spec[j] != '/' && spec[j] != ':'; j++)
		;
	if (parse_u64(spec + i, j - i, &addr))
		return fail(p, -EINVAL, i, "as in mem:0x1000 or mem:0x1000/8:w",
			    "invalid breakpoint address '%.*s'", j - i, spec + i);
	name_end = j;
	if (j < e && spec[j] == '/') {
		i = j + 1;
		for (j = i; j < e && spec[j] != ':'; j++)
			;
		if (parse_u64(spec + i, j - i, &len) ||
		    (len != 1 && len != 2 && len != 4 && len != 8))
			return fail(p, -EINVAL, i, NULL,
				    "invalid breakpoint length '%.*s': 1, 2, 4 or 8", j - i,
				    spec + i);
	}
	if (j < e) {		/* spec[j] == ':' */
		int k = j + 1, run;

		for (run = k; run < e && spec[run] != ':'; run++)
			;
		if (run > k && strspn(spec + k, "rwx") >= (size_t)(run - k)) {
			for (int c = k; c < run; c++) {
				unsigned int bit = spec[c] == 'r' ? HW_BREAKPOINT_R :
						   spec[c] == 'w' ? HW_BREAKPOINT_W :
								    HW_BREAKPOINT_X;

				if (access & bit)
					return fail(p, -EINVAL, c, "access is some of r, w, x",
						    "bad breakpoint access '%.*s'", run - k,
						    spec + k);
				access |= bit;
			}
			mods = run < e ? run + 1 : e;
		} else {
			mods = k;
		}
	}
	default_attr(&attr);
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.bp_addr = addr;
	attr.bp_type = access ? access : HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if (!len)
		len = attr.bp_type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	attr.bp_len = len;
	attr.sample_period = 1;
	/* perf's lexer ends the name at '/': "mem:0x1000/8" is named "mem:0x1000". */
	if (!add_evsel(p, &attr, spec + s, (memchr(spec + s, '/', e - s) ? name_end : e) - s,
		       EMBER_EVSEL_PMU, "breakpoint"))
		return no_memory(p, s);
	return event_mods(p, first, mods, e);
}

/* hardware, software, tool, cache or raw by name spec[s, end). 1 added, 0 not one, <0 error. */
static int add_symbolic(struct parser *p, int s, int end, int e)
{
	const char *name = p->spec + s;
	size_t len = end - s;
	const struct ember_event_symbol *sym = ember_event_symbol__find(name, len);
	struct perf_event_attr attr;
	enum ember_evsel_kind kind = EMBER_EVSEL_HARDWARE;
	const char *pmu_name = NULL;
	uint64_t config;
	int ret;

	default_attr(&attr);
	if (sym) {
		attr.type = sym->type;
		attr.config = sym->config;
		if (sym->type == PERF_TYPE_SOFTWARE) {
			kind = EMBER_EVSEL_SOFTWARE;
			pmu_name = "software";
		}
	} else if (ember_tool_event__find(name, len) != EMBER_TOOL_NONE) {
		/* Tool events count in the tool; the kernel sees a dummy. */
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_DUMMY;
		kind = EMBER_EVSEL_SOFTWARE;
		pmu_name = EMBER_TOOL_PMU;
	} else if ((ret = ember_hw_cache__parse(name, len, &config)) != -ENOENT) {
		if (ret)
			return fail(p, -EINVAL, s, "see 'ember list cache'",
				    "invalid cache event '%.*s': that cache has no such operation",
				    (int)len, name);
		attr.type = PERF_TYPE_HW_CACHE;
		attr.config = config;
	} else if (len > 1 && name[0] == 'r' && strspn(name + 1, "0123456789abcdefABCDEF") >= len - 1) {
		char hex[24];

		if (len - 1 > 16)
			return fail(p, -EINVAL, s, NULL, "raw event '%.*s' does not fit in 64 bits",
				    (int)len, name);
		snprintf(hex, sizeof(hex), "%.*s", (int)len - 1, name + 1);
		attr.type = PERF_TYPE_RAW;
		attr.config = strtoull(hex, NULL, 16);
	} else {
		return 0;
	}
	if (!add_evsel(p, &attr, p->spec + s, e - s, kind, pmu_name))
		return no_memory(p, s);
	return 1;
}

/* A bare PMU alias ("tsc" for msr/tsc/), on every PMU that has it. Returns how many. */
static int add_pmu_alias(struct parser *p, int s, int end, int e)
{
	int added = 0, nr = list_pmus(p);

	for (int i = 0; i < nr; i++) {
		const struct ember_pmu *pmu = get_pmu(p, p->pmu_names[i], strlen(p->pmu_names[i]));
		const struct ember_pmu_alias *alias;
		int ret;

		if (!pmu)
			continue;
		alias = ember_pmu__alias(pmu, p->spec + s, end - s);
		if (!alias)
			continue;
		ret = add_pmu_event(p, pmu, alias->terms, strlen(alias->terms), s, true,
				    p->spec + s, e - s);
		if (ret)
			return ret;
		added++;
	}
	return added;
}

static int tracefs_error(struct parser *p, int pos)
{
	int ret = p->tracefs_state < 0 ? p->tracefs_state : -ENOENT;

	if (ret == -EACCES)
		return fail(p, ret, pos,
			    "tracepoints need root, or: mount -o remount,mode=755 "
			    "/sys/kernel/tracing",
			    "no permission to read %s/events", p->tracefs);
	if (ret == -EPERM)
		return fail(p, ret, pos,
			    "tracepoints need root, or tracefs mounted on /sys/kernel/tracing",
			    "tracefs is not mounted, and mounting it needs root");
	return fail(p, ret, pos, "is CONFIG_TRACING off in this kernel?",
		    "cannot find tracefs: %s", strerror(-ret));
}

struct tp_add {
	struct parser *p;
	int pos;
	int err;
};

static int add_tracepoint(struct parser *p, const char *sys, const char *name, uint64_t id,
			  int pos)
{
	struct perf_event_attr attr;
	struct ember_evsel *evsel;
	char full[512];
	int n = snprintf(full, sizeof(full), "%s:%s", sys, name);

	default_attr(&attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD;
	evsel = add_evsel(p, &attr, full, n, EMBER_EVSEL_TRACEPOINT, "tracepoint");
	if (!evsel || !(evsel->tp_sys = strdup(sys)) || !(evsel->tp_name = strdup(name)))
		return no_memory(p, pos);
	return 0;
}

static int tp_add_cb(const char *sys, const char *name, uint64_t id, void *arg)
{
	struct tp_add *ta = arg;

	ta->err = add_tracepoint(ta->p, sys, name, id, ta->pos);
	return ta->err ? 1 : 0;
}

static int count_cb(const char *sys, const char *name, uint64_t id, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

/* "sys:name" does not exist: say which part, and suggest the closest. */
static int unknown_tracepoint(struct parser *p, int s, int colon, int end, const char *root)
{
	const char *spec = p->spec;
	char *sys = strndup(spec + s, colon - s);
	int nsys = 0;
	struct suggest sg;

	if (!sys)
		return no_memory(p, s);
	ember_tracefs__for_each_system(root, sys, count_cb, &nsys);
	free(sys);
	suggest_init(&sg, spec + s, end - s);
	ember_tracefs__for_each_event(root, NULL, NULL, 0, suggest_tp_cb, &sg);
	if (!nsys) {
		/* Maybe a symbolic event with a typo before its modifiers: "cpu-clok:u". */
		struct suggest sym;
		char *suffix = strndup(spec + colon, end - colon);

		suggest_init(&sym, spec + s, colon - s);
		sym.suffix = suffix;
		ember_event_names__for_each(suggest_symbol_cb, &sym);
		free(suffix);
		if (sym.pick && sym.best <= sg.best) {
			free(sg.pick);
			sg = sym;
		} else {
			free(sym.pick);
		}
		return fail_hint(p, -EINVAL, s, suggest_hint(&sg),
				 "unknown event or tracepoint '%.*s'", end - s, spec + s);
	}
	return fail_hint(p, -EINVAL, colon + 1, suggest_hint(&sg), "unknown tracepoint '%.*s'",
			 end - s, spec + s);
}

static bool tp_name_ok(const char *s, int len)
{
	if (len <= 0)
		return false;
	for (int i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_-.*?[]!\\", s[i]))
			return false;
	return true;
}

/* sys:name[:mods], globs allowed in both parts. */
static int parse_tracepoint(struct parser *p, int s, int colon, int e)
{
	const char *spec = p->spec, *root;
	int end, first = p->nr, ret;
	char *sys, *name;

	for (end = colon + 1; end < e && spec[end] != ':'; end++)
		;
	if (colon == s)
		return fail(p, -EINVAL, s, "a tracepoint is sys:name, as in sched:sched_switch",
			    "expected a tracepoint system before ':'");
	if (!tp_name_ok(spec + s, colon - s))
		return fail(p, -EINVAL, s, NULL, "invalid tracepoint system '%.*s'", colon - s,
			    spec + s);
	if (!tp_name_ok(spec + colon + 1, end - colon - 1))
		return fail(p, -EINVAL, colon + 1, "a tracepoint is sys:name, as in sched:sched_switch",
			    "invalid tracepoint name '%.*s'", end - colon - 1, spec + colon + 1);
	root = get_tracefs(p);
	if (!root)
		return tracefs_error(p, s);
	sys = strndup(spec + s, colon - s);
	name = strndup(spec + colon + 1, end - colon - 1);
	if (!sys || !name) {
		ret = no_memory(p, s);
		goto out;
	}
	if (!ember_is_glob(sys, strlen(sys)) && !ember_is_glob(name, strlen(name))) {
		uint64_t id;

		ret = ember_tracefs__event_id(root, sys, name, &id);
		if (ret == -ENOENT || ret == -ENOTDIR)
			ret = unknown_tracepoint(p, s, colon, end, root);
		else if (ret)
			ret = fail(p, ret, s, NULL, "cannot read the id of tracepoint '%s:%s': %s",
				   sys, name, strerror(-ret));
		else
			ret = add_tracepoint(p, sys, name, id, s);
	} else {
		struct tp_add ta = { .p = p, .pos = s };

		ret = ember_tracefs__for_each_event(root, sys, name, EMBER_TRACEFS_READ_ID,
						    tp_add_cb, &ta);
		if (ta.err)
			ret = ta.err;
		else if (ret < 0)
			ret = fail(p, ret, s, NULL, "cannot read %s/events: %s", root,
				   strerror(-ret));
		else if (p->nr == first)
			ret = fail(p, -EINVAL, s, NULL, "no tracepoint matches '%.*s'", end - s,
				   spec + s);
	}
	if (!ret && end < e)
		ret = event_mods(p, first, end + 1, e);
out:
	free(sys);
	free(name);
	return ret;
}

static int suggest_pmu_alias(struct parser *p, struct suggest *sg)
{
	int nr = list_pmus(p);

	for (int i = 0; i < nr; i++) {
		const struct ember_pmu *pmu = get_pmu(p, p->pmu_names[i], strlen(p->pmu_names[i]));

		for (int j = 0; pmu && j < pmu->nr_aliases; j++)
			suggest_consider(sg, pmu->aliases[j].name, NULL, NULL);
	}
	return 0;
}

static int unknown_event(struct parser *p, int s, int e)
{
	struct suggest sg;
	const char *root;

	suggest_init(&sg, p->spec + s, e - s);
	ember_event_names__for_each(suggest_symbol_cb, &sg);
	suggest_pmu_alias(p, &sg);
	root = get_tracefs(p);
	if (root)
		ember_tracefs__for_each_event(root, NULL, NULL, 0, suggest_tp_cb, &sg);
	return fail_hint(p, -EINVAL, s, suggest_hint(&sg), "unknown event '%.*s'", e - s,
			 p->spec + s);
}

/* name[:mods] or sys:name[:mods] in spec[s, e). */
static int parse_named(struct parser *p, int s, int e)
{
	const char *spec = p->spec;
	const char *colon = memchr(spec + s, ':', e - s);
	int c1 = colon ? colon - spec : e, first = p->nr, ret;

	ret = add_symbolic(p, s, c1, e);
	if (!ret)
		ret = add_pmu_alias(p, s, c1, e);
	if (ret < 0)
		return ret;
	if (ret > 0)
		return event_mods(p, first, c1 + 1, e);
	if (colon)
		return parse_tracepoint(p, s, c1, e);
	return unknown_event(p, s, e);
}

/*
 * One event at *posp; leaves *posp after its text. The text's extent is
 * perf's lexer's: [^,{}/]+ or, for PMU events, [^,{}/]+/[^/]*\/[^,{}/]*.
 */
static int parse_event(struct parser *p, int *posp)
{
	const char *spec = p->spec;
	int s = *posp, j, end, e, slash2 = -1;
	bool mem;

	while (isspace((unsigned char)spec[s]))
		s++;
	for (j = s; spec[j] && !strchr(",{}/", spec[j]); j++)
		;
	end = j;
	mem = !strncmp(spec + s, "mem:", 4);
	if (spec[j] == '/' && mem) {
		while (spec[end] && !strchr(",{}", spec[end]))
			end++;
	} else if (spec[j] == '/') {
		const char *close = strchr(spec + j + 1, '/');

		if (!close)
			return fail(p, -EINVAL, j, "a PMU event is pmu/term=value,.../[modifiers]",
				    "missing closing '/' of '%.*s' event", j - s, spec + s);
		slash2 = close - spec;
		for (end = slash2 + 1; spec[end] && !strchr(",{}/", spec[end]); end++)
			;
		if (spec[end] == '/')
			return fail(p, -EINVAL, end, NULL, "unexpected '/'");
	}
	if (spec[end] == '{')
		return fail(p, -EINVAL, end, "a group is {event,event,...}[:modifiers]",
			    "unexpected '{': groups cannot be nested or named");
	*posp = end;
	for (e = end; e > s && isspace((unsigned char)spec[e - 1]); e--)
		;
	if (e == s)
		return fail(p, -EINVAL, s, NULL, "expected an event");
	if (slash2 >= 0)
		return parse_pmu_event(p, s, j, slash2, e);
	if (mem)
		return parse_breakpoint(p, s, e);
	return parse_named(p, s, e);
}

static int skip_space(const char *spec, int pos)
{
	while (isspace((unsigned char)spec[pos]))
		pos++;
	return pos;
}

/* '{' event (',' event)* '}' [':' mods] at *posp. */
static int parse_group(struct parser *p, int *posp)
{
	const char *spec = p->spec;
	int open = *posp, pos = open + 1, start = p->nr, ret, mstart, mend;
	struct group_span *grown;

	for (;;) {
		pos = skip_space(spec, pos);
		if (spec[pos] == '}' && p->nr == start)
			return fail(p, -EINVAL, pos, NULL, "empty group");
		if (spec[pos] == '{')
			return fail(p, -EINVAL, pos, NULL, "groups cannot be nested");
		if (!spec[pos] || spec[pos] == ',' || spec[pos] == '}')
			return fail(p, -EINVAL, pos, NULL, "expected an event");
		ret = parse_event(p, &pos);
		if (ret)
			return ret;
		pos = skip_space(spec, pos);
		if (spec[pos] == ',') {
			pos++;
			continue;
		}
		if (spec[pos] == '}')
			break;
		if (!spec[pos])
			return fail(p, -EINVAL, open, "a group is {event,event,...}[:modifiers]",
				    "unterminated group: missing '}'");
		return fail(p, -EINVAL, pos, NULL, "unexpected '%c'", spec[pos]);
	}
	pos++;
	if (spec[pos] == ':') {
		mstart = ++pos;
		while (spec[pos] && !strchr(",{}", spec[pos]) && !isspace((unsigned char)spec[pos]))
			pos++;
		mend = pos;
		ret = check_mods(p, mstart, mend);
		if (ret)
			return ret;
		for (int i = start; i < p->nr; i++) {
			if (apply_mods(p->evsels[i], spec + mstart, mend - mstart, true, i == start))
				return fail(p, -EINVAL, mstart, NULL,
					    "bad modifier: precise levels add up past 3");
			if (store_mods(p->evsels[i], spec + mstart, mend - mstart, true))
				return no_memory(p, mstart);
		}
	}
	grown = realloc(p->groups, (p->nr_groups + 1) * sizeof(*grown));
	if (!grown)
		return no_memory(p, open);
	p->groups = grown;
	p->groups[p->nr_groups++] = (struct group_span){ start, p->nr };
	*posp = pos;
	return 0;
}

static int parse_spec(struct parser *p)
{
	const char *spec = p->spec;
	int pos = skip_space(spec, 0), ret;

	if (!spec[pos])
		return fail(p, -EINVAL, pos, "as in -e cycles:u,sched:sched_switch",
			    "empty event specification");
	for (;;) {
		pos = skip_space(spec, pos);
		if (spec[pos] == '{')
			ret = parse_group(p, &pos);
		else if (spec[pos] == '}')
			ret = fail(p, -EINVAL, pos, NULL, "unexpected '}' outside a group");
		else if (!spec[pos] || spec[pos] == ',')
			ret = fail(p, -EINVAL, pos, NULL, "expected an event");
		else
			ret = parse_event(p, &pos);
		if (ret)
			return ret;
		pos = skip_space(spec, pos);
		if (!spec[pos])
			return 0;
		if (spec[pos] != ',')
			return fail(p, -EINVAL, pos, NULL, "unexpected '%c'", spec[pos]);
		pos++;
	}
}

/* Hand the parsed evsels to the evlist, forming the groups as they complete. */
static void commit(struct parser *p, struct ember_evlist *evlist)
{
	int g = 0;

	for (int i = 0; i < p->nr; i++) {
		ember_evlist__add(evlist, p->evsels[i]);
		if (g < p->nr_groups && p->groups[g].end == i + 1) {
			ember_evlist__make_group(evlist, p->evsels[p->groups[g].start]);
			g++;
		}
	}
	p->nr = 0;
}

static void parser_exit(struct parser *p)
{
	for (int i = 0; i < p->nr; i++)
		ember_evsel__delete(p->evsels[i]);
	free(p->evsels);
	free(p->groups);
	for (int i = 0; i < p->nr_pmus; i++)
		ember_pmu__delete(p->pmus[i]);
	free(p->pmus);
	ember_pmu__free_names(p->pmu_names, p->nr_pmu_names);
}

int ember_evlist__parse_events_opts(struct ember_evlist *evlist, const char *spec,
				    struct ember_parse_error *err,
				    const struct ember_parse_opts *opts)
{
	struct parser p = {
		.spec = spec ? spec : "",
		.opts = opts,
		.err = err,
		.nr_pmu_names = -1,
	};
	int ret;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!evlist)
		return -EINVAL;
	ret = parse_spec(&p);
	if (!ret)
		commit(&p, evlist);
	parser_exit(&p);
	return ret;
}

int ember_evlist__parse_events(struct ember_evlist *evlist, const char *spec,
			       struct ember_parse_error *err)
{
	return ember_evlist__parse_events_opts(evlist, spec, err, NULL);
}
