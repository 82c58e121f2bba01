// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf trace's knowledge of particular syscalls: which argument gets which
 * beautifier, and how the return reads (hex, a pid, "0 (Timeout)"), by
 * syscall name; the arguments it does not list get perf's rules by type and
 * name (see fmt__resolve()).
 */
#include <stdlib.h>
#include <string.h>
#include "syscall/fmt.h"

#define A(i, f) [i] = { .fn = (f) }
#define SA(i, table) [i] = { .fn = sc_strarray, .parm = &(table) }

/* Sorted by name (bsearch). */
static const struct sc_fmt fmts[] = {
	{ "access", .arg = { A(1, sc_access_mode) } },
	{ "arch_prctl", .arg = { A(0, sc_arch_prctl_code), A(1, sc_ptr) } },
	{ "bind", .arg = { A(0, sc_int), A(1, sc_hex), A(2, sc_int) } },
	{ "bpf", .arg = { SA(0, sc_bpf_cmds) } },
	{ "brk", .hexret = true, .arg = { A(0, sc_ptr) } },
	{ "clock_gettime", .arg = { SA(0, sc_clockids) } },
	{ "clone", .errpid = true,
	  .arg = { A(0, sc_clone_flags), A(1, sc_hex), A(2, sc_hex), A(3, sc_hex), A(4, sc_hex) } },
	{ "close", .arg = { A(0, sc_fd) } },
	{ "connect", .arg = { A(0, sc_int), A(1, sc_hex), A(2, sc_int) } },
	{ "epoll_ctl", .arg = { SA(1, sc_epoll_ctl_ops) } },
	{ "eventfd2", .arg = { A(1, sc_eventfd_flags) } },
	{ "fchmodat", .arg = { A(0, sc_fd_at) } },
	{ "fchownat", .arg = { A(0, sc_fd_at) } },
	{ "fcntl", .arg = { [1] = { .fn = sc_fcntl_cmd, .parm = sc_fcntl_cmds, .show_zero = true },
			    A(2, sc_fcntl_arg) } },
	{ "flock", .arg = { A(1, sc_flock) } },
	{ "fstat", .alias = "newfstat" },
	{ "fstatat", .alias = "newfstatat" },
	{ "futex", .arg = { A(1, sc_futex_op), A(5, sc_futex_val3) } },
	{ "futimesat", .arg = { A(0, sc_fd_at) } },
	{ "getitimer", .arg = { SA(0, sc_itimers) } },
	{ "getpgid", .errpid = true },
	{ "getppid", .errpid = true },
	{ "getrandom", .arg = { A(2, sc_getrandom_flags) } },
	{ "getrlimit", .arg = { SA(0, sc_rlimit_resources) } },
	{ "getsockopt", .arg = { SA(1, sc_socket_levels) } },
	{ "gettid", .errpid = true },
	{ "ioctl", .arg = { A(1, sc_ioctl_cmd), A(2, sc_hex) } },
	{ "keyctl", .arg = { SA(0, sc_keyctl_options) } },
	{ "kill", .arg = { A(1, sc_signum) } },
	{ "linkat", .arg = { A(0, sc_fd_at) } },
	{ "lseek", .arg = { SA(2, sc_whences) } },
	{ "lstat", .alias = "newlstat" },
	{ "madvise", .arg = { A(0, sc_hex), A(2, sc_madvise_behavior) } },
	{ "mkdirat", .arg = { A(0, sc_fd_at) } },
	{ "mknodat", .arg = { A(0, sc_fd_at) } },
	{ "mmap", .hexret = true,
	  .arg = { A(2, sc_mmap_prot), A(3, sc_mmap_flags), A(5, sc_hex) } },
	{ "mount", .arg = { A(0, sc_filename) } },
	{ "mprotect", .arg = { A(0, sc_hex), A(2, sc_mmap_prot) } },
	{ "mq_unlink", .arg = { A(0, sc_filename) } },
	{ "mremap", .hexret = true, .arg = { A(3, sc_mremap_flags) } },
	{ "name_to_handle_at", .arg = { A(0, sc_fd_at) } },
	{ "newfstatat", .arg = { A(0, sc_fd_at) } },
	{ "open", .arg = { A(1, sc_open_flags) } },
	{ "open_by_handle_at", .arg = { A(0, sc_fd_at), A(2, sc_open_flags) } },
	{ "openat", .arg = { A(0, sc_fd_at), A(2, sc_open_flags) } },
	{ "perf_event_open", .arg = { A(2, sc_int), A(3, sc_fd) } },
	{ "pipe2", .arg = { A(1, sc_pipe_flags) } },
	{ "pkey_free", .arg = { A(0, sc_int) } },
	{ "pkey_mprotect", .arg = { A(0, sc_hex), A(2, sc_mmap_prot), A(3, sc_int) } },
	{ "poll", .timeout = true },
	{ "ppoll", .timeout = true },
	{ "prctl", .arg = { A(0, sc_prctl_option), A(1, sc_prctl_arg2), A(2, sc_prctl_arg3) } },
	{ "pread", .alias = "pread64" },
	{ "preadv", .alias = "pread" },
	{ "prlimit64", .arg = { SA(1, sc_rlimit_resources) } },
	{ "pwrite", .alias = "pwrite64" },
	{ "readlinkat", .arg = { A(0, sc_fd_at) } },
	{ "recvfrom", .arg = { A(3, sc_msg_flags) } },
	{ "recvmmsg", .arg = { A(3, sc_msg_flags) } },
	{ "recvmsg", .arg = { A(2, sc_msg_flags) } },
	{ "renameat", .arg = { A(0, sc_fd_at), A(2, sc_fd_at) } },
	{ "renameat2", .arg = { A(0, sc_fd_at), A(2, sc_fd_at), A(4, sc_renameat2_flags) } },
	{ "rt_sigaction", .arg = { A(0, sc_signum) } },
	{ "rt_sigprocmask", .arg = { SA(0, sc_sighow) } },
	{ "rt_sigqueueinfo", .arg = { A(1, sc_signum) } },
	{ "rt_tgsigqueueinfo", .arg = { A(2, sc_signum) } },
	{ "sched_setscheduler", .arg = { A(1, sc_sched_policy) } },
	{ "select", .timeout = true },
	{ "sendfile", .alias = "sendfile64" },
	{ "sendmmsg", .arg = { A(3, sc_msg_flags) } },
	{ "sendmsg", .arg = { A(2, sc_msg_flags) } },
	{ "sendto", .arg = { A(3, sc_msg_flags), A(4, sc_hex) } },
	{ "set_tid_address", .errpid = true },
	{ "setitimer", .arg = { SA(0, sc_itimers) } },
	{ "setrlimit", .arg = { SA(0, sc_rlimit_resources) } },
	{ "setsockopt", .arg = { SA(1, sc_socket_levels) } },
	{ "socket", .arg = { SA(0, sc_socket_families), A(1, sc_socket_type) } },
	{ "socketpair", .arg = { SA(0, sc_socket_families), A(1, sc_socket_type) } },
	{ "stat", .alias = "newstat" },
	{ "statx", .arg = { A(0, sc_fd_at), A(2, sc_empty), A(3, sc_empty) } },
	{ "swapoff", .arg = { A(0, sc_filename) } },
	{ "swapon", .arg = { A(0, sc_filename) } },
	{ "symlinkat", .arg = { A(0, sc_fd_at) } },
	{ "tgkill", .arg = { A(2, sc_signum) } },
	{ "tkill", .arg = { A(1, sc_signum) } },
	{ "umount2", .alias = "umount", .arg = { A(0, sc_filename) } },
	{ "uname", .alias = "newuname" },
	{ "unlinkat", .arg = { A(0, sc_fd_at) } },
	{ "utimensat", .arg = { A(0, sc_fd_at) } },
	{ "wait4", .errpid = true, .arg = { A(2, sc_waitid_options) } },
	{ "waitid", .errpid = true, .arg = { A(3, sc_waitid_options) } },
};

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct sc_fmt *)elem)->name);
}

