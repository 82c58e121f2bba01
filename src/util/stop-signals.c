// SPDX-License-Identifier: GPL-2.0-only
/* A command's loop ended by a signal read from a signalfd (see stop-signals.h). */
#include <errno.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include "util/stop-signals.h"

int stop_signals__open(struct stop_signals *s, bool sigchld)
{
	sigset_t set;

	s->fd = -1;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigchld)
		sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, &s->oldmask) < 0)
		return -errno;
	s->fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s->fd < 0) {
		int err = -errno;

		sigprocmask(SIG_SETMASK, &s->oldmask, NULL);
		return err;
	}
	return 0;
}

void stop_signals__close(struct stop_signals *s)
{
	if (s->fd < 0)
		return;
	close(s->fd);
	sigprocmask(SIG_SETMASK, &s->oldmask, NULL);
	s->fd = -1;
}

int stop_signals__read(const struct stop_signals *s)
{
	struct signalfd_siginfo si;

	return read(s->fd, &si, sizeof(si)) == sizeof(si) ? (int)si.ssi_signo : 0;
}
