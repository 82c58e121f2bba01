/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The line grammar of stackcollapse-perf.pl, as plain functions over
 * (pointer, length): no allocation, any bytes, linear time. Each function
 * gives the captures Perl's backtracking regular expression would give on
 * the same line (see the comments in parse.c for the derivations).
 */
#ifndef EMBER_LIB_COLLAPSE_PARSE_H
#define EMBER_LIB_COLLAPSE_PARSE_H

#include <stdbool.h>
#include <stddef.h>

struct span {
	const char *p;
	size_t len;
};

/* m{^(\S.+?)\s+(\d+)[/]*(\d+)*\s+}: comm, pid (first number), tid (second, p NULL if none). */
struct collapse_header {
	struct span comm, num1, num2;
	size_t end;	/* the blank that ends the match: the bytes before it decide it */
};

/*
 * /:\s*(\d+)*\s+(\S+):\s*$/: period (p NULL if none), event. The match
 * read only the line's bytes from offset from on: a line that ends with
 * the same bytes gives the same captures, as far from its end.
 */
struct collapse_event {
	struct span period, name;
	size_t from;
};

/* /^\s*(\w+)\s*(.+) \((.*)\)/: pc, rawfunc, mod. */
struct collapse_frame {
	struct span pc, func, mod;
};

/*
 * Perl's \s, \d and \w on bytes (no locale, no UTF-8): ASCII only. A
 * table, since every line's address is scanned byte by byte.
 */
#define CL_SPACE 1
#define CL_DIGIT 2
#define CL_WORD 4
extern const unsigned char collapse_ctype[256];

static inline bool cl_is_space(unsigned char c)
{
	return collapse_ctype[c] & CL_SPACE;
}

static inline bool cl_is_digit(unsigned char c)
{
	return collapse_ctype[c] & CL_DIGIT;
}

static inline bool cl_is_word(unsigned char c)
{
	return collapse_ctype[c] & CL_WORD;
}

bool collapse_parse_header(const char *l, size_t n, struct collapse_header *h);
bool collapse_parse_event(const char *l, size_t n, struct collapse_event *ev);
bool collapse_parse_frame(const char *l, size_t n, struct collapse_frame *f);

/* s/\+0x[\da-f]+$//: the length without a trailing "+0x<hex>". */
size_t collapse_strip_offset(const char *s, size_t n);
/* m/(perf-\d+.map|kernel\.|\[[^\]]+\])/: frames --inline leaves alone. */
bool collapse_mod_no_inline(const char *mod, size_t n);
/* m/(^\[|vmlinux$)/ && !m/unknown/: a kernel frame for --kernel. */
bool collapse_mod_is_kernel(const char *mod, size_t n);
/* m:/tmp/perf-\d+\.map:: a JIT frame for --jit. */
bool collapse_mod_is_jit(const char *mod, size_t n);
/* Whether [s, s+n) contains needle. */
bool collapse_contains(const char *s, size_t n, const char *needle);

#endif
