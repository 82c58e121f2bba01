/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The system calls of x86_64: numbers and names, as the kernel headers ember
 * was built with define them (perf's table, from the same source).
 */
#ifndef EMBER_SYSCALL_H
#define EMBER_SYSCALL_H

#include <stdbool.h>

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The name of syscall nr ("openat"), static storage; NULL when nr is not one. */
EMBER_API const char *ember_syscall__name(int nr);
/* The number of the syscall called name, or -ENOENT. */
EMBER_API int ember_syscall__number(const char *name);
/* One past the highest syscall number the table knows. */
EMBER_API int ember_syscall__max(void);

#define EMBER_SYSCALL_MAX_ARGS	6

/* One argument as tracefs' events/syscalls/sys_enter_NAME/format declares it. */
struct ember_syscall_arg {
	char name[32];		/* "filename" */
	char type[48];		/* "const char *" */
};

/* A syscall's arguments; nr_args 0 for one that takes none. */
struct ember_syscall_format {
	int nr_args;
	struct ember_syscall_arg args[EMBER_SYSCALL_MAX_ARGS];
};

/*
 * Read the arguments of syscall name from tracefs (root: the directory
 * holding events/, see ember_tracefs__find()) into *fmt. Returns 0, or
 * -ENOENT when the kernel has no such syscall event, or -errno.
 */
EMBER_API int ember_syscall__read_format(const char *root, const char *name,
					 struct ember_syscall_format *fmt);
/*
 * Whether argument arg is a string the caller passes in (a path, a name),
 * to read from its memory at entry: "const char *" but data buffers.
 */
EMBER_API bool ember_syscall_arg__is_string(const struct ember_syscall_arg *arg);

#ifdef __cplusplus
}
#endif

#endif
