// SPDX-License-Identifier: GPL-2.0-only
/* Waiting while ember stat counts, and the --control commands that come. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include "core/clock.h"
#include "stat/wait.h"
#include "util/control-spec.h"
#include "util/proc-alive.h"

/* ember stat's one blocking point: poll on a signalfd, pidfds and a deadline. */

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

/* Without a pidfd, look at /proc this often. */
#define POLL_PROC_MS 100

int stat_waiter__init(struct stat_waiter *w)
{
	sigset_t set;

	memset(w, 0, sizeof(*w));
	w->ctl_fd = -1;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, &w->oldmask) < 0)
		return -errno;
	w->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (w->sigfd < 0) {
		int err = -errno;

		sigprocmask(SIG_SETMASK, &w->oldmask, NULL);
		return err;
	}
	return 0;
}

void stat_waiter__unwatch_all(struct stat_waiter *w)
{
	for (int i = 0; i < w->nr; i++)
		if (w->pidfds[i] >= 0)
			close(w->pidfds[i]);
	free(w->pids);
	free(w->pidfds);
	free(w->gone);
	w->pids = NULL;
	w->pidfds = NULL;
	w->gone = NULL;
	w->nr = 0;
}

void stat_waiter__exit(struct stat_waiter *w)
{
	stat_waiter__unwatch_all(w);
	if (w->sigfd >= 0) {
		close(w->sigfd);
		sigprocmask(SIG_SETMASK, &w->oldmask, NULL);
	}
	w->sigfd = -1;
}

static int pidfd_open(pid_t pid, unsigned int flags)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, flags);
#else
	errno = ENOSYS;
	return -1;
#endif
}

