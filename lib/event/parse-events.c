// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf's event syntax, parsed by hand (recursive descent):
 *
 *   spec   := item (',' item)*
 *   item   := '{' event (',' event)* '}' [':' mods]  |  event
 *   event  := pmu '/' [term (',' term)*] '/' [mods]
 *           | (name | sys ':' tp) '/' [term (',' term)*] '/' [mods]
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
#include <stdio.h>
#include <linux/hw_breakpoint.h>
#include "event/event-names.h"
#include "event/evlist.h"
#include "event/parse-events-priv.h"
#include "event/tracefs.h"

#define HINT_TP		"a tracepoint is sys:name, as in sched:sched_switch"
#define HINT_PMU	"a PMU event is pmu/term=value,.../[modifiers]"
#define HINT_GROUP	"a group is {event,event,...}[:modifiers]"
#define HEX_DIGITS	"0123456789abcdefABCDEF"

/* ---- resources, looked up once per parse -------------------------------- */

const char *parse_events__tracefs(struct parser *p)
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
const struct pmu *parse_events__get_pmu(struct parser *p, const char *name, size_t len)
{
	struct pmu *pmu, **grown;
	char *namez;

	for (int i = 0; i < p->nr_pmus; i++)
		if (strlen(p->pmus[i]->name) == len && !memcmp(p->pmus[i]->name, name, len))
			return p->pmus[i];
	namez = strndup(name, len);
	if (!namez)
		return NULL;
	pmu = pmu__load(pmu_dir(p), namez);
	free(namez);
	if (!pmu)
		return NULL;
	grown = realloc(p->pmus, (p->nr_pmus + 1) * sizeof(*grown));
	if (!grown) {
		pmu__delete(pmu);
		errno = ENOMEM;
		return NULL;
	}
	p->pmus = grown;
	p->pmus[p->nr_pmus++] = pmu;
	return pmu;
}

/* List every PMU name (sorted); returns how many, 0 when the directory is unreadable. */
int parse_events__list_pmus(struct parser *p)
{
	if (p->nr_pmu_names < 0) {
		int nr = pmu__names(pmu_dir(p), &p->pmu_names);

		p->nr_pmu_names = nr < 0 ? 0 : nr;
	}
	return p->nr_pmu_names;
}

static char *pmu_list_hint(struct parser *p)
{
	size_t len = 0;
	char *hint;

	parse_events__list_pmus(p);
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
void parse_events__default_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->exclude_guest = 1;
}

struct ember_evsel *parse_events__add_evsel(struct parser *p, const struct perf_event_attr *attr,
					    const char *name, size_t name_len, enum evsel_kind kind,
					    const char *pmu_name)
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
	evsel = evsel__new(attr, namez);
	free(namez);
	if (!evsel)
		return NULL;
	evsel->kind = kind;
	evsel->exclude_guest_default = true;
	if (pmu_name && !(evsel->pmu_name = strdup(pmu_name))) {
		evsel__delete(evsel);
		return NULL;
	}
	p->evsels[p->nr++] = evsel;
	return evsel;
}

/* ---- the event forms ---------------------------------------------------- */

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
	if (parse_events__u64(spec + i, j - i, &addr))
		return parse_fail(p, -EINVAL, i, "as in mem:0x1000 or mem:0x1000/8:w",
				  "invalid breakpoint address '%.*s'", j - i, spec + i);
	name_end = j;
	if (j < e && spec[j] == '/') {
		i = j + 1;
		for (j = i; j < e && spec[j] != ':'; j++)
			;
		if (parse_events__u64(spec + i, j - i, &len) ||
		    (len != 1 && len != 2 && len != 4 && len != 8))
			return parse_fail(p, -EINVAL, i, NULL,
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
					return parse_fail(p, -EINVAL, c, "access: r, w, x",
							  "bad breakpoint access '%.*s'",
							  run - k, spec + k);
				access |= bit;
			}
			mods = run < e ? run + 1 : e;
		} else {
			mods = k;
		}
	}
	parse_events__default_attr(&attr);
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.bp_addr = addr;
	attr.bp_type = access ? access : HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if (!len)
		len = attr.bp_type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	attr.bp_len = len;
	attr.sample_period = 1;
	/* perf's lexer ends the name at '/': "mem:0x1000/8" is named "mem:0x1000". */
	if (!memchr(spec + s, '/', e - s))
		name_end = e;
	if (!parse_events__add_evsel(p, &attr, spec + s, name_end - s, EVSEL_PMU, "breakpoint"))
		return parse_no_memory(p, s);
	return parse_events__event_mods(p, first, mods, e);
}

