// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* perf trace's plain beautifiers: numbers, pointers, fds, strings, pids, modes, enums. */
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include "syscall/beauty.h"

int sc_long(char *buf, size_t size, struct sc_arg *a)
{
	return scnprintf(buf, size, "%ld", (long)a->val);
}

/*
 * perf 6.1 as Debian builds it shows statx's flags and mask as nothing at
 * all (its tables for them come out empty): "flags: , mask: ".
 */
int sc_empty(char *buf, size_t size, struct sc_arg *a)
{
	if (size)
		buf[0] = '\0';
	return 0;
}

int sc_int(char *buf, size_t size, struct sc_arg *a)
{
	return scnprintf(buf, size, "%d", (int)a->val);
}

int sc_hex(char *buf, size_t size, struct sc_arg *a)
{
	return scnprintf(buf, size, "%#lx", (unsigned long)a->val);
}

int sc_ptr(char *buf, size_t size, struct sc_arg *a)
{
	if (!a->val)
		return scnprintf(buf, size, "NULL");
	return sc_hex(buf, size, a);
}

int sc_fd(char *buf, size_t size, struct sc_arg *a)
{
	int fd = (int)a->val, n = scnprintf(buf, size, "%d", fd);
	const struct ember_syscall_env *env = a->env;
	const char *path = env && env->fd_path && fd >= 0 ? env->fd_path(env->ctx, env->pid, fd) :
							    NULL;

	if (path)
		n += scnprintf(buf + n, size - n, "<%s>", path);
	return n;
}

int sc_fd_at(char *buf, size_t size, struct sc_arg *a)
{
	if ((int)a->val == -100)	/* AT_FDCWD */
		return scnprintf(buf, size, "CWD");
	return sc_fd(buf, size, a);
}

/* The string read at entry; perf without it shows the pointer's low 32 bits. */
int sc_filename(char *buf, size_t size, struct sc_arg *a)
{
	if (a->str)
		return scnprintf(buf, size, "\"%s\"", a->str);
	return scnprintf(buf, size, "%#x", (unsigned int)a->val);
}

int sc_pid(char *buf, size_t size, struct sc_arg *a)
{
	int pid = (int)a->val, n = scnprintf(buf, size, "%d", pid);
	const struct ember_syscall_env *env = a->env;
	const char *comm = env && env->comm ? env->comm(env->ctx, pid) : NULL;

	if (comm)
		n += scnprintf(buf + n, size - n, " (%s)", comm);
	return n;
}

/* The names of mode bits, in perf's order: whole groups first, then single bits. */
static const struct {
	unsigned int bits;
	const char *name;
} mode_names[] = {
	{ S_ISUID | S_ISGID | S_ISVTX | 0777, "IALLUGO" },
	{ 0777, "IRWXUGO" },
	{ S_IRUSR | S_IRGRP | S_IROTH, "IRUGO" },
	{ S_IWUSR | S_IWGRP | S_IWOTH, "IWUGO" },
	{ S_IXUSR | S_IXGRP | S_IXOTH, "IXUGO" },
	{ S_IFMT, "IFMT" },
	{ S_IFSOCK, "IFSOCK" },
	{ S_IFLNK, "IFLNK" },
	{ S_IFREG, "IFREG" },
	{ S_IFBLK, "IFBLK" },
	{ S_IFDIR, "IFDIR" },
	{ S_IFCHR, "IFCHR" },
	{ S_IFIFO, "IFIFO" },
	{ S_ISUID, "ISUID" },
	{ S_ISGID, "ISGID" },
	{ S_ISVTX, "ISVTX" },
	{ S_IRWXU, "IRWXU" },
	{ S_IRUSR, "IRUSR" },
	{ S_IWUSR, "IWUSR" },
	{ S_IXUSR, "IXUSR" },
	{ S_IRWXG, "IRWXG" },
	{ S_IRGRP, "IRGRP" },
	{ S_IWGRP, "IWGRP" },
	{ S_IXGRP, "IXGRP" },
	{ S_IRWXO, "IRWXO" },
	{ S_IROTH, "IROTH" },
	{ S_IWOTH, "IWOTH" },
	{ S_IXOTH, "IXOTH" },
};

int sc_mode_t(char *buf, size_t size, struct sc_arg *a)
{
	unsigned int mode = (unsigned int)a->val;
	int n = 0;

	for (size_t i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++) {
		if ((mode & mode_names[i].bits) != mode_names[i].bits)
			continue;
		n += scnprintf(buf + n, size - n, "%s%s", n ? "|" : "", mode_names[i].name);
		mode &= ~mode_names[i].bits;
	}
	if (mode)
		n += scnprintf(buf + n, size - n, "%s%#x", n ? "|" : "", mode);
	return n;
}

/* The name of val in sa, or NULL. */
static const char *strarray_name(const struct sc_strarray *sa, int val)
{
	int i = val - sa->offset;

	return i >= 0 && i < sa->nr ? sa->names[i] : NULL;
}

int sc_strarray(char *buf, size_t size, struct sc_arg *a)
{
	const char *name = strarray_name(a->parm, (int)a->val);

	return name ? scnprintf(buf, size, "%s", name) : scnprintf(buf, size, "%d", (int)a->val);
}

/* Several tables (fcntl's commands and Linux's own): the first that covers val decides. */
int sc_strarrays(char *buf, size_t size, struct sc_arg *a)
{
	const struct sc_strarray *const *sas = a->parm;

	for (int i = 0; sas[i]; i++) {
		int idx = (int)a->val - sas[i]->offset;

		if (idx >= 0 && idx < sas[i]->nr) {
			if (!sas[i]->names[idx])
				break;
			return scnprintf(buf, size, "%s", sas[i]->names[idx]);
		}
	}
	return scnprintf(buf, size, "%d", (int)a->val);
}

static const char *const signal_names[] = {
	[SIGHUP] = "HUP", [SIGINT] = "INT", [SIGQUIT] = "QUIT", [SIGILL] = "ILL",
	[SIGTRAP] = "TRAP", [SIGABRT] = "ABRT", [SIGBUS] = "BUS", [SIGFPE] = "FPE",
	[SIGKILL] = "KILL", [SIGUSR1] = "USR1", [SIGSEGV] = "SEGV", [SIGUSR2] = "USR2",
	[SIGPIPE] = "PIPE", [SIGALRM] = "ALRM", [SIGTERM] = "TERM", [SIGSTKFLT] = "STKFLT",
	[SIGCHLD] = "CHLD", [SIGCONT] = "CONT", [SIGSTOP] = "STOP", [SIGTSTP] = "TSTP",
	[SIGTTIN] = "TTIN", [SIGTTOU] = "TTOU", [SIGURG] = "URG", [SIGXCPU] = "XCPU",
	[SIGXFSZ] = "XFSZ", [SIGVTALRM] = "VTALRM", [SIGPROF] = "PROF", [SIGWINCH] = "WINCH",
	[SIGIO] = "IO", [SIGPWR] = "PWR", [SIGSYS] = "SYS",
};

const char *ember_signal__name(int sig)
{
	if (sig <= 0 || sig >= (int)(sizeof(signal_names) / sizeof(signal_names[0])))
		return NULL;
	return signal_names[sig];
}

int sc_signum(char *buf, size_t size, struct sc_arg *a)
{
	const char *name = ember_signal__name((int)a->val);

	return name ? scnprintf(buf, size, "%s", name) : scnprintf(buf, size, "%#x", (int)a->val);
}
