// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A strict check of an event format file before libtraceevent sees it.
 *
 * libtraceevent trusts its input: a malformed array size, a print fmt that
 * names a field the event lacks, an unknown operator or a cut-off file can
 * make tep_parse_event() dereference NULL or a freed token. Every format
 * tracefs shows has this shape:
 *
 *   name: <ident>\nID: <digits>\nformat:\n
 *   \tfield:[__data_loc ]<type words>[\[n\]] <ident>[\[n\]];\toffset:<n>;\tsize:<n>;\tsigned:<n>;\n
 *   ... (a blank line between the common and the event's own fields)
 *   print fmt: "<string>"[ "<string>"...][, <args>]\n
 *
 * and its arguments are C expressions over REC->field, numbers, strings,
 * casts and the helpers libtraceevent knows (__print_flags, __get_str...).
 * Those are checked by format-args.c. A print fmt
 * beyond it (GNU statement expressions, kernel functions such as
 * jiffies_to_msecs) is one libtraceevent cannot print either: the caller
 * replaces it and marks the event failed, which prints the same
 * "[FAILED TO PARSE]" line libtraceevent would.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "trace/format-check.h"

/* ---- the fields part ---------------------------------------------------- */

static bool lit(struct fcheck *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

bool fc_is_ident_start(char ch)
{
	return isalpha((unsigned char)ch) || ch == '_';
}

bool fc_is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

size_t fc_skip_while(struct fcheck *c, bool (*fn)(char))
{
	const char *s = c->p;

	while (c->p < c->end && fn(*c->p))
		c->p++;
	return c->p - s;
}

static bool is_digit(char ch)
{
	return isdigit((unsigned char)ch);
}

static bool number(struct fcheck *c)
{
	return fc_skip_while(c, is_digit) > 0;
}

static bool ident(struct fcheck *c, const char **start, size_t *len)
{
	if (c->p >= c->end || !fc_is_ident_start(*c->p))
		return false;
	*start = c->p;
	*len = fc_skip_while(c, fc_is_ident);
	return true;
}

/* An optional array suffix: "[]", "[16]" or "[TASK_COMM_LEN]"; sets *array. */
static bool array_suffix(struct fcheck *c, bool *array)
{
	if (!lit(c, "["))
		return true;
	*array = true;
	fc_skip_while(c, fc_is_ident);
	return lit(c, "]");
}

static bool add_field(struct fcheck *c, const char *name, size_t len, bool array)
{
	struct field_name *f;

	if (c->nr == c->alloc) {
		c->alloc = c->alloc ? c->alloc * 2 : 32;
		f = realloc(c->fields, c->alloc * sizeof(*f));
		if (!f)
			return false;
		c->fields = f;
	}
	c->fields[c->nr++] = (struct field_name){ .name = name, .len = len, .array = array };
	return true;
}

/* The declaration "type words name" of a field line, up to `semi`. */
static int declaration(struct fcheck *c, const char *semi)
{
	const char *name = NULL, *w;
	size_t name_len = 0, n;
	bool array = false, dynamic;

	dynamic = lit(c, "__data_loc ") || lit(c, "__rel_loc ");
	while (c->p < semi) {
		if (*c->p == ' ' || *c->p == '*') {
			c->p++;
			name = NULL;	/* the name comes last */
			continue;
		}
		if (!ident(c, &w, &n))
			return -EINVAL;
		name = w;
		name_len = n;
		array = false;
		if (!array_suffix(c, &array))
			return -EINVAL;
	}
	if (!name || c->p != semi)
		return -EINVAL;
	return add_field(c, name, name_len, array || dynamic) ? 0 : -ENOMEM;
}

static int field_line(struct fcheck *c)
{
	const char *semi;
	int err;

	if (!lit(c, "\tfield:"))
		return -EINVAL;
	semi = memchr(c->p, ';', c->end - c->p);
	if (!semi || memchr(c->p, '\n', semi - c->p))
		return -EINVAL;
	err = declaration(c, semi);
	if (err)
		return err;
	if (!lit(c, ";\toffset:") || !number(c) || !lit(c, ";\tsize:"))
		return -EINVAL;
	c->fields[c->nr - 1].size = strtoul(c->p, NULL, 10);
	if (!number(c) || !lit(c, ";"))
		return -EINVAL;
	if (lit(c, "\tsigned:") && (!number(c) || !lit(c, ";")))
		return -EINVAL;
	return lit(c, "\n") ? 0 : -EINVAL;
}

const struct field_name *fc_find_field(const struct fcheck *c, const char *name, size_t len)
{
	for (int i = 0; i < c->nr; i++)
		if (c->fields[i].len == len && !memcmp(c->fields[i].name, name, len))
			return &c->fields[i];
	return NULL;
}

bool fc_quoted(struct fcheck *c, char quote)
{
	c->p++;
	while (c->p < c->end && *c->p != quote) {
		if (*c->p == '\\' && ++c->p == c->end)
			return false;
		c->p++;
	}
	if (c->p == c->end)
		return false;
	c->p++;
	return true;
}

/* ---- the file ----------------------------------------------------------- */

static bool printable(const char *buf, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		unsigned char ch = buf[i];

		if ((ch < 0x20 || ch > 0x7e) && ch != '\t' && ch != '\n')
			return false;
	}
	return true;
}

static int check(struct fcheck *c)
{
	const char *name;
	size_t len;
	int err;

	if (!lit(c, "name: ") || !ident(c, &name, &len) || !lit(c, "\nID: ") || !number(c) ||
	    !lit(c, "\nformat:\n"))
		return -EINVAL;
	for (;;) {
		if (c->end - c->p >= 11 && !memcmp(c->p, "print fmt: ", 11))
			break;
		if (lit(c, "\n"))
			continue;
		err = field_line(c);
		if (err)
			return err;
	}
	if (!c->nr)
		return -EINVAL;
	c->info->print_off = c->p - c->start;
	c->p += 11;
	if (c->p == c->end || *c->p != '"' || !fc_quoted(c, '"'))
		return -EINVAL;
	/* "a" "b": adjacent literals */
	while (c->end - c->p >= 2 && c->p[0] == ' ' && c->p[1] == '"') {
		c->p++;
		if (!fc_quoted(c, '"'))
			return -EINVAL;
	}
	if (fc_print_args(c))
		return 0;
	return c->unsupported ? 1 : -EINVAL;
}

int trace_format_check(const char *buf, size_t size, struct trace_format_info *info)
{
	struct fcheck c = { .start = buf, .p = buf, .end = buf + size, .info = info };
	int ret;

	memset(info, 0, sizeof(*info));
	if (!printable(buf, size))
		return -EINVAL;
	ret = check(&c);
	if (ret < 0)
		pr_debug("tracing data: malformed event format near byte %zu\n",
			 (size_t)(c.p - buf));
	free(c.fields);
	return ret;
}

int trace_header_page_check(const char *buf, size_t size)
{
	struct trace_format_info info;
	struct fcheck c = { .start = buf, .p = buf, .end = buf + size, .info = &info };
	int err = 0;

	if (!printable(buf, size))
		return -EINVAL;
	while (!err && c.p < c.end)
		err = lit(&c, "\n") ? 0 : field_line(&c);
	free(c.fields);
	return err ? -EINVAL : 0;
}

char *trace_format_escape_tabs(const char *buf, size_t size, size_t print_off, size_t *new_size)
{
	size_t n = 0, tabs = 0;
	char quote = 0, *out;

	for (size_t i = print_off; i < size; i++)
		tabs += buf[i] == '\t';
	out = malloc(size + tabs + 1);
	if (!out)
		return NULL;
	memcpy(out, buf, print_off);
	n = print_off;
	for (size_t i = print_off; i < size; i++) {
		if (quote && buf[i] == '\\' && i + 1 < size) {
			out[n++] = buf[i++];
			out[n++] = buf[i];
			continue;
		}
		if (!quote && (buf[i] == '"' || buf[i] == '\''))
			quote = buf[i];
		else if (quote == buf[i])
			quote = 0;
		if (quote == '"' && buf[i] == '\t') {
			out[n++] = '\\';
			out[n++] = 't';
			continue;
		}
		out[n++] = buf[i];
	}
	out[n] = '\0';
	*new_size = n;
	return out;
}
