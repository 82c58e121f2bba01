// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The corked workload: fork a child that waits for the "go" eventfd until
 * the events on its pid are open, then execvp()s. An exec failure travels
 * back as an errno on the close-on-exec "err" pipe; end-of-file there means
 * the exec succeeded. If ember dies before start, the child sees the "hold"
 * pipe hang up and exits without running the command.
 *
 * The go is an eventfd, not a byte on a pipe, for where the child runs: a
 * pipe write wakes its reader as a "sync" wake-up (the writer is about to
 * sleep), so the scheduler puts the child on ember's cpu, where it preempts
 * a recorder that is about to read the first samples. An eventfd's wake-up
 * lets the child go to an idle cpu; and should the scheduler still put it
 * next to ember (this VM's scheduler packs woken tasks onto busy vcpus), the child
 * moves off before its exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <ember/workload.h>

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * The go's value: the cpu ember ran on when it let the child go, plus 2;
 * 1 when that is not known (an eventfd's count cannot be 0).
 */
static uint64_t go_value(void)
{
	int cpu = sched_getcpu();

	return cpu >= 0 ? (uint64_t)cpu + 2 : 1;
}

/*
 * Leave the cpu of the process that let us go, when another one is
 * allowed: woken there, the child would run its exec (milliseconds in the
 * kernel) on the cpu of a recorder that is about to read the first samples.
 * The affinity is restored at once: the command sees its own.
 */
static void leave_cpu(uint64_t go)
{
	cpu_set_t allowed, others;
	int cpu = (int)go - 2;

	if (go < 2 || sched_getcpu() != cpu || sched_getaffinity(0, sizeof(allowed), &allowed))
		return;
	others = allowed;
	CPU_CLR(cpu, &others);
	if (CPU_COUNT(&others) && sched_setaffinity(0, sizeof(others), &others) == 0)
		sched_setaffinity(0, sizeof(allowed), &allowed);
}

/*
 * The child, between fork and exec: only async-signal-safe calls here.
 * Never returns.
 */
static void __attribute__((noreturn)) child_run(const char *const *argv, int go_fd, int hold_rd,
						int err_wr)
{
	static const int reset[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGUSR1,
				     SIGUSR2, SIGALRM, SIGTSTP, SIGTTIN, SIGTTOU, SIGWINCH };
	struct sigaction dfl;
	struct pollfd wait[2] = {
		{ .fd = go_fd, .events = POLLIN },
		{ .fd = hold_rd, .events = POLLIN },
	};
	uint64_t go = 0;
	sigset_t none;
	int n, err;

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
		n = poll(wait, 2, -1);
	while (n < 0 && errno == EINTR);
	/* "hold" hung up without a go: ember went away (or aborted); never run the command. */
	if (n < 0 || !(wait[0].revents & POLLIN) || read(go_fd, &go, sizeof(go)) != sizeof(go))
		_exit(127);
	leave_cpu(go);
	close(go_fd);
	close(hold_rd);

	execvp(argv[0], (char *const *)argv);
	err = errno;
	while (write(err_wr, &err, sizeof(err)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/* Fork the corked child for argv. Returns 0 or -errno; wl is filled on success. */
int ember_workload__prepare(struct ember_workload *wl, const char *const *argv)
{
	int go, hold[2], err[2], ret;
	char name[17] = "";

	memset(wl, 0, sizeof(*wl));
	wl->pid = -1;
	wl->go_fd = wl->hold_fd = wl->err_fd = -1;
	if (!argv || !argv[0])
		return -EINVAL;
	go = eventfd(0, EFD_CLOEXEC);
	if (go < 0)
		return -errno;
	if (pipe2(hold, O_CLOEXEC) < 0) {
		ret = -errno;
		goto out_go;
	}
	if (pipe2(err, O_CLOEXEC) < 0) {
		ret = -errno;
		goto out_hold;
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
		close(hold[1]);
		close(err[0]);
		child_run(argv, go, hold[0], err[1]);
	}

	close(hold[0]);
	close(err[1]);
	wl->go_fd = go;
	wl->hold_fd = hold[1];
	wl->err_fd = err[0];
	return 0;

out_err:
	close(err[0]);
	close(err[1]);
out_hold:
	close(hold[0]);
	close(hold[1]);
out_go:
	close(go);
	return ret;
}

int ember_workload__go(struct ember_workload *wl)
{
	uint64_t go = go_value();
	ssize_t n;
	int ret = 0;

	if (wl->pid <= 0 || wl->go_fd < 0)
		return -EINVAL;
	do
		n = write(wl->go_fd, &go, sizeof(go));
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		ret = -errno;
		close_fd(&wl->err_fd);
	}
	close_fd(&wl->go_fd);
	close_fd(&wl->hold_fd);
	return ret;
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

int ember_workload__try_wait(struct ember_workload *wl)
{
	pid_t ret;

	if (wl->reaped)
		return 1;
	if (wl->pid <= 0)
		return -ECHILD;
	do
		ret = waitpid(wl->pid, &wl->status, WNOHANG);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	if (ret != wl->pid)
		return 0;
	wl->reaped = true;
	return 1;
}

bool ember_workload__exited(const struct ember_workload *wl)
{
	siginfo_t si = { 0 };

	if (wl->reaped || wl->pid <= 0)
		return false;
	return waitid(P_PID, (id_t)wl->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       si.si_pid == wl->pid;
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
	close_fd(&wl->hold_fd);
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
