// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The corked workload: fork a child that blocks on the "go" pipe until the
 * events on its pid are open, then execvp()s. An exec failure travels back
 * as an errno on the close-on-exec "err" pipe; end-of-file there means the
 * exec succeeded. If ember dies before start, the child reads EOF on "go"
 * and exits without running the command.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "event/workload.h"

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * The child, between fork and exec: only async-signal-safe calls here.
 * Never returns.
 */
static void __attribute__((noreturn)) child_run(const char *const *argv, int go_rd, int err_wr)
{
	static const int reset[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGUSR1,
				     SIGUSR2, SIGALRM, SIGTSTP, SIGTTIN, SIGTTOU, SIGWINCH };
	struct sigaction dfl;
	sigset_t none;
	char go;
	ssize_t n;
	int err;

	/*
	 * The command must see default dispositions and an empty mask even if
	 * ember ignores or blocks signals to stay in control while it runs.
	 */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (size_t i = 0; i < sizeof(reset) / sizeof(reset[0]); i++) {
		struct sigaction cur;

		/* ember never ignores SIGHUP: an ignored one is nohup's, and exec keeps it */
		if (reset[i] == SIGHUP && sigaction(SIGHUP, NULL, &cur) == 0 &&
		    cur.sa_handler == SIG_IGN)
			continue;
		sigaction(reset[i], &dfl, NULL);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	do
		n = read(go_rd, &go, 1);
	while (n < 0 && errno == EINTR);
	/* EOF: ember went away (or aborted) before start; never run the command. */
	if (n != 1)
		_exit(127);
	close(go_rd);

	execvp(argv[0], (char *const *)argv);
	err = errno;
	while (write(err_wr, &err, sizeof(err)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/* Fork the corked child for argv. Returns 0 or -errno; wl is filled on success. */
int ember_workload__prepare(struct ember_workload *wl, const char *const *argv)
{
	int go[2], err[2], ret;
	char name[17] = "";

	memset(wl, 0, sizeof(*wl));
	wl->pid = -1;
	wl->go_fd = wl->err_fd = -1;
	if (!argv || !argv[0])
		return -EINVAL;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		ret = -errno;
		goto out_go;
	}

	/*
	 * perf's child is named "perf-exec" until its exec: the COMM a
	 * recording synthesizes for it, and its -a samples. Ours takes that
	 * name from the fork itself, so it holds before the child first runs.
	 */
	prctl(PR_GET_NAME, name, 0, 0, 0);
	prctl(PR_SET_NAME, "perf-exec", 0, 0, 0);
	wl->pid = fork();
	if (wl->pid != 0)
		prctl(PR_SET_NAME, name, 0, 0, 0);
	if (wl->pid < 0) {
		ret = -errno;
		goto out_err;
	}
	if (wl->pid == 0) {
		close(go[1]);
		close(err[0]);
		child_run(argv, go[0], err[1]);
	}

	close(go[0]);
	close(err[1]);
	wl->go_fd = go[1];
	wl->err_fd = err[0];
	return 0;

out_err:
	close(err[0]);
	close(err[1]);
out_go:
	close(go[0]);
	close(go[1]);
	return ret;
}

/*
 * Write the go byte without letting a dead child's pipe raise SIGPIPE in
 * ember: block it around the write and swallow the one it may leave pending.
 */
static ssize_t write_go(int fd, char go)
{
	static const struct timespec zero;
	sigset_t pipe_set, old;
	ssize_t n;
	int err;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	do
		n = write(fd, &go, 1);
	while (n < 0 && errno == EINTR);
	err = errno;
	if (n < 0 && err == EPIPE && !sigismember(&old, SIGPIPE))
		sigtimedwait(&pipe_set, NULL, &zero);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = err;
	return n;
}

int ember_workload__go(struct ember_workload *wl)
{
	char go = 1;
	ssize_t n;

	if (wl->pid <= 0 || wl->go_fd < 0)
		return -EINVAL;
	n = write_go(wl->go_fd, go);
	if (n < 0) {
		/* EPIPE: the child is already gone (killed before start). */
		int ret = -errno;

		close_fd(&wl->go_fd);
		close_fd(&wl->err_fd);
		return ret;
	}
	close_fd(&wl->go_fd);
	return 0;
}

int ember_workload__exec_result(struct ember_workload *wl, bool wait)
{
	int child_err = 0;
	ssize_t n;

	if (wl->err_fd < 0)
		return 0;
	if (!wait) {
		struct pollfd p = { .fd = wl->err_fd, .events = POLLIN };

		if (poll(&p, 1, 0) == 0)
			return 1;
	}
	do
		n = read(wl->err_fd, &child_err, sizeof(child_err));
	while (n < 0 && errno == EINTR);
	close_fd(&wl->err_fd);
	if (n < 0)
		return -errno;
	if (n == (ssize_t)sizeof(child_err))
		return child_err > 0 ? -child_err : -ENOEXEC;
	/* A short read is impossible for 4 bytes on a pipe; EOF means exec succeeded. */
	return 0;
}

/* Let the child exec. Returns 0 when exec succeeded, else the exec's -errno. */
int ember_workload__start(struct ember_workload *wl)
{
	int err = ember_workload__go(wl);

	return err ? err : ember_workload__exec_result(wl, true);
}

/* Reap the child. Returns 0, -EINTR when a signal interrupted the wait, or -errno. */
int ember_workload__wait(struct ember_workload *wl)
{
	pid_t ret;

	if (wl->reaped)
		return 0;
	if (wl->pid <= 0)
		return -ECHILD;
	ret = waitpid(wl->pid, &wl->status, 0);
	if (ret < 0)
		return -errno;
	wl->reaped = true;
	return 0;
}

/* The shell's view of the exit: the status, or 128+signal; -1 while not reaped. */
int ember_workload__exit_code(const struct ember_workload *wl)
{
	if (!wl->reaped)
		return -1;
	if (WIFEXITED(wl->status))
		return WEXITSTATUS(wl->status);
	if (WIFSIGNALED(wl->status))
		return 128 + WTERMSIG(wl->status);
	return -1;
}

/* Kill the child if it still runs, reap it and close the pipes. Safe to call twice. */
void ember_workload__abort(struct ember_workload *wl)
{
	close_fd(&wl->go_fd);
	close_fd(&wl->err_fd);
	if (wl->pid <= 0 || wl->reaped)
		return;
	kill(wl->pid, SIGKILL);
	while (waitpid(wl->pid, &wl->status, 0) < 0) {
		if (errno != EINTR)
			return;
	}
	wl->reaped = true;
}