const struct sc_fmt *fmt__table(size_t *nr)
{
	*nr = sizeof(fmts) / sizeof(fmts[0]);
	return fmts;
}

const struct sc_fmt *fmt__find(const char *name)
{
	return bsearch(name, fmts, sizeof(fmts) / sizeof(fmts[0]), sizeof(fmts[0]), cmp_name);
}

/* Whether name ends with suffix. */
static bool ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);

	return n >= m && !strcmp(name + n - m, suffix);
}

/* perf's rules for an argument its table leaves alone, by type and name. */
static struct sc_arg_fmt by_type(const struct ember_syscall_arg *arg)
{
	const char *type = arg->type, *name = arg->name;

	if (!strcmp(type, "const char *") && (ends_with(name, "name") || strstr(name, "path")))
		return (struct sc_arg_fmt){ .fn = sc_filename };
	if (strchr(type, '*') || strstr(name, "addr"))
		return (struct sc_arg_fmt){ .fn = sc_ptr };
	if (!strcmp(type, "pid_t"))
		return (struct sc_arg_fmt){ .fn = sc_pid };
	if (!strcmp(type, "umode_t"))
		return (struct sc_arg_fmt){ .fn = sc_mode_t };
	if ((!strcmp(type, "int") || !strcmp(type, "unsigned int") || !strcmp(type, "long")) &&
	    ends_with(name, "fd"))
		return (struct sc_arg_fmt){ .fn = sc_fd };
	return (struct sc_arg_fmt){ 0 };
}

void fmt__resolve(const struct sc_fmt *fmt, const struct ember_syscall_format *format,
		  struct sc_arg_fmt out[EMBER_SYSCALL_MAX_ARGS], unsigned int *string_args)
{
	*string_args = 0;
	for (int i = 0; i < EMBER_SYSCALL_MAX_ARGS; i++) {
		out[i] = fmt ? fmt->arg[i] : (struct sc_arg_fmt){ 0 };
		if (!out[i].fn && i < format->nr_args)
			out[i] = by_type(&format->args[i]);
		if (out[i].fn == sc_filename && i < format->nr_args)
			*string_args |= 1u << i;
	}
}

int ember_syscall__scnprintf_field(const struct ember_syscall_arg *field, bool is_array,
				   uint64_t val, const char *str,
				   const struct ember_syscall_env *env, char *buf, size_t size)
{
	struct sc_arg a = { .val = val, .env = env };
	struct sc_arg_fmt f;

	if (is_array) {
		if (strstr(field->type, "char"))
			return scnprintf(buf, size, "\"%s\"", str ? str : "");
		return scnprintf(buf, size, "%ld", (long)val);
	}
	f = by_type(field);
	return (f.fn ? f.fn : sc_long)(buf, size, &a);
}
