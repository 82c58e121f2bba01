/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * perf trace's argument beautifiers, inside lib/syscall: each writes one
 * argument's text (scnprintf's contract: never more than size - 1 bytes,
 * returns what it wrote) and may mask later arguments (mmap's fd when
 * anonymous, openat's mode without O_CREAT) or pick the return's format.
 */
#ifndef EMBER_LIB_SYSCALL_BEAUTY_H
#define EMBER_LIB_SYSCALL_BEAUTY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ember/syscall.h>
#include "core/scnprintf.h"

/* How a return value is shown when it is not an error. */
enum sc_ret {
	SC_RET_SIGNED,		/* %ld */
	SC_RET_HEX,		/* %#lx (brk, mmap) */
	SC_RET_PID,		/* the pid and its comm (clone, getpid) */
	SC_RET_FD,		/* an fd and its path (fcntl F_DUPFD) */
	SC_RET_OPEN_FLAGS,	/* fcntl F_GETFL */
	SC_RET_FD_FLAGS,	/* fcntl F_GETFD: CLOEXEC or 0 */
};

struct sc_arg {
	uint64_t val;
	const uint64_t *args;		/* the call's six raw arguments */
	const char *str;		/* the string read at entry for this argument, or NULL */
	const void *parm;		/* the formatter's table, if any */
	int idx;
	unsigned int mask;		/* bit i: argument i is not shown */
	enum sc_ret *ret;		/* set by formatters that decide the return's format */
	const struct ember_syscall_env *env;
};

typedef int (*sc_fmt_fn)(char *buf, size_t size, struct sc_arg *a);

/* A value -> name table, the names at [value - offset]. */
struct sc_strarray {
	int offset;
	int nr;
	const char *const *names;
};

/* A formatter and what it needs. */
struct sc_arg_fmt {
	sc_fmt_fn fn;
	const void *parm;		/* a struct sc_strarray for sc_strarray() and co */
	bool show_zero;
};

/* The formatters (beauty-*.c), as perf trace names them. */
int sc_long(char *buf, size_t size, struct sc_arg *a);		/* the default: %ld */
int sc_empty(char *buf, size_t size, struct sc_arg *a);		/* nothing (perf 6.1's statx) */
int sc_int(char *buf, size_t size, struct sc_arg *a);
int sc_hex(char *buf, size_t size, struct sc_arg *a);
int sc_ptr(char *buf, size_t size, struct sc_arg *a);		/* NULL or hex */
int sc_fd(char *buf, size_t size, struct sc_arg *a);		/* 3</etc/passwd> */
int sc_fd_at(char *buf, size_t size, struct sc_arg *a);		/* CWD or an fd */
int sc_filename(char *buf, size_t size, struct sc_arg *a);	/* "the string" */
int sc_pid(char *buf, size_t size, struct sc_arg *a);		/* 42 (comm) */
int sc_mode_t(char *buf, size_t size, struct sc_arg *a);
int sc_strarray(char *buf, size_t size, struct sc_arg *a);	/* parm: one table, %d else */
int sc_strarrays(char *buf, size_t size, struct sc_arg *a);	/* parm: NULL-ended tables */
int sc_open_flags(char *buf, size_t size, struct sc_arg *a);
int sc_access_mode(char *buf, size_t size, struct sc_arg *a);
int sc_mmap_prot(char *buf, size_t size, struct sc_arg *a);
int sc_mmap_flags(char *buf, size_t size, struct sc_arg *a);
int sc_mremap_flags(char *buf, size_t size, struct sc_arg *a);
int sc_madvise_behavior(char *buf, size_t size, struct sc_arg *a);
int sc_signum(char *buf, size_t size, struct sc_arg *a);
int sc_clone_flags(char *buf, size_t size, struct sc_arg *a);
int sc_futex_op(char *buf, size_t size, struct sc_arg *a);
int sc_futex_val3(char *buf, size_t size, struct sc_arg *a);
int sc_waitid_options(char *buf, size_t size, struct sc_arg *a);
int sc_getrandom_flags(char *buf, size_t size, struct sc_arg *a);
int sc_pipe_flags(char *buf, size_t size, struct sc_arg *a);
int sc_eventfd_flags(char *buf, size_t size, struct sc_arg *a);
int sc_fcntl_cmd(char *buf, size_t size, struct sc_arg *a);
int sc_fcntl_arg(char *buf, size_t size, struct sc_arg *a);
int sc_flock(char *buf, size_t size, struct sc_arg *a);
int sc_msg_flags(char *buf, size_t size, struct sc_arg *a);
int sc_socket_type(char *buf, size_t size, struct sc_arg *a);
int sc_renameat2_flags(char *buf, size_t size, struct sc_arg *a);
int sc_arch_prctl_code(char *buf, size_t size, struct sc_arg *a);
int sc_prctl_option(char *buf, size_t size, struct sc_arg *a);
int sc_prctl_arg2(char *buf, size_t size, struct sc_arg *a);
int sc_prctl_arg3(char *buf, size_t size, struct sc_arg *a);
int sc_ioctl_cmd(char *buf, size_t size, struct sc_arg *a);
int sc_sched_policy(char *buf, size_t size, struct sc_arg *a);

/* The value tables sc_strarray() reads (beauty-values.c). */
extern const struct sc_strarray sc_bpf_cmds, sc_epoll_ctl_ops, sc_itimers, sc_keyctl_options,
	sc_whences, sc_rlimit_resources, sc_sighow, sc_clockids, sc_socket_families,
	sc_socket_levels;
extern const struct sc_strarray *const sc_fcntl_cmds[];

/* perf's text of F_GETFD/F_SETFD flags (inverted, as perf 6.1). */
int sc_fd_flags_str(char *buf, size_t size, unsigned long flags);
/* perf's text of open flags (O_ names without the prefix). */
int sc_open_flags_str(char *buf, size_t size, unsigned long flags);

#endif
