// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One probe as tracefs' uprobe_events and kprobe_events know it: the
 * line perf writes ("p:grp/ev /bin:0x1149 %di:u64"), checked part by part
 * first, and the line tracefs lists back ("p:grp/ev /bin:0x0000000000001149
 * arg1=%di:u64"), parsed. And perf's names for groups and events.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/probe-priv.h"

/* A name that fits tracefs: a C identifier under EMBER_PROBE_NAME_MAX bytes. */
static bool valid_name(const char *s)
{
	/* the length first: a group or event array may hold no NUL at all */
	return strnlen(s, EMBER_PROBE_NAME_MAX) < EMBER_PROBE_NAME_MAX && ember_probe__is_c_name(s);
}

/* A path the kernel reads whole: absolute, no blanks or controls (they split the line). */
static bool valid_path(const char *s)
{
	if (!s || *s != '/')
		return false;
	for (; *s; s++)
		if (isspace((unsigned char)*s) || iscntrl((unsigned char)*s))
			return false;
	return true;
}

/* A kernel symbol: C identifier characters and the '.' of "fn.isra.0", "fn.cold". */
static bool valid_ksym(const char *s)
{
	if (!*s || *s == '.' || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

static const char *check(const struct ember_probe_trace *t)
{
	if (!valid_name(t->group))
		return "the group name is not a C identifier of fewer than 64 characters";
	if (!valid_name(t->event))
		return "the event name is not a C identifier of fewer than 64 characters";
	if (t->uprobe && !valid_path(t->target))
		return "the binary's path is not absolute or holds blanks or control characters";
	if (!t->uprobe && t->target && !valid_ksym(t->target))
		return "the kernel symbol holds characters no kernel symbol has";
	if (!t->uprobe && !t->target && t->offset == 0)
		return "a kernel probe needs a symbol or an address";
	for (unsigned int i = 0; i < t->nr_args; i++) {
		const struct ember_probe_trace_arg *a = &t->args[i];

		if (a->name && !valid_name(a->name))
			return "an argument name is not a C identifier of fewer than 64 characters";
		if (!probe__valid_fetcharg(a->value, t->uprobe, t->retprobe))
			return "an argument is not a fetch argument tracefs knows for this probe";
		if (a->type && !probe__valid_type(a->type))
			return "an argument's type is not one tracefs knows";
	}
	return NULL;
}

int ember_probe_trace__format(const struct ember_probe_trace *t, char *buf, size_t size,
			      const char **why)
{
	struct probe_sbuf b = { .buf = buf, .size = size };
	const char *bad;

	if (why)
		*why = NULL;
	if (t->nr_args > EMBER_PROBE_MAX_ARGS)
		return -E2BIG;
	bad = check(t);
	if (bad) {
		if (why)
			*why = bad;
		return -EINVAL;
	}
	if (t->retprobe && t->maxactive)
		probe_sbuf__add(&b, "r%u:%s/%s ", t->maxactive, t->group, t->event);
	else
		probe_sbuf__add(&b, "%c:%s/%s ", t->retprobe ? 'r' : 'p', t->group, t->event);
	if (t->uprobe) {
		probe_sbuf__add(&b, "%s:0x%" PRIx64, t->target, t->offset);
		if (t->ref_ctr_offset)
			probe_sbuf__add(&b, "(0x%" PRIx64 ")", t->ref_ctr_offset);
	} else if (t->target) {
		probe_sbuf__add(&b, "%s+%" PRIu64, t->target, t->offset);
	} else {
		probe_sbuf__add(&b, "0x%" PRIx64, t->offset);
	}
	for (unsigned int i = 0; i < t->nr_args; i++) {
		const struct ember_probe_trace_arg *a = &t->args[i];

		probe_sbuf__add(&b, " %s%s%s%s%s", a->name ? a->name : "", a->name ? "=" : "",
				a->value, a->type ? ":" : "", a->type ? a->type : "");
	}
	if (b.failed)
		return -EINVAL;
	if (b.len >= size || b.len > 0x7fffffff)
		return -ENAMETOOLONG;
	return (int)b.len;
}

/* "grp/ev" at s into t; 0 or -EINVAL. */
static int parse_names(struct ember_probe_trace *t, char *s)
{
	char *slash = strchr(s, '/');

	if (!slash)
		return -EINVAL;
	*slash = '\0';
	if (!valid_name(s) || !valid_name(slash + 1))
		return -EINVAL;
	strcpy(t->group, s);
	strcpy(t->event, slash + 1);
	return 0;
}

/* "/path:0x...[(0x...)]" for uprobes, "sym+off", "sym" or "0xaddr" for kprobes. */
static int parse_place(struct ember_probe_trace *t, char *s)
{
	char *end, *p;

	if (t->uprobe) {
		p = strrchr(s, ':');
		if (!p || p == s)
			return -EINVAL;
		*p++ = '\0';
		t->target = s;
		t->offset = strtoull(p, &end, 0);
		if (*end == '(') {
			t->ref_ctr_offset = strtoull(end + 1, &end, 0);
			if (*end++ != ')')
				return -EINVAL;
		}
		return *end ? -EINVAL : 0;
	}
	if (!strncmp(s, "0x", 2)) {
		t->offset = strtoull(s, &end, 0);
		return *end ? -EINVAL : 0;
	}
	p = strchr(s, '+');
	if (p) {
		*p++ = '\0';
		t->offset = strtoull(p, &end, 0);
		if (*end)
			return -EINVAL;
	}
	t->target = s;
	return 0;
}

/* One "name=value[:type]" as tracefs lists an argument. */
static int parse_arg(struct ember_probe_trace_arg *a, char *s)
{
	char *eq = strchr(s, '='), *colon;

	if (eq) {
		*eq = '\0';
		if (!ember_probe__is_c_name(s))
			return -EINVAL;
		a->name = s;
		s = eq + 1;
	}
	/* the type follows the last ':' outside parentheses ("+0(%di):string") */
	colon = strrchr(s, ':');
	if (colon && !strchr(colon, ')')) {
		*colon = '\0';
		a->type = colon + 1;
	}
	a->value = s;
	return *s ? 0 : -EINVAL;
}

int ember_probe_trace__parse(struct ember_probe_trace *t, const char *line, bool uprobe)
{
	char *s, *word, *save = NULL;
	int err = -EINVAL;

	memset(t, 0, sizeof(*t));
	t->uprobe = uprobe;
	t->buf = strdup(line);
	if (!t->buf)
		return -ENOMEM;
	s = t->buf;
	if (*s == 'p' || *s == 'r') {
		t->retprobe = *s == 'r';
		s++;
	} else {
		goto out_err;
	}
	if (t->retprobe && isdigit((unsigned char)*s))
		t->maxactive = (unsigned int)strtoul(s, &s, 10);
	if (*s++ != ':')
		goto out_err;
	word = strtok_r(s, " \t\n", &save);
	if (!word || parse_names(t, word))
		goto out_err;
	word = strtok_r(NULL, " \t\n", &save);
	if (!word || parse_place(t, word))
		goto out_err;
	while ((word = strtok_r(NULL, " \t\n", &save))) {
		if (t->nr_args == EMBER_PROBE_MAX_ARGS)
			goto out_err;
		if (parse_arg(&t->args[t->nr_args++], word))
			goto out_err;
	}
	return 0;

out_err:
	ember_probe_trace__exit(t);
	return err;
}

void ember_probe_trace__exit(struct ember_probe_trace *t)
{
	if (!t)
		return;
	free(t->buf);
	t->buf = NULL;
}

int ember_probe__exec_group(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t n = 0;
	int len;

	base = base ? base + 1 : path;
	while (base[n] && (isalnum((unsigned char)base[n]) || base[n] == '_'))
		n++;
	len = snprintf(buf, size, "probe_%.*s", (int)n, base);
	if (len < 0 || (size_t)len >= size)
		return -ENAMETOOLONG;
	return 0;
}

int ember_probe__event_name(const char *base, bool retprobe, bool allow_suffix,
			    ember_probe_name_taken_fn taken, void *arg, char *buf, size_t size)
{
	char nbase[EMBER_PROBE_NAME_MAX];
	const char *cut;
	size_t n;
	int len;

	if (*base == '.')
		base++;
	/* cut ".isra.0", ".constprop.1", "@GLIBC_2.2.5", unless that leaves nothing */
	cut = strpbrk(base, ".@");
	n = cut && cut != base ? (size_t)(cut - base) : strlen(base);
	if (n >= sizeof(nbase))
		return -ENAMETOOLONG;
	memcpy(nbase, base, n);
	nbase[n] = '\0';
	len = snprintf(buf, size, "%s%s", nbase, retprobe ? "__return" : "");
	if (len < 0 || (size_t)len >= size || (size_t)len >= EMBER_PROBE_NAME_MAX)
		return -ENAMETOOLONG;
	if (!ember_probe__is_c_name(buf))
		return -EINVAL;
	if (!taken(buf, arg))
		return 0;
	if (!allow_suffix)
		return -EEXIST;
	/* perf's suffixes go on the cut base, "__return" or not */
	for (int i = 1; i < 1024; i++) {
		len = snprintf(buf, size, "%s_%d", nbase, i);
		if (len < 0 || (size_t)len >= size || (size_t)len >= EMBER_PROBE_NAME_MAX)
			return -ENAMETOOLONG;
		if (!taken(buf, arg))
			return 0;
	}
	return -ERANGE;
}