/* hardware, software, tool, cache or raw by name spec[s, end). 1 added, 0 not one, <0 error. */
static int add_symbolic(struct parser *p, int s, int end, int e)
{
	const char *name = p->spec + s;
	size_t len = end - s;
	const struct ember_event_symbol *sym = event_symbol__find(name, len);
	struct perf_event_attr attr;
	enum evsel_kind kind = EVSEL_HARDWARE;
	const char *pmu_name = NULL;
	uint64_t config;
	int ret;

	parse_events__default_attr(&attr);
	if (sym) {
		attr.type = sym->type;
		attr.config = sym->config;
		if (sym->type == PERF_TYPE_SOFTWARE) {
			kind = EVSEL_SOFTWARE;
			pmu_name = "software";
		}
	} else if (tool_event__find(name, len) != EMBER_TOOL_NONE) {
		/* Tool events count in the tool; the kernel sees a dummy. */
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_DUMMY;
		kind = EVSEL_SOFTWARE;
		pmu_name = EMBER_TOOL_PMU;
	} else if ((ret = hw_cache__parse(name, len, &config)) != -ENOENT) {
		if (ret)
			return parse_fail(p, -EINVAL, s, "see 'ember list cache'",
					  "invalid cache event '%.*s': that cache has no such "
					  "operation", (int)len, name);
		attr.type = PERF_TYPE_HW_CACHE;
		attr.config = config;
	} else if (len > 1 && name[0] == 'r' && strspn(name + 1, HEX_DIGITS) >= len - 1) {
		char hex[24];

		if (len - 1 > 16)
			return parse_fail(p, -EINVAL, s, NULL, "raw event '%.*s' is over 64 bits",
					  (int)len, name);
		snprintf(hex, sizeof(hex), "%.*s", (int)len - 1, name + 1);
		attr.type = PERF_TYPE_RAW;
		attr.config = strtoull(hex, NULL, 16);
	} else {
		return 0;
	}
	if (!parse_events__add_evsel(p, &attr, p->spec + s, e - s, kind, pmu_name))
		return parse_no_memory(p, s);
	return 1;
}

