// SPDX-License-Identifier: GPL-2.0-only
/*
 * latethread WAIT_MS RUN_MS: the main thread sleeps WAIT_MS, then starts
 * a thread that spins in spin_late() for RUN_MS, and waits for it. A
 * process whose work is in a thread born after a profiler attached to it
 * (perf top -p follows no new thread: its per-thread events do not inherit).
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static double run_ms;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static void spin_late(void)
{
	double start = now_ms();

	while (now_ms() - start < run_ms)
		for (int i = 0; i < 100000; i++)
			sink += i;
}

static void *worker(void *arg)
{
	spin_late();
	return arg;
}

int main(int argc, char **argv)
{
	double wait_ms = argc > 1 ? atof(argv[1]) : 500;
	pthread_t t;

	run_ms = argc > 2 ? atof(argv[2]) : 2000;
	usleep((useconds_t)(wait_ms * 1000));
	if (pthread_create(&t, NULL, worker, NULL))
		return 1;
	pthread_join(t, NULL);
	return 0;
}
