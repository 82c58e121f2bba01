/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Frame and root names by stackcollapse-perf.pl's rules (see include/ember/collapse.h). */
#ifndef EMBER_LIB_COLLAPSE_TIDY_H
#define EMBER_LIB_COLLAPSE_TIDY_H

#include <stdbool.h>
#include "collapse/parse.h"
#include "collapse/sbuf.h"

struct tidy_opts {
	bool kernel, jit, addrs;
};

/*
 * Perl's split /->/: the pieces of a symbol, with the trailing empty
 * ones dropped (none at all for an empty symbol). Iterate with
 * piece_next() until it returns false.
 */
struct piece_iter {
	const char *s, *end;	/* end: after the last non-empty piece */
	const char *pos;
	bool done;
};

void piece_iter_init(struct piece_iter *it, const char *s, size_t n);
bool piece_next(struct piece_iter *it, struct span *piece);

/*
 * Appends the name of one piece (index idx within its frame) to out:
 * [unknown] replacement, tidy_generic, tidy_java (java: the root starts
 * with "java") and the annotations. *unknown is set when the piece was
 * "[unknown]" in an unknown dso (no srcline is read for it). 0 or -ENOMEM.
 */
int tidy_piece(const struct tidy_opts *o, bool java, struct span piece, size_t idx, struct span pc,
	       struct span mod, struct sbuf *out, bool *unknown);

/* The --srcline suffix: the line with [..] parts removed, trimmed; appends ":TEXT" unless empty. */
int tidy_srcline(const char *line, size_t n, struct sbuf *out);

/* Root name: comm-pid/tid per the flags, spaces made '_'. */
int tidy_root(bool with_pid, bool with_tid, struct span comm, struct span pid, struct span tid,
	      struct sbuf *out);

#endif
