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
 * Those are checked with a small recursive-descent parser. A print fmt
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
#include "trace/trace.h"

#define MAX_DEPTH 200

enum tok { T_END, T_NEWLINE, T_IDENT, T_NUMBER, T_STRING, T_CHAR, T_PUNCT, T_BAD };

struct field_name {
	const char *name;
	size_t len;
	unsigned long size;
	bool array;
};

struct fcheck {
	const char *start, *p, *end;
	struct field_name *fields;
	int nr, alloc;
	/* the current token of the print args */
	enum tok tok;
	const char *ts;
	size_t tlen;
	int depth;
	bool unsupported;		/* valid, but beyond what libtraceevent prints */
	struct trace_format_info *info;
};

/* ---- the fields part ---------------------------------------------------- */

static bool lit(struct fcheck *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

static bool is_ident_start(char ch)
{
	return isalpha((unsigned char)ch) || ch == '_';
}

static bool is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static size_t skip_while(struct fcheck *c, bool (*fn)(char))
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
	return skip_while(c, is_digit) > 0;
}

static bool ident(struct fcheck *c, const char **start, size_t *len)
{
	if (c->p >= c->end || !is_ident_start(*c->p))
		return false;
	*start = c->p;
	*len = skip_while(c, is_ident);
	return true;
}

