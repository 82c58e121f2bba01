/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* lib/probe's own helpers, shared by the definition parser and the line writer. */
#ifndef EMBER_LIB_PROBE_PRIV_H
#define EMBER_LIB_PROBE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ember/probe.h>

/* Where derived argument names go: the second half of a definition's buffer. */
struct probe_names {
	char *next;
	char *end;
};

/*
 * Parse one argument word (NUL-terminated, modified in place) into arg;
 * a name taken from the last member goes to names. 0, or -EINVAL /
 * -E2BIG with err filled.
 */
int probe_arg__parse(struct ember_probe_arg *arg, char *word, struct probe_names *names,
		     char *err, size_t errsz);

/* snprintf in steps that keeps counting past the end, for "returns the length" contracts. */
struct probe_sbuf {
	char *buf;
	size_t size;
	size_t len;
	bool failed;	/* an encoding error */
};

__attribute__((format(printf, 2, 3)))
void probe_sbuf__add(struct probe_sbuf *b, const char *fmt, ...);

/* Whether type is one the kernel's fetch arguments take (s8..x64, string, ustring). */
bool probe__valid_type(const char *type);

/*
 * Whether value is a fetch argument tracefs takes for this kind of
 * probe: %REG, @ADDR, @SYM[+-OFF] (kprobes), $retval (return probes),
 * $stack, $stackN, $comm, $argN, \IMM, [+-]OFF(FETCHARG) nested a few
 * levels, and a kprobe's +u...(...) user-memory form. Blanks, controls
 * and anything else make it false.
 */
bool probe__valid_fetcharg(const char *value, bool uprobe, bool retprobe);

/* The definition's arguments as t's fetch arguments (pointing into def). */
void probe_trace__set_args(struct ember_probe_trace *t, const struct ember_probe_def *def);

/*
 * The file offset of the first symbol named name (its version cut) in
 * the binary at path, where perf looks a function up when DWARF did not
 * name it. 0, -ENOENT, -errno.
 */
int probe__symbol_start(const char *path, const char *name, uint64_t *start);

/* A source file as perf shows it after '@': its last 30 characters, from a '/'. */
const char *probe__short_file(const char *file);

/* One kallsyms line: address, type letter, name (with "\t[module]" for a module's). */
typedef int (*probe_kallsyms_fn)(uint64_t addr, int type, const char *name, void *arg);
/* Each well-formed line of the kallsyms file at path. 0, fn's non-zero return, -errno. */
int probe__kallsyms_walk(const char *path, probe_kallsyms_fn fn, void *arg);

#endif
