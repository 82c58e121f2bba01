// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Probe arguments (perf-probe(1), PROBE ARGUMENT):
 *
 *   [NAME=]LOCALVAR|$retval|%REG|@SYMBOL|+OFF(%REG)|...[FIELDS][@user][:TYPE]
 *
 * and the fetch arguments tracefs takes, which every argument written
 * to uprobe_events or kprobe_events must be.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "probe/probe-priv.h"

/* How deep +OFF(+OFF(...)) may nest. */
#define FETCH_MAX_DEPTH 8

static const char *const types[] = {
	"s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64",
	"x8", "x16", "x32", "x64", "string", "ustring",
};

/* A bitfield's type as perf writes it from DWARF: b<width>@<offset>/<container bits>. */
static bool is_bitfield_type(const char *type)
{
	unsigned int width, offs, size;
	int end = 0;

	if (sscanf(type, "b%u@%u/%u%n", &width, &offs, &size, &end) != 3 || type[end])
		return false;
	return width && width <= size && offs < size && size <= 64 && !(size & 7);
}

bool probe__valid_type(const char *type)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(type, types[i]))
			return true;
	return is_bitfield_type(type);
}

/* perf's casts of a variable's signedness (its size from DWARF): s, u, x. */
static bool is_sign_cast(const char *type)
{
	return (type[0] == 's' || type[0] == 'u' || type[0] == 'x') && !type[1];
}

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The end of the identifier at s (s itself when there is none). */
static const char *skip_ident(const char *s)
{
	if (!is_ident_start(*s))
		return s;
	while (is_ident(*s))
		s++;
	return s;
}

/* The end of a C number at s (decimal or 0x hex), or NULL. */
static const char *skip_number(const char *s)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!isxdigit((unsigned char)s[2]))
			return NULL;
		for (s += 2; isxdigit((unsigned char)*s); s++)
			;
		return s;
	}
	if (!isdigit((unsigned char)*s))
		return NULL;
	while (isdigit((unsigned char)*s))
		s++;
	return s;
}

/* One fetch argument at s; returns its end, or NULL when it is not one. */
static const char *skip_fetcharg(const char *s, bool uprobe, bool retprobe, int depth)
{
	const char *e;

	switch (*s) {
	case '%':
		e = skip_ident(s + 1);
		return e == s + 1 ? NULL : e;
	case '$':
		if (!strncmp(s, "$retval", 7))
			return retprobe ? s + 7 : NULL;
		if (!strncmp(s, "$comm", 5))
			return s + 5;
		if (!strncmp(s, "$stack", 6)) {
			e = skip_number(s + 6);
			return e ? e : s + 6;
		}
		if (!uprobe && !strncmp(s, "$arg", 4))
			return skip_number(s + 4);
		return NULL;
	case '\\':
		/* an immediate: a number, signed or not (the kernel's str_to_immediate) */
		if (s[1] == '-' || s[1] == '+')
			s++;
		return skip_number(s + 1);
	case '@':
		s++;
		if (uprobe && *s == '+')	/* a file offset */
			return skip_number(s + 1);
		if (isdigit((unsigned char)*s))
			return skip_number(s);
		if (uprobe)
			return NULL;
		e = skip_ident(s);
		if (e == s)
			return NULL;
		if (*e == '+' || *e == '-')
			return skip_number(e + 1);
		return e;
	case '+':
	case '-':
		if (depth >= FETCH_MAX_DEPTH)
			return NULL;
		/* +uOFF(...): user memory (perf's @user; uprobes take it too), the offset signed */
		if (s[0] == '+' && s[1] == 'u') {
			s++;
			if (s[1] == '-')
				s++;
		}
		s = skip_number(s + 1);
		if (!s || *s != '(')
			return NULL;
		s = skip_fetcharg(s + 1, uprobe, false, depth + 1);
		return s && *s == ')' ? s + 1 : NULL;
	}
	return NULL;
}