/* A bare PMU alias ("tsc" for msr/tsc/), on every PMU that has it. Returns how many. */
static int add_pmu_alias(struct parser *p, int s, int end, int e)
{
	int added = 0, nr = parse_events__list_pmus(p);

	for (int i = 0; i < nr; i++) {
		const char *pmu_name = p->pmu_names[i];
		const struct pmu *pmu = parse_events__get_pmu(p, pmu_name, strlen(pmu_name));
		const struct pmu_alias *alias;
		int ret;

		if (!pmu)
			continue;
		alias = pmu__alias(pmu, p->spec + s, end - s);
		if (!alias)
			continue;
		ret = parse_events__pmu_event(p, pmu, alias->terms, strlen(alias->terms), s, true,
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
		return parse_fail(p, ret, pos,
				  "tracepoints need root, or: mount -o remount,mode=755 "
				  "/sys/kernel/tracing",
				  "no permission to read %s/events", p->tracefs);
	if (ret == -EPERM)
		return parse_fail(p, ret, pos,
				  "tracepoints need root, or tracefs mounted on /sys/kernel/tracing",
				  "tracefs is not mounted, and mounting it needs root");
	return parse_fail(p, ret, pos, "is CONFIG_TRACING off in this kernel?",
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

	parse_events__default_attr(&attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD;
	evsel = parse_events__add_evsel(p, &attr, full, n, EVSEL_TRACEPOINT, "tracepoint");
	if (!evsel || !(evsel->tp_sys = strdup(sys)) || !(evsel->tp_name = strdup(name)))
		return parse_no_memory(p, pos);
	return 0;
}

static int tp_add_cb(const char *sys, const char *name, uint64_t id, void *arg)
{
	struct tp_add *ta = arg;

	ta->err = add_tracepoint(ta->p, sys, name, id, ta->pos);
	return ta->err ? 1 : 0;
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
		return parse_fail(p, -EINVAL, s, HINT_TP,
				  "expected a tracepoint system before ':'");
	if (!tp_name_ok(spec + s, colon - s))
		return parse_fail(p, -EINVAL, s, HINT_TP, "invalid tracepoint system '%.*s'",
				  colon - s, spec + s);
	if (!tp_name_ok(spec + colon + 1, end - colon - 1))
		return parse_fail(p, -EINVAL, colon + 1, HINT_TP, "invalid tracepoint name '%.*s'",
				  end - colon - 1, spec + colon + 1);
	root = parse_events__tracefs(p);
	if (!root)
		return tracefs_error(p, s);
	sys = strndup(spec + s, colon - s);
	name = strndup(spec + colon + 1, end - colon - 1);
	if (!sys || !name) {
		ret = parse_no_memory(p, s);
		goto out;
	}
	if (!is_glob(sys, strlen(sys)) && !is_glob(name, strlen(name))) {
		uint64_t id;

		ret = tracefs__event_id(root, sys, name, &id);
		if (ret == -ENOENT || ret == -ENOTDIR)
			ret = parse_events__unknown_tracepoint(p, s, colon, end, root);
		else if (ret)
			ret = parse_fail(p, ret, s, NULL,
					 "cannot read the id of tracepoint '%s:%s': %s", sys, name,
					 strerror(-ret));
		else
			ret = add_tracepoint(p, sys, name, id, s);
	} else {
		struct tp_add ta = { .p = p, .pos = s };

		ret = ember_tracefs__for_each_event(root, sys, name, EMBER_TRACEFS_READ_ID,
						    tp_add_cb, &ta);
		if (ta.err)
			ret = ta.err;
		else if (ret < 0)
			ret = parse_fail(p, ret, s, NULL, "cannot read %s/events: %s", root,
					 strerror(-ret));
		else if (p->nr == first)
			ret = parse_fail(p, -EINVAL, s, NULL, "no tracepoint matches '%.*s'",
					 end - s, spec + s);
	}
	if (!ret && end < e)
		ret = parse_events__event_mods(p, first, end + 1, e);
out:
	free(sys);
	free(name);
	return ret;
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
		return parse_events__event_mods(p, first, c1 + 1, e);
	if (colon)
		return parse_tracepoint(p, s, c1, e);
	return parse_events__unknown_event(p, s, e);
}

/*
 * name/terms/mods: spec[s, slash1) a symbolic event, a tracepoint or a PMU
 * (perf's lexer takes event names before PMU names), (slash1, slash2) its
 * terms, (slash2, e) its modifiers.
 */
static int parse_pmu_event(struct parser *p, int s, int slash1, int slash2, int e)
{
	const char *spec = p->spec;
	const char *colon = memchr(spec + s, ':', slash1 - s);
	const struct pmu *pmu;
	int first = p->nr, ret;

	if (slash2 + 1 < e && spec[slash2 + 1] == ':')
		return parse_fail(p, -EINVAL, slash2 + 1, NULL,
				  "unexpected ':': modifiers follow the closing '/' directly, "
				  "as in '%.*su'", slash2 - s + 1, spec + s);
	ret = colon ? 0 : add_symbolic(p, s, slash1, e);
	if (ret < 0)
		return ret;
	if (!ret && colon) {
		/* sys:name/terms/: named "sys:name", as perf names it */
		ret = parse_tracepoint(p, s, colon - spec, slash1);
		if (ret)
			return ret;
		ret = 1;
	}
	if (ret) {
		ret = parse_events__event_terms(p, first, spec + slash1 + 1, slash2 - slash1 - 1,
						slash1 + 1);
		return ret ? ret : parse_events__event_mods(p, first, slash2 + 1, e);
	}
	pmu = parse_events__get_pmu(p, spec + s, slash1 - s);
	if (!pmu) {
		if (errno == ENOMEM)
			return parse_no_memory(p, s);
		return parse_events__fail_hint(p, -EINVAL, s, pmu_list_hint(p),
					       "cannot find PMU '%.*s'; missing kernel support?",
					       slash1 - s, spec + s);
	}
	ret = parse_events__pmu_event(p, pmu, spec + slash1 + 1, slash2 - slash1 - 1, slash1 + 1,
				      false, spec + s, e - s);
	if (ret)
		return ret;
	return parse_events__event_mods(p, first, slash2 + 1, e);
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
			return parse_fail(p, -EINVAL, j, HINT_PMU,
					  "missing closing '/' of '%.*s' event", j - s, spec + s);
		slash2 = close - spec;
		for (end = slash2 + 1; spec[end] && !strchr(",{}/", spec[end]); end++)
			;
		if (spec[end] == '/')
			return parse_fail(p, -EINVAL, end, NULL, "unexpected '/'");
	}
	if (spec[end] == '{')
		return parse_fail(p, -EINVAL, end, HINT_GROUP,
				  "unexpected '{': groups cannot be nested or named");
	*posp = end;
	for (e = end; e > s && isspace((unsigned char)spec[e - 1]); e--)
		;
	if (e == s)
		return parse_fail(p, -EINVAL, s, NULL, "expected an event");
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
			return parse_fail(p, -EINVAL, pos, NULL, "empty group");
		if (spec[pos] == '{')
			return parse_fail(p, -EINVAL, pos, NULL, "groups cannot be nested");
		if (!spec[pos] || spec[pos] == ',' || spec[pos] == '}')
			return parse_fail(p, -EINVAL, pos, NULL, "expected an event");
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
			return parse_fail(p, -EINVAL, open, HINT_GROUP,
					  "unterminated group: missing '}'");
		return parse_fail(p, -EINVAL, pos, NULL, "unexpected '%c'", spec[pos]);
	}
	pos++;
	if (spec[pos] == ':') {
		mstart = ++pos;
		while (spec[pos] && !strchr(",{}", spec[pos]) && !isspace((unsigned char)spec[pos]))
			pos++;
		mend = pos;
		ret = parse_events__group_mods(p, start, mstart, mend);
		if (ret)
			return ret;
	}
	grown = realloc(p->groups, (p->nr_groups + 1) * sizeof(*grown));
	if (!grown)
		return parse_no_memory(p, open);
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
		return parse_fail(p, -EINVAL, pos, "as in -e cycles:u,sched:sched_switch",
				  "empty event specification");
	for (;;) {
		pos = skip_space(spec, pos);
		if (spec[pos] == '{')
			ret = parse_group(p, &pos);
		else if (spec[pos] == '}')
			ret = parse_fail(p, -EINVAL, pos, NULL, "unexpected '}' outside a group");
		else if (!spec[pos] || spec[pos] == ',')
			ret = parse_fail(p, -EINVAL, pos, NULL, "expected an event");
		else
			ret = parse_event(p, &pos);
		if (ret)
			return ret;
		pos = skip_space(spec, pos);
		if (!spec[pos])
			return 0;
		if (spec[pos] != ',')
			return parse_fail(p, -EINVAL, pos, NULL, "unexpected '%c'", spec[pos]);
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
		evsel__delete(p->evsels[i]);
	free(p->evsels);
	free(p->groups);
	for (int i = 0; i < p->nr_pmus; i++)
		pmu__delete(p->pmus[i]);
	free(p->pmus);
	pmu__free_names(p->pmu_names, p->nr_pmu_names);
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
