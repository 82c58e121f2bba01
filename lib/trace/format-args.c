// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The print fmt's arguments, checked by a small recursive-descent parser of
 * the C expressions libtraceevent evaluates: REC->field, numbers, strings,
 * casts, operators and the helpers it implements (__print_flags, __get_str,
 * __print_hex...), with the extra rules that keep its parser and printer
 * safe: known fields only, no division by what could fold to zero, dump
 * lengths it cannot overrun. Anything else sets c->unsupported (C it does
 * not run) or fails (malformed).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "trace/format-check.h"

#define MAX_DEPTH 200

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static const char *const two_char_ops[] = {
	"->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
};

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
	} else if (fc_is_ident_start(ch)) {
		c->tok = T_IDENT;
		fc_skip_while(c, fc_is_ident);
	} else if (is_digit(ch)) {
		c->tok = T_NUMBER;
		fc_skip_while(c, fc_is_ident);	/* 0x1f, 10UL */
	} else if (ch == '"' || ch == '\'') {
		c->tok = fc_quoted(c, ch) ? ch == '"' ? T_STRING : T_CHAR : T_BAD;
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
	f = fc_find_field(c, c->ts, c->tlen);
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
		f = c->tok == T_IDENT ? fc_find_field(c, c->ts, c->tlen) : NULL;
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
		f = fc_find_field(c, c->ts, c->tlen);
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

bool fc_print_args(struct fcheck *c)
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
