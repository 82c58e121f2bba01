// SPDX-License-Identifier: GPL-2.0-only
/* ember trace's run: the BPF tracer loaded, the command started, events printed until it ends. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <ember/bpf.h>
#include <ember/event.h>
#include <ember/syscall.h>
#include <ember/systrace.h>
#include <ember/workload.h>
#include "trace/print.h"
#include "trace/run.h"

#define POLL_MS 50

static void say_bpf_error(const char *what, int err)
{
	char why[512];

	fprintf(stderr, "ember trace: cannot %s: %s\n", what,
		ember_bpf__strerror(err, why, sizeof(why)));
}

/* SIGINT/SIGTERM blocked and read from a signalfd, so a ^C ends the loop, not ember. */
static int open_signals(sigset_t *old)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, old) < 0)
		return -1;
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0)
		sigprocmask(SIG_SETMASK, old, NULL);
	return fd;
}

static bool signalled(int sigfd)
{
	struct signalfd_siginfo si;

	return read(sigfd, &si, sizeof(si)) == sizeof(si);
}

/* Poll and print until the command ends or a signal comes; then what the buffer holds. */
static int loop(struct ember_systrace *st, struct ember_workload *wl, int sigfd,
		struct trace_printer *printer)
{
	int err = 0;

	for (;;) {
		err = ember_systrace__poll(st, POLL_MS, trace_printer__event, printer);
		if (err < 0 && err != -EINTR)
			break;
		err = 0;
		if (signalled(sigfd))
			break;
		if (wl && ember_workload__try_wait(wl) != 0)
			break;
	}
	ember_systrace__stop(st);
	while (!err && ember_systrace__poll(st, 0, trace_printer__event, printer) > 0)
		;
	return err;
}

int trace_run(struct trace_opts *o)
{
	struct ember_systrace_opts sopts = { .sz = sizeof(sopts), .target = EMBER_SYSTRACE_PIDS };
	struct ember_workload wl = { .pid = -1 };
	struct trace_printer printer;
	struct ember_syscalls *syscalls = NULL;
	struct ember_systrace *st;
	char root[4000];
	sigset_t oldmask;
	int err, ret = 1, sigfd;

	if (!o->argc) {
		fprintf(stderr, "ember trace: give a command to trace (see --help)\n");
		return 2;
	}
	err = ember_tracefs__find(root, sizeof(root));
	if (err) {
		fprintf(stderr, "ember trace: cannot find tracefs: %s\n", strerror(-err));
		return 1;
	}
	syscalls = ember_syscalls__new(root);
	if (!syscalls) {
		fprintf(stderr, "ember trace: out of memory\n");
		return 1;
	}
	sopts.tracefs = root;
	st = ember_systrace__new(&sopts);
	if (!st) {
		say_bpf_error("load the syscall tracer", -errno);
		ember_syscalls__delete(syscalls);
		return 1;
	}
	err = ember_workload__prepare(&wl, o->argv);
	if (err) {
		fprintf(stderr, "ember trace: cannot start '%s': %s\n", o->argv[0], strerror(-err));
		goto out_st;
	}
	err = ember_systrace__add(st, wl.pid, true);
	if (!err)
		err = ember_systrace__start(st);
	if (err) {
		say_bpf_error("attach the syscall tracer", err);
		ember_workload__abort(&wl);
		goto out_st;
	}
	sigfd = open_signals(&oldmask);
	err = ember_workload__start(&wl);
	if (err) {
		fprintf(stderr, "ember trace: cannot run '%s': %s\n", o->argv[0], strerror(-err));
		ember_workload__wait(&wl);
		goto out_sig;
	}
	trace_printer__init(&printer, stderr, syscalls);
	err = loop(st, &wl, sigfd, &printer);
	trace_printer__exit(&printer);
	if (!wl.reaped)
		ember_workload__wait(&wl);
	ret = err ? 1 : ember_workload__exit_code(&wl);
out_sig:
	if (sigfd >= 0) {
		close(sigfd);
		sigprocmask(SIG_SETMASK, &oldmask, NULL);
	}
out_st:
	ember_systrace__delete(st);
	ember_syscalls__delete(syscalls);
	return ret;
}