int stat_waiter__watch(struct stat_waiter *w, pid_t pid, bool tid)
{
	pid_t *pids = realloc(w->pids, (w->nr + 1) * sizeof(*pids));
	int *fds;
	bool *gone;

	if (!pids)
		return -ENOMEM;
	w->pids = pids;
	fds = realloc(w->pidfds, (w->nr + 1) * sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	w->pidfds = fds;
	gone = realloc(w->gone, (w->nr + 1) * sizeof(*gone));
	if (!gone)
		return -ENOMEM;
	w->gone = gone;

	fds[w->nr] = pidfd_open(pid, tid ? PIDFD_THREAD : 0);
	if (fds[w->nr] < 0 && tid)
		fds[w->nr] = pidfd_open(pid, 0);
	pids[w->nr] = pid;
	gone[w->nr] = false;
	w->nr++;
	return 0;
}

/* Mark exited processes; true when all of them are gone. */
static bool all_gone(struct stat_waiter *w, const struct pollfd *pfd)
{
	bool all = true;

	for (int i = 0; i < w->nr; i++) {
		if (!w->gone[i]) {
			if (w->pidfds[i] >= 0)
				w->gone[i] = pfd[i + 1].revents & (POLLIN | POLLHUP | POLLERR);
			else
				w->gone[i] = !proc__alive(w->pids[i]);
		}
		all &= w->gone[i];
	}
	return all;
}

enum stat_wake stat_waiter__wait(struct stat_waiter *w, uint64_t deadline_ns,
				 struct stat_signal *sig)
{
	struct pollfd *pfd = calloc(w->nr + 2, sizeof(*pfd));
	enum stat_wake wake = STAT_WAKE_ERROR;
	bool proc_polled = false;

	if (!pfd)
		return STAT_WAKE_ERROR;
	pfd[0].fd = w->sigfd;
	pfd[0].events = POLLIN;
	for (int i = 0; i < w->nr; i++) {
		pfd[i + 1].fd = w->gone[i] ? -1 : w->pidfds[i];
		pfd[i + 1].events = POLLIN;
		proc_polled |= w->pidfds[i] < 0;
	}
	pfd[w->nr + 1].fd = w->ctl_fd;
	pfd[w->nr + 1].events = POLLIN;

	for (;;) {
		uint64_t timeout = UINT64_MAX;
		struct timespec ts;
		int n;

		if (deadline_ns) {
			uint64_t now = clock_now_ns();

			if (now >= deadline_ns) {
				wake = STAT_WAKE_DEADLINE;
				break;
			}
			timeout = deadline_ns - now;
		}
		if (proc_polled && timeout > POLL_PROC_MS * 1000000ULL)
			timeout = POLL_PROC_MS * 1000000ULL;
		ts.tv_sec = (time_t)(timeout / 1000000000ULL);
		ts.tv_nsec = (long)(timeout % 1000000000ULL);
		n = ppoll(pfd, w->nr + 2, timeout == UINT64_MAX ? NULL : &ts, NULL);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && (pfd[0].revents & POLLIN)) {
			struct signalfd_siginfo si;

			if (read(w->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				sig->signo = (int)si.ssi_signo;
				/* The tty's ^C comes from the kernel, to the command too. */
				sig->from_process = si.ssi_code == SI_USER ||
						    si.ssi_code == SI_QUEUE;
				wake = STAT_WAKE_SIGNAL;
				break;
			}
		}
		if (n > 0 && (pfd[w->nr + 1].revents & (POLLIN | POLLHUP))) {
			wake = STAT_WAKE_CONTROL;
			break;
		}
		if (w->nr && all_gone(w, pfd)) {
			wake = STAT_WAKE_EXIT;
			break;
		}
		for (int i = 0; i < w->nr; i++)
			if (w->gone[i])
				pfd[i + 1].fd = -1;
	}
	free(pfd);
	return wake;
}

/* --control: enable/disable commands on a descriptor or fifo while ember stat counts. */

void stat_control__init(struct stat_control *ctl)
{
	memset(ctl, 0, sizeof(*ctl));
	ctl->ctl_fd = ctl->ack_fd = -1;
}

int stat_control__parse(struct stat_control *ctl, const char *spec)
{
	struct control_spec cs;
	int err = control_spec__parse(&cs, spec);

	if (!err && cs.fifo) {
		ctl->opened = true;
		ctl->ctl_fd = control_spec__open_fifo(cs.ctl_path);
		err = ctl->ctl_fd < 0 ? ctl->ctl_fd : 0;
		if (!err && cs.ack_path) {
			ctl->ack_fd = control_spec__open_fifo(cs.ack_path);
			err = ctl->ack_fd < 0 ? ctl->ack_fd : 0;
		}
	} else if (!err) {
		ctl->ctl_fd = cs.ctl_fd;
		ctl->ack_fd = cs.ack_fd;
	}
	control_spec__exit(&cs);
	if (err)
		stat_control__exit(ctl);
	return err;
}

void stat_control__exit(struct stat_control *ctl)
{
	if (ctl->opened) {
		if (ctl->ctl_fd >= 0)
			close(ctl->ctl_fd);
		if (ctl->ack_fd >= 0)
			close(ctl->ack_fd);
	}
	stat_control__init(ctl);
}

static void ack(const struct stat_control *ctl)
{
	/* perf writes its tag with the string's NUL. */
	static const char tag[] = "ack\n";

	if (ctl->ack_fd >= 0 && write(ctl->ack_fd, tag, sizeof(tag)) < 0)
		return;
}

static bool is_cmd(const char *line, const char *cmd)
{
	size_t n = strlen(cmd);

	return !strncmp(line, cmd, n) && (line[n] == '\0' || line[n] == ' ');
}

static void run_command(struct stat_control *ctl, const char *line, struct ember_evlist *evlist,
			bool quiet)
{
	if (is_cmd(line, "enable")) {
		ember_evlist__enable(evlist);
		if (!quiet)
			fprintf(stderr, "Events enabled\n");
	} else if (is_cmd(line, "disable")) {
		ember_evlist__disable(evlist);
		if (!quiet)
			fprintf(stderr, "Events disabled\n");
	} else if (!is_cmd(line, "ping")) {
		return;		/* not a command: no ack, as perf */
	}
	ack(ctl);
}

bool stat_control__process(struct stat_control *ctl, struct ember_evlist *evlist, bool quiet)
{
	char c;
	ssize_t n;

	/* A byte at a time: a command ends at a newline or a NUL. */
	while ((n = read(ctl->ctl_fd, &c, 1)) == 1) {
		if (c == '\n' || c == '\0') {
			ctl->buf[ctl->len] = '\0';
			if (ctl->len)
				run_command(ctl, ctl->buf, evlist, quiet);
			ctl->len = 0;
		} else if (ctl->len + 1 < sizeof(ctl->buf)) {
			ctl->buf[ctl->len++] = c;
		}
	}
	return !(n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR));
}
