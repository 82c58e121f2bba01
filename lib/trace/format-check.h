/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The state of format-check.c (the file and its fields) shared with
 * format-args.c (the print fmt's arguments).
 */
#ifndef EMBER_LIB_TRACE_FORMAT_CHECK_H
#define EMBER_LIB_TRACE_FORMAT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include "trace/trace.h"

enum fc_tok { T_END, T_NEWLINE, T_IDENT, T_NUMBER, T_STRING, T_CHAR, T_PUNCT, T_BAD };

/* A field the format declares. */
struct field_name {
	const char *name;		/* into the format text */
	size_t len;
	unsigned long size;
	bool array;			/* an array or a __data_loc */
};

struct fcheck {
	const char *start, *p, *end;
	struct field_name *fields;
	int nr, alloc;
	/* the current token of the print args */
	enum fc_tok tok;
	const char *ts;
	size_t tlen;
	int depth;
	bool unsupported;		/* valid, but beyond what libtraceevent prints */
	struct trace_format_info *info;
};

/* C identifier characters: [A-Za-z_] to start, [A-Za-z0-9_] after. */
bool fc_is_ident_start(char ch);
bool fc_is_ident(char ch);
/* Skip the chars fn accepts; returns how many. */
size_t fc_skip_while(struct fcheck *c, bool (*fn)(char));
/* Past a quoted text at c->p (its opening quote); raw newlines allowed. */
bool fc_quoted(struct fcheck *c, char quote);
/* The declared field called name[0..len), or NULL. */
const struct field_name *fc_find_field(const struct fcheck *c, const char *name, size_t len);

/* ", arg, arg...\n" after the print fmt strings, to the end of the file. */
bool fc_print_args(struct fcheck *c);

#endif
