// SPDX-License-Identifier: GPL-2.0-only
/*
 * syscalls N FILE SCRATCH: a known sequence of syscalls for ember trace's tests:
 *   N getppid calls, then
 *   openat(FILE, O_RDONLY|O_CLOEXEC), read 4 bytes, close,
 *   openat("/nonexistent/ember-trace", O_RDONLY) failing with ENOENT,
 *   openat(SCRATCH, O_WRONLY|O_CREAT|O_TRUNC, 0640), write "hello", close, unlink,
 *   kill(self, SIGUSR1) with SIGUSR1 ignored.
 * syscalls --loop: getppid every 10 ms until killed (a target for -p).
 * syscalls --threads: a thread blocks in read(2) on a pipe while the main
 *   thread (once /proc says the reader sleeps) calls getppid 3 times and
 *   then writes the byte it waits for.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static int pipe_fds[2];
static volatile pid_t reader_tid;

static void *reader(void *arg)
{
	char c;

	reader_tid = (pid_t)syscall(SYS_gettid);
	return read(pipe_fds[0], &c, 1) == 1 ? NULL : (void *)1;
}

/* Whether thread tid sleeps (in its read), from /proc/self/task/TID/stat. */
static int sleeping(pid_t tid)
{
	char path[64], buf[256], *p;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

static int threads(void)
{
	struct timespec tick = { 0, 1000 * 1000 };
	pthread_t t;
	void *ret;

	if (pipe(pipe_fds) || pthread_create(&t, NULL, reader, NULL))
		return 1;
	/* until the reader is blocked in its read, however loaded the machine (2 s at most) */
	for (int i = 0; i < 2000 && !(reader_tid && sleeping(reader_tid)); i++)
		nanosleep(&tick, NULL);
	for (int i = 0; i < 3; i++)
		syscall(SYS_getppid);
	if (write(pipe_fds[1], "x", 1) != 1 || pthread_join(t, &ret))
		return 1;
	/* alive a while longer: a tracer names the pipe's fds from /proc */
	tick.tv_nsec = 200 * 1000 * 1000;
	nanosleep(&tick, NULL);
	return ret != NULL;
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	char buf[4];
	long n;
	int fd;

	if (argc > 1 && !strcmp(argv[1], "--loop")) {
		for (;;) {
			syscall(SYS_getppid);
			nanosleep(&tick, NULL);
		}
	}
	if (argc > 1 && !strcmp(argv[1], "--threads"))
		return threads();
	if (argc < 4)
		return 2;
	n = atol(argv[1]);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	fd = openat(AT_FDCWD, argv[2], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, buf, sizeof(buf)) < 0 || close(fd))
		return 1;
	if (openat(AT_FDCWD, "/nonexistent/ember-trace", O_RDONLY) >= 0)
		return 1;
	fd = openat(AT_FDCWD, argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0640);
	if (fd < 0 || write(fd, "hello", 5) != 5 || close(fd) || unlink(argv[3]))
		return 1;
	signal(SIGUSR1, SIG_IGN);
	if (kill(getpid(), SIGUSR1))
		return 1;
	return 0;
}
