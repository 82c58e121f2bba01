// SPDX-License-Identifier: GPL-2.0-only
/* The signals that end a recording, read from a signalfd (see signals.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include "record/signals.h"

/* An ignored SIGHUP is nohup's: the recording outlives the terminal, as perf's does. */
static bool hup_ignored(void)
{
	struct sigaction cur;

	return sigaction(SIGHUP, NULL, &cur) == 0 && cur.sa_handler == SIG_IGN;
}

static void stop_set(sigset_t *set, bool usr2)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	if (!hup_ignored())
		sigaddset(set, SIGHUP);
	sigaddset(set, SIGCHLD);
	if (usr2)
		sigaddset(set, SIGUSR2);
}

int record_signals__init(struct record_signals *s, bool usr2)
{
	struct sigaction ign;
	sigset_t set;
	int err;

	s->fd = -1;
	s->usr2 = usr2;
	stop_set(&set, usr2);
	if (sigprocmask(SIG_BLOCK, &set, &s->old_mask) < 0)
		return -errno;
	s->fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (s->fd < 0) {
		err = -errno;
		sigprocmask(SIG_SETMASK, &s->old_mask, NULL);
		return err;
	}
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &s->old_pipe);
	return 0;
}

int record_signals__read(struct record_signals *s, bool *child, bool *usr2)
{
	struct signalfd_siginfo si;
	int stop = 0;

	if (s->fd < 0)
		return 0;
	while (read(s->fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			*child = true;
		else if (si.ssi_signo == SIGUSR2) {
			if (usr2)
				*usr2 = true;
		} else
			stop = (int)si.ssi_signo;
	}
	return stop;
}

void record_signals__exit(struct record_signals *s)
{
	bool child;

	if (s->fd < 0)
		return;
	/* A second ^C while finishing must not kill ember when the mask goes back. */
	record_signals__read(s, &child, NULL);
	close(s->fd);
	s->fd = -1;
	sigaction(SIGPIPE, &s->old_pipe, NULL);
	sigprocmask(SIG_SETMASK, &s->old_mask, NULL);
}