/* An optional array suffix: "[]", "[16]" or "[TASK_COMM_LEN]"; sets *array. */
static bool array_suffix(struct fcheck *c, bool *array)
{
	if (!lit(c, "["))
		return true;
	*array = true;
	skip_while(c, is_ident);
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

static const struct field_name *find_field(const struct fcheck *c, const char *name, size_t len)
{
	for (int i = 0; i < c->nr; i++)
		if (c->fields[i].len == len && !memcmp(c->fields[i].name, name, len))
			return &c->fields[i];
	return NULL;
}

/* ---- the print fmt's arguments ------------------------------------------ */

static const char *const two_char_ops[] = {
	"->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
};

/* Quoted text from c->p (at the quote); raw newlines allowed, as kernel formats have them. */
static bool quoted(struct fcheck *c, char quote)
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

static void next(struct fcheck *c)
{
	char ch;

	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
	c->ts = c->p;
	if (c->p == c->end) {
		c->tok = T_END;
	} else if ((ch = *c->p) == '\n') {
		c->tok = T_NEWLINE;
		c->p++;
	} else if (is_ident_start(ch)) {
		c->tok = T_IDENT;
		skip_while(c, is_ident);
	} else if (is_digit(ch)) {
		c->tok = T_NUMBER;
		skip_while(c, is_ident);	/* 0x1f, 10UL */
	} else if (ch == '"' || ch == '\'') {
		c->tok = quoted(c, ch) ? ch == '"' ? T_STRING : T_CHAR : T_BAD;
	} else {
		c->tok = T_PUNCT;
		for (size_t i = 0; i < sizeof(two_char_ops) / sizeof(two_char_ops[0]); i++) {
			if (c->end - c->p >= 2 && !memcmp(c->p, two_char_ops[i], 2)) {
				c->p++;
				break;
			}
		}
		c->p++;
		if (!strchr("+-*/%&|^~!<>?:,()[]{}=.;", ch))
			c->tok = T_BAD;
	}
	c->tlen = c->p - c->ts;
}

static bool is(const struct fcheck *c, const char *s)
{
	return (c->tok == T_PUNCT || c->tok == T_IDENT) && c->tlen == strlen(s) &&
	       !memcmp(c->ts, s, c->tlen);
}

static bool accept(struct fcheck *c, const char *s)
{
	if (!is(c, s))
		return false;
	next(c);
	return true;
}

static bool expr(struct fcheck *c);
static bool unary(struct fcheck *c);

static bool is_binary_op(const struct fcheck *c)
{
	static const char *const ops[] = {
		"*", "/", "%", "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=",
		"&", "^", "|", "&&", "||",
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (is(c, ops[i]))
			return true;
	return false;
}

/* A list of expressions up to `close` (already past the opening bracket). */
static bool expr_list(struct fcheck *c, const char *close)
{
	if (accept(c, close))
		return true;
	do {
		if (!expr(c))
			return false;
	} while (accept(c, ","));
	return accept(c, close);
}

static bool field_ref(struct fcheck *c, bool want_array)
{
	const struct field_name *f;

	if (c->tok != T_IDENT)
		return false;
	f = find_field(c, c->ts, c->tlen);
	if (!f || (want_array && !f->array))
		return false;
	next(c);
	return true;
}

/* The "type)" of sizeof(type), with a type libtraceevent's process_sizeof() knows. */
static bool sizeof_type(struct fcheck *c)
{
	static const char *const types[] = {
		"int", "long", "unsigned", "u64", "__u64", "s64", "__s64", "u32", "__u32", "s32",
		"__s32", "u16", "__u16", "s16", "__s16", "u8", "__u8", "s8", "__8",
	};
	bool known = false;

	while (c->tok == T_IDENT) {
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			known |= is(c, types[i]);
		next(c);
	}
	return known && accept(c, ")");
}

/* sizeof(type) or sizeof(REC->field), as far as libtraceevent's process_sizeof() goes. */
static bool sizeof_arg(struct fcheck *c)
{
	const struct field_name *f;

	if (!accept(c, "("))
		return false;
	if (accept(c, "REC")) {
		if (!is(c, "->"))
			return false;
		next(c);
		f = c->tok == T_IDENT ? find_field(c, c->ts, c->tlen) : NULL;
		if (!f || f->array)
			return false;
		next(c);
		return accept(c, ")");
	}
	return sizeof_type(c);
}

/*
 * The bytes __print_hex() and __print_array() dump: libtraceevent reads them
 * as a field, so only REC->field or __get_dynamic_array(field) will do.
 */
static bool data_source(struct fcheck *c)
{
	if (accept(c, "REC"))
		return accept(c, "->") && field_ref(c, false);
	if (!accept(c, "__get_dynamic_array") && !accept(c, "__get_rel_dynamic_array"))
		return false;
	return accept(c, "(") && field_ref(c, true) && accept(c, ")");
}

/* A number literal in [min, max]. */
static bool literal(struct fcheck *c, unsigned long long min, unsigned long long max)
{
	unsigned long long v;

	if (c->tok != T_NUMBER)
		return false;
	v = strtoull(c->ts, NULL, 0);
	next(c);
	return v >= min && v <= max;
}

/* The element size of __print_array(): sizeof(type) or a literal, 1 to 8. */
static bool element_size(struct fcheck *c)
{
	if (accept(c, "sizeof"))
		return accept(c, "(") && sizeof_type(c);
	return literal(c, 1, 8);
}

/* Note a length field wider than 16 bits, for trace-print.c to size its slack by. */
static bool len_field(struct fcheck *c, const struct field_name *f)
{
	struct trace_format_info *info = c->info;

	if (info->nr_len_fields == TRACE_MAX_LEN_FIELDS || f->len >= sizeof(info->len_fields[0]))
		return false;
	memcpy(info->len_fields[info->nr_len_fields], f->name, f->len);
	info->len_fields[info->nr_len_fields++][f->len] = '\0';
	return true;
}

/*
 * How many elements __print_hex() and __print_array() dump, which
 * libtraceevent takes from the sample unchecked: a literal, a field, or a
 * dynamic array's length (divided by a sizeof). Below 64 Ki, trace-print.c
 * leaves enough slack after its copy of the sample; for wider fields, it
 * reads their value first.
 */
static bool data_length(struct fcheck *c)
{
	const struct field_name *f;

	if (accept(c, "REC")) {
		if (!accept(c, "->") || c->tok != T_IDENT)
			return false;
		f = find_field(c, c->ts, c->tlen);
		if (!f || f->array || f->size > 8)
			return false;
		next(c);
		return f->size <= 2 || len_field(c, f);
	}
	if (accept(c, "__get_dynamic_array_len") || accept(c, "__get_rel_dynamic_array_len")) {
		if (!accept(c, "(") || !field_ref(c, true) || !accept(c, ")"))
			return false;
		if (!accept(c, "/"))
			return true;
		return is(c, "sizeof") ? element_size(c) : literal(c, 1, 65535);
	}
	return literal(c, 0, 65535);
}

/* A call of one of the helpers libtraceevent implements; others make the print unsupported. */
static bool call(struct fcheck *c, const char *name, size_t len)
{
	static const char *const field_helpers[] = {
		"__get_str", "__get_rel_str", "__get_bitmask", "__get_rel_bitmask",
		"__get_cpumask", "__get_rel_cpumask", "__get_dynamic_array",
		"__get_rel_dynamic_array", "__get_sockaddr", "__get_sockaddr_rel",
		"__get_dynamic_array_len", "__get_rel_dynamic_array_len",
	};
	static const char *const arg_helpers[] = {
		"__print_flags", "__print_symbolic", "__builtin_expect",
	};

	for (size_t i = 0; i < sizeof(field_helpers) / sizeof(field_helpers[0]); i++)
		if (len == strlen(field_helpers[i]) && !memcmp(name, field_helpers[i], len))
			return accept(c, "(") && field_ref(c, true) && accept(c, ")");
	if (len == 6 && !memcmp(name, "sizeof", 6))
		return sizeof_arg(c);
	if (len == 11 && !memcmp(name, "__print_hex", len))
		return accept(c, "(") && data_source(c) && accept(c, ",") && data_length(c) &&
		       accept(c, ")");
	if (len == 15 && !memcmp(name, "__print_hex_str", len))
		return accept(c, "(") && data_source(c) && accept(c, ",") && data_length(c) &&
		       accept(c, ")");
	if (len == 13 && !memcmp(name, "__print_array", len))
		return accept(c, "(") && data_source(c) && accept(c, ",") && data_length(c) &&
		       accept(c, ",") && element_size(c) && accept(c, ")");
	for (size_t i = 0; i < sizeof(arg_helpers) / sizeof(arg_helpers[0]); i++)
		if (len == strlen(arg_helpers[i]) && !memcmp(name, arg_helpers[i], len))
			return accept(c, "(") && expr_list(c, ")");
	c->unsupported = true;
	return false;
}

static bool primary(struct fcheck *c)
{
	const char *name;
	size_t len;

	switch (c->tok) {
	case T_NUMBER:
	case T_CHAR:
		next(c);
		return true;
	case T_STRING:
		while (c->tok == T_STRING)
			next(c);
		return true;
	case T_IDENT:
		if (accept(c, "REC")) {
			if (!is(c, "->"))
				return false;
			next(c);
			return field_ref(c, false);
		}
		name = c->ts;
		len = c->tlen;
		next(c);
		if (is(c, "("))
			return call(c, name, len);
		/* atoms may be several words: "unsigned long" */
		while (c->tok == T_IDENT && !is(c, "REC"))
			next(c);
		return true;
	default:
		break;
	}
	return false;
}

/* "(type) x", "(type *)x" or "(expr)". */
static bool paren(struct fcheck *c)
{
	if (is(c, "{")) {
		/* a GNU statement expression: C that libtraceevent does not run */
		c->unsupported = true;
		return false;
	}
	if (!expr(c))
		return false;
	while (accept(c, "*"))
		;
	if (!accept(c, ")"))
		return false;
	/* a cast applies to what follows */
	if (c->tok == T_IDENT || c->tok == T_NUMBER || c->tok == T_STRING || is(c, "(") ||
	    is(c, "-") || is(c, "~") || is(c, "!"))
		return unary(c);
	return true;
}

/* "(REC)->field", which libtraceevent reads as REC->field. */
static bool paren_rec(struct fcheck *c)
{
	struct fcheck saved = *c;

	if (accept(c, "(") && accept(c, "REC") && accept(c, ")") && accept(c, "->"))
		return true;
	*c = saved;
	return false;
}

static bool postfix(struct fcheck *c)
{
	if (paren_rec(c)) {
		if (!field_ref(c, false))
			return false;
	} else if (accept(c, "(")) {
		if (!paren(c))
			return false;
	} else if (accept(c, "{")) {
		if (!expr_list(c, "}"))
			return false;
	} else if (!primary(c)) {
		return false;
	}
	while (accept(c, "[")) {
		if (!expr(c) || !accept(c, "]"))
			return false;
	}
	return true;
}

static bool unary(struct fcheck *c)
{
	bool ok;

	if (++c->depth > MAX_DEPTH)
		return false;
	while (is(c, "!") || is(c, "~") || is(c, "-") || is(c, "+"))
		next(c);
	ok = postfix(c);
	c->depth--;
	return ok;
}

/* At the '*' of "(void *)": a type's pointer star, not a multiplication. */
static bool pointer_type_end(struct fcheck *c)
{
	struct fcheck saved = *c;
	bool end;

	if (!is(c, "*"))
		return false;
	while (accept(c, "*"))
		;
	end = is(c, ")");
	*c = saved;
	return end;
}

/*
 * libtraceevent folds "atom / atom" at parse time, dividing by zero if the
 * divisor is 0: divide only by a non-zero literal or by sizeof(type).
 */
static bool safe_divisor(struct fcheck *c)
{
	struct fcheck saved = *c;
	bool ok;

	if (c->tok == T_NUMBER) {
		ok = strtoull(c->ts, NULL, 0) != 0;
		next(c);
	} else {
		ok = accept(c, "sizeof") && accept(c, "(") && !is(c, "REC");
		while (ok && c->tok == T_IDENT)
			next(c);
		ok = ok && accept(c, ")");
	}
	/* "x / 2 * 0" groups as x / (2 * 0) in libtraceevent */
	ok = ok && !is(c, "*") && !is(c, "/") && !is(c, "%");
	*c = saved;
	return ok;
}

static bool expr(struct fcheck *c)
{
	bool ok = false;

	if (++c->depth > MAX_DEPTH)
		return false;
	if (!unary(c))
		goto out;
	while (is_binary_op(c) && !pointer_type_end(c)) {
		bool divide = is(c, "/") || is(c, "%");

		next(c);
		if ((divide && !safe_divisor(c)) || !unary(c))
			goto out;
	}
	if (accept(c, "?"))
		ok = expr(c) && accept(c, ":") && expr(c);
	else
		ok = true;
out:
	c->depth--;
	return ok;
}

/* ", arg, arg...\n" after the format strings, to the end of the file. */
static bool print_args(struct fcheck *c)
{
	next(c);
	if (c->tok == T_NEWLINE) {
		next(c);
		return c->tok == T_END;
	}
	if (!accept(c, ","))
		return false;
	do {
		if (!expr(c))
			return false;
	} while (accept(c, ","));
	if (c->tok != T_NEWLINE)
		return false;
	next(c);
	return c->tok == T_END;
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
	if (c->p == c->end || *c->p != '"' || !quoted(c, '"'))
		return -EINVAL;
	/* "a" "b": adjacent literals */
	while (c->end - c->p >= 2 && c->p[0] == ' ' && c->p[1] == '"') {
		c->p++;
		if (!quoted(c, '"'))
			return -EINVAL;
	}
	if (print_args(c))
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

char *trace_format_escape_tabs(const char *buf, size_t size, size_t print_off, size_t *new_size)
{
	bool in_string = false;
	size_t n = 0, tabs = 0;
	char *out;

	for (size_t i = print_off; i < size; i++)
		tabs += buf[i] == '\t';
	out = malloc(size + tabs + 1);
	if (!out)
		return NULL;
	memcpy(out, buf, print_off);
	n = print_off;
	for (size_t i = print_off; i < size; i++) {
		if (in_string && buf[i] == '\\' && i + 1 < size) {
			out[n++] = buf[i++];
			out[n++] = buf[i];
			continue;
		}
		if (buf[i] == '"')
			in_string = !in_string;
		if (in_string && buf[i] == '\t') {
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
