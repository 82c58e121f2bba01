/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The system calls of x86_64: numbers and names, as the kernel headers ember
 * was built with define them (perf's table, from the same source).
 */
#ifndef EMBER_SYSCALL_H
#define EMBER_SYSCALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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

/*
 * The first syscall number from `from` on whose name matches glob (fnmatch's
 * *, ?, [...]), or -ENOENT: for (nr = next_match(g, 0); nr >= 0;
 * nr = next_match(g, nr + 1)).
 */
EMBER_API int ember_syscall__next_match(const char *glob, int from);
/*
 * The syscall names closest to name (a typo), best first, at most three,
 * ", " between them, into buf. Returns how many, 0 when none is close.
 */
EMBER_API int ember_syscall__suggest(const char *name, char *buf, size_t size);

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
 * What perf trace's beautifiers need to know about the calling process,
 * each NULL when not known; the strings stay valid until the next call.
 * fd_path: the path behind fd in pid. comm: the name of a pid passed as an
 * argument (perf reads /proc for one it has not seen). ret_comm: the name
 * of a pid a call returned (clone, wait4), NULL when perf would not know
 * that thread: then it prints no value at all.
 */
struct ember_syscall_env {
	pid_t pid;			/* the caller */
	pid_t tid;
	const char *(*fd_path)(void *ctx, pid_t pid, int fd);
	const char *(*comm)(void *ctx, pid_t pid);
	const char *(*ret_comm)(void *ctx, pid_t pid, pid_t caller);
	void *ctx;
};

/* Every syscall's format and beautifiers, read from tracefs as they are first needed. */
struct ember_syscalls;

/*
 * A table reading formats from root (the directory holding events/, see
 * ember_tracefs__find()). NULL with errno set. Freed with
 * ember_syscalls__delete().
 */
EMBER_API struct ember_syscalls *ember_syscalls__new(const char *root);
EMBER_API void ember_syscalls__delete(struct ember_syscalls *t);
/*
 * The arguments of syscall nr as tracefs declares them (for stat, fstat,
 * uname... under their kernel names newstat, newfstat, newuname), or NULL
 * when tracefs has no event for it: perf trace shows no such syscall.
 */
EMBER_API const struct ember_syscall_format *ember_syscalls__format(struct ember_syscalls *t,
								    int nr);
/*
 * The arguments of syscall nr that perf trace shows as strings (paths,
 * names): bit i for argument i. 0 for one without, or unknown.
 */
EMBER_API unsigned int ember_syscalls__string_args(struct ember_syscalls *t, int nr);
/*
 * perf trace's text for a call's arguments into buf (size bytes, NUL
 * ended): "dfd: CWD, filename: \"/etc/passwd\", flags: RDONLY|CLOEXEC";
 * names from tracefs, zeros left out, values beautified. strs[i] is the
 * string read at entry for argument i, or NULL (then perf's pointer). env
 * may be NULL. Returns the length written.
 */
EMBER_API int ember_syscalls__scnprintf_args(struct ember_syscalls *t, int nr,
					     const uint64_t args[EMBER_SYSCALL_MAX_ARGS],
					     const char *const strs[EMBER_SYSCALL_MAX_ARGS],
					     const struct ember_syscall_env *env, char *buf,
					     size_t size);
/*
 * perf trace's text for a return value: "3", "0x7f12a000", "-1 ENOENT (No
 * such file or directory)", "0 (Timeout)", "1234 (comm)". args are the
 * call's (fcntl's command decides), or NULL when its entry was not seen.
 */
EMBER_API int ember_syscalls__scnprintf_ret(struct ember_syscalls *t, int nr,
					    const uint64_t args[EMBER_SYSCALL_MAX_ARGS], int64_t ret,
					    const struct ember_syscall_env *env, char *buf,
					    size_t size);

/* A signal's name as perf trace shows it ("SEGV"), or NULL. Static storage. */
EMBER_API const char *ember_signal__name(int sig);
/* An errno's name ("ENOENT"), or NULL. Static storage. */
EMBER_API const char *ember_errno__name(int err);

/*
 * perf trace's text for one field of a tracepoint it prints (-e sys:name):
 * the rules it gives syscall arguments by type and name (pid_t with its
 * command, pointers in hex, *fd with its path), and char arrays quoted.
 * str is the field's text for arrays, else val its value. Returns the
 * length written.
 */
EMBER_API int ember_syscall__scnprintf_field(const struct ember_syscall_arg *field, bool is_array,
					     uint64_t val, const char *str,
					     const struct ember_syscall_env *env, char *buf,
					     size_t size);

#ifdef __cplusplus
}
#endif

#endif
