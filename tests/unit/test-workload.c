// SPDX-License-Identifier: GPL-2.0-only
/* The corked workload: exec success and failure, exit codes, signals, parent death, cpu. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <ember/workload.h>
#include "test.h"

/* Run argv to completion through the workload API; returns the exit code or -1. */
static int run(struct unit_test *t, const char *const *argv, int *start_err)
{
	struct ember_workload wl;
	int err = ember_workload__prepare(&wl, argv);

	CHECK_EQ(err, 0);
	if (err)
		return -1;
	*start_err = ember_workload__start(&wl);
	while ((err = ember_workload__wait(&wl)) == -EINTR)
		;
	CHECK_EQ(err, 0);
	return ember_workload__exit_code(&wl);
}

TEST(workload_exec_ok_and_exit_codes)
{
	const char *const ok[] = { "true", NULL };
	const char *const three[] = { "sh", "-c", "exit 3", NULL };
	int serr;

	CHECK_EQ(run(t, ok, &serr), 0);
	CHECK_EQ(serr, 0);
	CHECK_EQ(run(t, three, &serr), 3);
	CHECK_EQ(serr, 0);
}

TEST(workload_exec_failure)
{
	const char *const missing[] = { "/nonexistent/ember-no-such-command", NULL };
	const char *const not_in_path[] = { "ember-no-such-command-in-path", NULL };
	const char *const not_exec[] = { "/etc/passwd", NULL };
	int serr;

	CHECK_EQ(run(t, missing, &serr), 127);
	CHECK_EQ(serr, -ENOENT);
	CHECK_EQ(run(t, not_in_path, &serr), 127);
	CHECK_EQ(serr, -ENOENT);
	CHECK_EQ(run(t, not_exec, &serr), 127);
	CHECK_EQ(serr, -EACCES);
}

TEST(workload_signal_passthrough)
{
	const char *const term[] = { "sh", "-c", "kill -TERM $$", NULL };
	const char *const intr[] = { "sh", "-c", "kill -INT $$", NULL };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	sigset_t block, oldmask;
	int serr;

	CHECK_EQ(run(t, term, &serr), 128 + SIGTERM);

	/* ember ignores SIGINT and blocks SIGTERM: the command still gets the defaults. */
	sigaction(SIGINT, &ign, &old);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &oldmask);
	CHECK_EQ(run(t, intr, &serr), 128 + SIGINT);
	CHECK_EQ(run(t, term, &serr), 128 + SIGTERM);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	sigaction(SIGINT, &old, NULL);
}

TEST(workload_corked_until_start)
{
	char path[64], cmd[128];
	const char *argv[] = { "sh", "-c", cmd, NULL };
	struct ember_workload wl;
	struct stat st;
	int serr;

	snprintf(path, sizeof(path), "/tmp/ember-wl-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "echo ran > %s", path);
	unlink(path);

	/* Held at the exec: nothing runs before start. */
	CHECK_EQ(ember_workload__prepare(&wl, argv), 0);
	usleep(50 * 1000);
	CHECK(stat(path, &st) < 0);
	serr = ember_workload__start(&wl);
	CHECK_EQ(serr, 0);
	CHECK_EQ(ember_workload__wait(&wl), 0);
	CHECK_EQ(ember_workload__exit_code(&wl), 0);
	CHECK(stat(path, &st) == 0);
	unlink(path);

	/* ember gone before start (the hold pipe hangs up): the child exits, never execs. */
	CHECK_EQ(ember_workload__prepare(&wl, argv), 0);
	close(wl.hold_fd);
	wl.hold_fd = -1;
	CHECK_EQ(ember_workload__wait(&wl), 0);
	CHECK_EQ(ember_workload__exit_code(&wl), 127);
	CHECK(stat(path, &st) < 0);
	ember_workload__abort(&wl);

	/* Abort before start kills and reaps; start afterwards fails cleanly. */
	CHECK_EQ(ember_workload__prepare(&wl, argv), 0);
	ember_workload__abort(&wl);
	CHECK(wl.reaped);
	CHECK(ember_workload__start(&wl) < 0);
	ember_workload__abort(&wl);
	CHECK(stat(path, &st) < 0);

	CHECK_EQ(ember_workload__prepare(&wl, NULL), -EINVAL);
}

/* go returns before the exec; exec_result answers later, without waiting when asked not to. */
TEST(workload_go_then_exec_result)
{
	const char *const missing[] = { "/nonexistent/ember-no-such-command", NULL };
	const char *const slow[] = { "sleep", "0.2", NULL };
	struct ember_workload wl;
	int r;

	/* a child held before its exec has no answer yet */
	CHECK_EQ(ember_workload__prepare(&wl, slow), 0);
	CHECK_EQ(ember_workload__exec_result(&wl, false), 1);
	CHECK_EQ(ember_workload__go(&wl), 0);
	CHECK(wl.go_fd < 0 && wl.hold_fd < 0);
	CHECK_EQ(ember_workload__exec_result(&wl, true), 0);
	CHECK(wl.err_fd < 0);
	CHECK_EQ(ember_workload__exec_result(&wl, false), 0);	/* answered: stays 0 */
	CHECK_EQ(ember_workload__wait(&wl), 0);
	CHECK_EQ(ember_workload__exit_code(&wl), 0);

	/* a failed exec: the errno, found by polling without blocking */
	CHECK_EQ(ember_workload__prepare(&wl, missing), 0);
	CHECK_EQ(ember_workload__go(&wl), 0);
	for (int i = 0; i < 2000 && (r = ember_workload__exec_result(&wl, false)) == 1; i++)
		usleep(1000);
	CHECK_EQ(r, -ENOENT);
	CHECK_EQ(ember_workload__wait(&wl), 0);
	CHECK_EQ(ember_workload__exit_code(&wl), 127);
}

/*
 * The child may move off the cpu of the process that let it go before its
 * exec (where it would take the cpu from a recorder): the command still sees
 * the affinity it was forked with, even when the parent keeps to one cpu.
 * (Where it starts is the scheduler's to say once it runs: not checked.)
 */
TEST(workload_keeps_the_commands_affinity)
{
	char path[64], cmd[256], line[256], want[256] = "";
	const char *argv[] = { "sh", "-c", cmd, NULL };
	struct ember_workload wl;
	cpu_set_t all, one;
	FILE *f;

	if (sched_getaffinity(0, sizeof(all), &all) || CPU_COUNT(&all) < 2)
		SKIP("one cpu allowed: nowhere else to start");
	f = fopen("/proc/self/status", "re");
	while (f && fgets(want, sizeof(want), f) && strncmp(want, "Cpus_allowed_list:", 18))
		want[0] = '\0';
	if (f)
		fclose(f);
	CHECK(want[0] != '\0');
	snprintf(path, sizeof(path), "/tmp/ember-wl-cpu-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "grep Cpus_allowed_list /proc/self/status > %s", path);

	CHECK_EQ(ember_workload__prepare(&wl, argv), 0);
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	sched_setaffinity(0, sizeof(one), &one);
	CHECK_EQ(ember_workload__start(&wl), 0);
	sched_setaffinity(0, sizeof(all), &all);
	CHECK_EQ(ember_workload__wait(&wl), 0);
	CHECK_EQ(ember_workload__exit_code(&wl), 0);
	line[0] = '\0';
	f = fopen(path, "re");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	CHECK_STR(line, want);
	unlink(path);
}
