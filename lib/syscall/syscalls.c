// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The syscall table with each syscall's arguments read from tracefs on
 * first use, and perf trace's text for a call's arguments and return.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "syscall/fmt.h"

struct sc_info {
	bool loaded;
	bool have_format;		/* tracefs has sys_enter_NAME (or its alias) */
	const struct sc_fmt *fmt;
	struct ember_syscall_format format;
	struct sc_arg_fmt arg[EMBER_SYSCALL_MAX_ARGS];
	unsigned int string_args;
};

struct ember_syscalls {
	char *root;
	int max;
	struct sc_info *info;		/* [max], loaded on demand */
};

struct ember_syscalls *ember_syscalls__new(const char *root)
{
	struct ember_syscalls *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->max = ember_syscall__max();
	t->root = strdup(root);
	t->info = calloc(t->max, sizeof(*t->info));
	if (!t->root || !t->info) {
		ember_syscalls__delete(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void ember_syscalls__delete(struct ember_syscalls *t)
{
	if (!t)
		return;
	free(t->root);
	free(t->info);
	free(t);
}

static const struct sc_info *info_of(struct ember_syscalls *t, int nr)
{
	struct sc_info *sc;
	const char *name = ember_syscall__name(nr);

	if (!name)
		return NULL;
	sc = &t->info[nr];
	if (sc->loaded)
		return sc;
	sc->loaded = true;
	sc->fmt = fmt__find(name);
	sc->have_format = !ember_syscall__read_format(t->root, name, &sc->format);
	if (!sc->have_format && sc->fmt && sc->fmt->alias)
		sc->have_format = !ember_syscall__read_format(t->root, sc->fmt->alias, &sc->format);
	if (!sc->have_format)
		memset(&sc->format, 0, sizeof(sc->format));
	fmt__resolve(sc->fmt, &sc->format, sc->arg, &sc->string_args);
	return sc;
}

const struct ember_syscall_format *ember_syscalls__format(struct ember_syscalls *t, int nr)
{
	const struct sc_info *sc = info_of(t, nr);

	return sc && sc->have_format ? &sc->format : NULL;
}

unsigned int ember_syscalls__string_args(struct ember_syscalls *t, int nr)
{
	const struct sc_info *sc = info_of(t, nr);

	return sc ? sc->string_args : 0;
}

/* The arguments as perf shows them; ret gets the return's format the arguments chose. */
static int print_args(const struct sc_info *sc, const uint64_t *args, const char *const *strs,
		      const struct ember_syscall_env *env, char *buf, size_t size, enum sc_ret *ret)
{
	struct sc_arg a = { .args = args, .env = env, .ret = ret };
	int n = 0;

	if (size)
		buf[0] = '\0';
	for (a.idx = 0; a.idx < sc->format.nr_args; a.idx++) {
		const struct sc_arg_fmt *f = &sc->arg[a.idx];

		if (a.mask & (1u << a.idx))
			continue;
		a.val = args[a.idx];
		/* zeros are left out, but where a table names them (and fcntl's cmd) */
		if (!a.val && !(f->parm && (f->show_zero || f->fn == sc_strarray ||
					    f->fn == sc_strarrays)))
			continue;
		a.str = strs ? strs[a.idx] : NULL;
		a.parm = f->parm;
		n += scnprintf(buf + n, size - n, "%s%s: ", n ? ", " : "", sc->format.args[a.idx].name);
		n += (f->fn ? f->fn : sc_long)(buf + n, size - n, &a);
	}
	return n;
}

int ember_syscalls__scnprintf_args(struct ember_syscalls *t, int nr,
				   const uint64_t args[EMBER_SYSCALL_MAX_ARGS],
				   const char *const strs[EMBER_SYSCALL_MAX_ARGS],
				   const struct ember_syscall_env *env, char *buf, size_t size)
{
	const struct sc_info *sc = info_of(t, nr);
	enum sc_ret ret = SC_RET_SIGNED;

	if (!sc) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	return print_args(sc, args, strs, env, buf, size, &ret);
}

/*
 * "-1 ENOENT (No such file or directory)". For a number without a message
 * (the kernel's ERESTART* seen at sys_exit) perf's strerror_r() fails and
 * it prints that failure, which is reproduced here.
 */
static int print_errno(char *buf, size_t size, int err)
{
	const char *name = ember_errno__name(err), *msg = strerror(err);

	if (!strncmp(msg, "Unknown error", 13))
		return scnprintf(buf, size, "-1 %s (INTERNAL ERROR: strerror_r(%d, [buf], 128)=%d)",
				 name ? name : "(unknown)", err, EINVAL);
	return scnprintf(buf, size, "-1 %s (%s)", name ? name : "(unknown)", msg);
}

int ember_syscalls__scnprintf_ret(struct ember_syscalls *t, int nr,
				  const uint64_t args[EMBER_SYSCALL_MAX_ARGS], int64_t ret,
				  const struct ember_syscall_env *env, char *buf, size_t size)
{
	const struct sc_info *sc = info_of(t, nr);
	const struct sc_fmt *fmt = sc ? sc->fmt : NULL;
	enum sc_ret kind = SC_RET_SIGNED;
	struct sc_arg a = { .val = (uint64_t)ret, .env = env };
	const char *comm;

	if (ret < 0)
		return print_errno(buf, size, (int)-ret);
	if (!fmt)
		return scnprintf(buf, size, "%ld", (long)ret);
	if (ret == 0 && fmt->timeout)
		return scnprintf(buf, size, "0 (Timeout)");
	if (args) {
		char scratch[512];

		print_args(sc, args, NULL, NULL, scratch, sizeof(scratch), &kind);
	}
	switch (kind) {
	case SC_RET_OPEN_FLAGS:
		return sc_open_flags_str(buf, size, (unsigned long)ret);
	case SC_RET_FD_FLAGS:
		return sc_fd_flags_str(buf, size, (unsigned long)ret);
	case SC_RET_FD:
		return sc_fd(buf, size, &a);
	default:
		break;
	}
	if (fmt->hexret)
		return scnprintf(buf, size, "%#lx", (unsigned long)ret);
	if (fmt->errpid) {
		/*
		 * perf shows a pid it knows the thread of, with its name; else
		 * nothing (a replay knows pid 0, "swapper": perf -i shows "0 (swapper)")
		 */
		comm = env && env->ret_comm ? env->ret_comm(env->ctx, (pid_t)ret, env->pid) : NULL;
		if (size)
			buf[0] = '\0';
		return comm ? scnprintf(buf, size, "%ld (%s)", (long)ret, comm) : 0;
	}
	return scnprintf(buf, size, "%ld", (long)ret);
}
