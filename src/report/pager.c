// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pager perf puts its --stdio output through on a terminal: $PERF_PAGER,
 * $PAGER, else "less" with LESS=FRSX (quit if one screen, raw colours, no
 * line wrap). "cat" or an empty value means no pager.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "report/run.h"

void report_pager__start(struct report_pager *pager)
{
	const char *cmd = getenv("PERF_PAGER");
	int fds[2];
	pid_t pid;

	pager->pid = 0;
	if (!isatty(STDOUT_FILENO))
		return;
	if (!cmd)
		cmd = getenv("PAGER");
	if (!cmd)
		cmd = "less";
	if (!*cmd || !strcmp(cmd, "cat"))
		return;
	if (pipe(fds))
		return;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		setenv("LESS", "FRSX", 0);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	dup2(fds[1], STDOUT_FILENO);
	close(fds[0]);
	close(fds[1]);
	/* a pager that quits early must not kill us with SIGPIPE mid-report */
	signal(SIGPIPE, SIG_IGN);
	pager->pid = pid;
}

void report_pager__finish(struct report_pager *pager)
{
	if (pager->pid <= 0)
		return;
	fflush(stdout);
	fclose(stdout);
	close(STDOUT_FILENO);
	waitpid(pager->pid, NULL, 0);
	pager->pid = 0;
}
