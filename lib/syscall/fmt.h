/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* perf trace's per-syscall formats (fmt.c), and an argument list resolved with them. */
#ifndef EMBER_LIB_SYSCALL_FMT_H
#define EMBER_LIB_SYSCALL_FMT_H

#include "syscall/beauty.h"

struct sc_fmt {
	const char *name;
	const char *alias;		/* the tracefs event's name when it differs */
	struct sc_arg_fmt arg[EMBER_SYSCALL_MAX_ARGS];
	bool errpid;			/* returns a pid: shown with its comm */
	bool timeout;			/* 0 is "0 (Timeout)" */
	bool hexret;
};

/* The whole table, sorted by name (for its test). */
const struct sc_fmt *fmt__table(size_t *nr);
/* perf's entry for the syscall called name, or NULL. */
const struct sc_fmt *fmt__find(const char *name);

/*
 * Each argument's formatter: fmt's, else perf's rule by type and name
 * (strings, pointers, pids, modes, fds), else none (%ld). string_args gets
 * the arguments shown as strings (bit i for argument i).
 */
void fmt__resolve(const struct sc_fmt *fmt, const struct ember_syscall_format *format,
		  struct sc_arg_fmt out[EMBER_SYSCALL_MAX_ARGS], unsigned int *string_args);

#endif
