// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf's probe definition syntax (perf-probe(1), PROBE SYNTAX):
 *
 *   [[GROUP:]EVENT=]FUNC[@SRC][:RLN|+OFFS|%return|;PTN] [ARG ...]
 *   [[GROUP:]EVENT=]SRC:ALN [ARG ...]
 *   [[GROUP:]EVENT=]SRC;PTN [ARG ...]
 *
 * The text is copied once into a buffer twice its size: the first half is
 * split in place into the parts the struct points at, the second holds
 * the names arguments take from their last member. Nothing else grows
 * with the input.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/probe-priv.h"

/* The parts of a probe point, in the order perf looks for them. */
#define POINT_SEPS ";:+@%"

__attribute__((format(printf, 2, 3)))
static int refuse(struct ember_probe_def *def, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(def->err, sizeof(def->err), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

bool ember_probe__is_c_name(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	while (*++s)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* The first of set in s that no backslash escapes, or NULL. */
static char *find_unescaped(char *s, const char *set)
{
	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			continue;
		}
		if (strchr(set, *s))
			return s;
	}
	return NULL;
}

/* Drop the backslashes of escapes, in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1])
			s++;
		*d++ = *s;
	}
	*d = '\0';
}

/* An unsigned number, all of the text, in C's bases ("16", "0x10", "020"). */
static bool parse_number(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return !errno && !*end && *out <= max;
}

/* GROUP:EVENT= at the head of s, if any: returns where the point starts. */
static int parse_event_name(struct ember_probe_def *def, char *s, char **point)
{
	/* no ':' here: it separates the group */
	char *eq = strpbrk(s, ";=@+%"), *colon;

	*point = s;
	if (!eq || *eq != '=')
		return 0;
	*eq = '\0';
	*point = eq + 1;
	colon = strchr(s, ':');
	if (colon) {
		*colon = '\0';
		if (!ember_probe__is_c_name(s))
			return refuse(def, "'%s' is bad for a group name: it must follow the C symbol-naming rule",
				      s);
		def->group = s;
		s = colon + 1;
	}
	if (!ember_probe__is_c_name(s))
		return refuse(def, "'%s' is bad for an event name: it must follow the C symbol-naming rule",
			      s);
	def->event = s;
	return 0;
}

/* One ":RLN", "+OFFS", "@SRC" or "%return" after the head of the point. */
static int parse_point_part(struct ember_probe_def *def, char sep, char *s)
{
	unsigned long long v;

	switch (sep) {
	case ':':
		if (!parse_number(s, 0x7fffffff, &v))
			return refuse(def, "there is a non-digit character in line number '%s'", s);
		def->line = (unsigned int)v;
		return 0;
	case '+':
		if (!parse_number(s, ~0ULL, &v))
			return refuse(def, "there is a non-digit character in offset '%s'", s);
		def->offset = v;
		return 0;
	case '@':
		if (def->file)
			return refuse(def, "SRC@SRC is not allowed");
		unescape(s);
		if (!*s)
			return refuse(def, "an empty source file name after '@'");
		def->file = s;
		return 0;
	case '%':
		if (strcmp(s, "return"))
			return refuse(def, "%%%s is not supported", s);
		def->retprobe = true;
		return 0;
	}
	return refuse(def, "unexpected '%c'", sep);
}

/* The parts perf refuses together. */
static int check_point(struct ember_probe_def *def)
{
	if (def->lazy && def->line)
		return refuse(def, "a lazy pattern can't be used with a line number");
	if (def->lazy && def->offset)
		return refuse(def, "a lazy pattern can't be used with an offset");
	if (def->line && def->offset)
		return refuse(def, "an offset can't be used with a line number");
	if (!def->line && !def->lazy && def->file && !def->function)
		return refuse(def, "a file always requires a line number or a lazy pattern");
	if (def->offset && !def->function)
		return refuse(def, "an offset requires an entry function");
	if (def->offset && def->abs)
		return refuse(def, "an offset can't be added to an absolute address");
	if ((def->offset || def->line || def->lazy) && def->retprobe)
		return refuse(def, "an offset, line or lazy pattern can't be used with a return probe");
	if (!def->function && !def->file)
		return refuse(def, "no function or file to probe");
	return 0;
}

static int parse_point(struct ember_probe_def *def, char *s)
{
	bool file_spec = false;
	char *sep, *head;
	char c;
	int err;

	if (*s == '%' || (!strncmp(s, "sdt_", 4) && strchr(s, ':') && !strchr(s, '=')))
		return refuse(def, "SDT events ('%s') are not supported yet", s);
	err = parse_event_name(def, s, &s);
	if (err)
		return err;
	/* A file, as perf decides: no "+@%", and a '.' before the first ':' or ';'. */
	if (!find_unescaped(s, "+@%")) {
		sep = find_unescaped(s, ";:");
		file_spec = sep && memchr(s, '.', (size_t)(sep - s));
	}
	head = s;
	sep = find_unescaped(s, POINT_SEPS);
	c = sep ? *sep : '\0';
	if (sep)
		*sep++ = '\0';
	unescape(head);
	if (*head && file_spec) {
		def->file = head;
	} else if (*head) {
		def->function = head;
		if (!strncmp(head, "0x", 2)) {
			unsigned long long addr;

			if (!parse_number(head, ~0ULL, &addr))
				return refuse(def, "invalid absolute address '%s'", head);
			def->abs_address = addr;
			def->abs = true;
		}
	}
	while (sep) {
		char *part = sep, this = c;

		if (this == ';') {
			/* the rest, escapes kept: a pattern is matched with them */
			def->lazy = part;
			break;
		}
		sep = find_unescaped(part, POINT_SEPS);
		c = sep ? *sep : '\0';
		if (sep)
			*sep++ = '\0';
		err = parse_point_part(def, this, part);
		if (err)
			return err;
	}
	return check_point(def);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The next blank-separated word of *s, NUL-terminated in place, or NULL. */
static char *next_word(char **s)
{
	char *p = *s, *w;

	while (is_blank(*p))
		p++;
	if (!*p)
		return NULL;
	w = p;
	while (*p && !is_blank(*p))
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return w;
}

/* Whether an argument names a C variable (what a return probe cannot fetch). */
static bool is_c_varname(const char *s)
{
	return isalpha((unsigned char)*s) || *s == '_';
}

int ember_probe_def__parse(struct ember_probe_def *def, const char *spec)
{
	struct probe_names names;
	char *s, *point, *word;
	size_t len;
	int err;

	memset(def, 0, sizeof(*def));
	if (!spec)
		return refuse(def, "no probe definition");
	len = strlen(spec);
	if (len > (1u << 20))
		return refuse(def, "the probe definition is too long (%zu bytes)", len);
	def->buf = malloc(2 * len + 2);
	if (!def->buf)
		return -ENOMEM;
	memcpy(def->buf, spec, len + 1);
	names.next = def->buf + len + 1;
	names.end = def->buf + 2 * len + 2;

	s = def->buf;
	point = next_word(&s);
	if (!point) {
		err = refuse(def, "an empty probe definition");
		goto out_err;
	}
	err = parse_point(def, point);
	if (err)
		goto out_err;
	while ((word = next_word(&s))) {
		struct ember_probe_arg *arg;

		if (def->nr_args == EMBER_PROBE_MAX_ARGS) {
			snprintf(def->err, sizeof(def->err), "too many probe arguments (more than %d)",
				 EMBER_PROBE_MAX_ARGS);
			err = -E2BIG;
			goto out_err;
		}
		arg = &def->args[def->nr_args++];
		err = probe_arg__parse(arg, word, &names, def->err, sizeof(def->err));
		if (err)
			goto out_err;
		if (def->retprobe && is_c_varname(arg->var)) {
			err = refuse(def, "a return probe can't fetch the local variable '%s'",
				     arg->var);
			goto out_err;
		}
	}
	return 0;

out_err:
	free(def->buf);
	def->buf = NULL;
	return err;
}

void ember_probe_def__exit(struct ember_probe_def *def)
{
	if (!def)
		return;
	free(def->buf);
	def->buf = NULL;
}

bool ember_probe_def__needs_dwarf(const struct ember_probe_def *def)
{
	if (def->file || def->line || def->lazy || ember_probe_def__needs_dwarf_args(def))
		return true;
	for (unsigned int i = 0; i < def->nr_args; i++)
		if (def->args[i].fields)
			return true;
	return false;
}

__attribute__((format(printf, 2, 3)))
void probe_sbuf__add(struct probe_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->len < b->size ? b->buf + b->len : NULL,
		      b->len < b->size ? b->size - b->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
	else if (n < 0)
		b->failed = true;
}

const char *probe__short_file(const char *file)
{
	size_t n = strlen(file);
	const char *slash;

	/* perf keeps the last 30 characters, from a directory boundary */
	if (n <= 30)
		return file;
	slash = strchr(file + n - 30, '/');
	return slash ? slash + 1 : file + n - 30;
}

/* perf's synthesize_perf_probe_point(): FUNC[+OFF|:LINE|%return][@FILE[:LINE]]. */
static int point_text(char *buf, size_t size, const char *function, uint64_t offset, int line,
		      bool retprobe, const char *file)
{
	struct probe_sbuf b = { .buf = buf, .size = size };

	if (size)
		buf[0] = '\0';
	if (function) {
		probe_sbuf__add(&b, "%s", function);
		if (offset)
			probe_sbuf__add(&b, "+%llu", (unsigned long long)offset);
		else if (line)
			probe_sbuf__add(&b, ":%d", line);
		else if (retprobe)
			probe_sbuf__add(&b, "%%return");
	}
	if (file) {
		probe_sbuf__add(&b, "@%s", probe__short_file(file));
		if (!function && line)
			probe_sbuf__add(&b, ":%d", line);
	}
	return b.len > 0x7fffffff ? -ENAMETOOLONG : (int)b.len;
}

int ember_probe_def__point(const struct ember_probe_def *def, char *buf, size_t size)
{
	/* perf shows no lazy pattern */
	return point_text(buf, size, def->function, def->offset, (int)def->line, def->retprobe,
			  def->file);
}

int ember_probe_point__format(const struct ember_probe_point *pt, bool retprobe, char *buf,
			      size_t size)
{
	return point_text(buf, size, pt->function[0] ? pt->function : NULL, pt->offset, pt->line,
			  retprobe, pt->file[0] ? pt->file : NULL);
}

int ember_probe_arg__format(const struct ember_probe_arg *arg, char *buf, size_t size)
{
	struct probe_sbuf b = { .buf = buf, .size = size };

	if (size)
		buf[0] = '\0';
	if (arg->name)
		probe_sbuf__add(&b, "%s=", arg->name);
	/* perf leaves @user out (its synthesize_perf_probe_arg()) */
	probe_sbuf__add(&b, "%s%s", arg->var, arg->fields ? arg->fields : "");
	if (arg->type)
		probe_sbuf__add(&b, ":%s", arg->type);
	return b.len > 0x7fffffff ? -ENAMETOOLONG : (int)b.len;
}