bool probe__valid_fetcharg(const char *value, bool uprobe, bool retprobe)
{
	const char *e = value ? skip_fetcharg(value, uprobe, retprobe, 0) : NULL;

	return e && !*e;
}

/* The member accesses after a variable: "->a", ".b", "[2]", each counted. */
static int parse_fields(struct ember_probe_arg *arg, const char *s, const char **last,
			char *err, size_t errsz)
{
	*last = NULL;
	while (*s) {
		if (arg->nr_fields == EMBER_PROBE_MAX_FIELDS) {
			snprintf(err, errsz, "too many members in '%s%s' (more than %d)", arg->var,
				 arg->fields, EMBER_PROBE_MAX_FIELDS);
			return -E2BIG;
		}
		arg->nr_fields++;
		if (*s == '[') {
			const char *e = skip_number(s + 1);

			if (!e || *e != ']') {
				snprintf(err, errsz, "an array index must be a number: '%s'", s);
				return -EINVAL;
			}
			s = e + 1;
			continue;
		}
		if (*s == '.')
			s++;
		else if (s[0] == '-' && s[1] == '>')
			s += 2;
		else
			goto bad;
		if (!is_ident_start(*s))
			goto bad;
		*last = s;
		s = skip_ident(s);
	}
	return 0;
bad:
	snprintf(err, errsz, "cannot parse the member access in '%s%s'", arg->var, arg->fields);
	return -EINVAL;
}

/* Copy s[0, n) to names (room for every word's parts is there); NULL when full. */
static const char *copy_name(struct probe_names *names, const char *s, size_t n)
{
	char *d = names->next;

	if ((size_t)(names->end - d) < n + 1)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	names->next += n + 1;
	return d;
}

int probe_arg__parse(struct ember_probe_arg *arg, char *word, struct probe_names *names,
		     char *err, size_t errsz)
{
	char *s = word, *p;
	const char *f;
	const char *last;
	int ret;

	memset(arg, 0, sizeof(*arg));
	p = strchr(s, '=');
	if (p) {
		*p = '\0';
		if (!ember_probe__is_c_name(s)) {
			snprintf(err, errsz,
				 "'%s' is bad for an argument name: it must follow the C symbol-naming rule",
				 s);
			return -EINVAL;
		}
		arg->name = s;
		s = p + 1;
	}
	p = strchr(s, ':');
	if (p) {
		*p++ = '\0';
		if (!probe__valid_type(p) && !(is_sign_cast(p) && is_ident_start(*s))) {
			snprintf(err, errsz,
				 "unknown type '%s' (s8..s64, u8..u64, x8..x64, string, ustring)", p);
			return -EINVAL;
		}
		arg->type = p;
	}
	p = strchr(s, '@');
	if (p && p != s && !strcmp(p + 1, "user")) {
		*p = '\0';
		arg->user_access = true;
	}
	if (!*s) {
		snprintf(err, errsz, "an empty argument%s%s", arg->name ? " for " : "",
			 arg->name ? arg->name : "");
		return -EINVAL;
	}
	arg->var = s;
	f = strpbrk(s, "-.[");
	if (!is_ident_start(*s) || !f)
		return 0;
	/* A variable with members: the variable, a copy, ends where they start. */
	if (f == s || f != skip_ident(s)) {
		snprintf(err, errsz, "cannot parse the argument '%s'", s);
		return -EINVAL;
	}
	arg->fields = f;
	arg->var = copy_name(names, s, (size_t)(f - s));
	if (!arg->var)
		return -ENOMEM;
	ret = parse_fields(arg, f, &last, err, errsz);
	if (ret)
		return ret;
	/* unnamed, it takes its last member's name, or its variable's (perf's) */
	if (!arg->name && last) {
		arg->name = copy_name(names, last, (size_t)(skip_ident(last) - last));
		if (!arg->name)
			return -ENOMEM;
	} else if (!arg->name) {
		arg->name = arg->var;
	}
	return 0;
}
