// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening and reading events on the real kernel: task-clock on ourselves,
 * a group read, tracepoint filters, the EMFILE and ESRCH paths, and the
 * one-line explanations of open failures.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "test.h"
#include "test-util.h"
#include "event/evlist.h"
#include <ember/ember.h>

#define DENIED(err) ((err) == -EACCES || (err) == -EPERM)

static struct perf_event_attr sw_attr(uint64_t config)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = config,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
		.exclude_guest = 1,
	};
	return attr;
}

static void burn(void)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < 20 * 1000 * 1000; i++)
		x += i;
}

static bool have_core_pmu(void)
{
	struct stat st;

	return stat("/sys/bus/event_source/devices/cpu", &st) == 0 ||
	       stat("/sys/bus/event_source/devices/cpu_core", &st) == 0;
}

TEST(evsel_open_task_clock_self)
{
	struct perf_event_attr attr = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct ember_evsel *evsel = evsel__new(&attr, "task-clock");
	struct ember_counts c;
	int err;

	CHECK(evsel != NULL);
	if (!evsel)
		return;
	err = ember_evsel__open(evsel, NULL, NULL);
	if (DENIED(err)) {
		evsel__delete(evsel);
		SKIP("perf_event_open denied");
	}
	CHECK_EQ(err, 0);
	CHECK_EQ(evsel->open_err, 0);
	CHECK(ember_evsel__fd(evsel, 0, 0) >= 0);
	CHECK(evsel->ids && evsel->ids[0] != 0);
	burn();
	CHECK_EQ(ember_evsel__read(evsel, 0, 0, &c), 0);
	CHECK(c.val > 1000000);	/* well over a millisecond of cpu */
	CHECK(c.ena > 0 && c.run > 0 && c.run <= c.ena);
	CHECK_EQ(ember_evsel__read(evsel, 1, 0, &c), -EINVAL);
	ember_evsel__close(evsel);
	CHECK_EQ(ember_evsel__fd(evsel, 0, 0), -1);
	CHECK_EQ(ember_evsel__read(evsel, 0, 0, &c), -EINVAL);
	evsel__delete(evsel);
}

TEST(evsel_open_per_cpu_self)
{
	struct perf_event_attr attr = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct ember_evsel *evsel = evsel__new(&attr, "task-clock");
	struct ember_cpu_map *cpus = ember_cpu_map__new(NULL);
	struct ember_thread_map *threads = ember_thread_map__new_pid(0);
	struct ember_counts c;
	uint64_t total = 0;
	int err;

	/* Per cpu for this thread: each cpu's fd counts our time there. */
	err = ember_evsel__open(evsel, cpus, threads);
	if (DENIED(err)) {
		evsel__delete(evsel);
		ember_cpu_map__put(cpus);
		ember_thread_map__put(threads);
		SKIP("perf_event_open denied");
	}
	CHECK_EQ(err, 0);
	CHECK_EQ(evsel->nr_fds_cpus, ember_cpu_map__nr(cpus));
	burn();
	for (int i = 0; i < ember_cpu_map__nr(cpus); i++) {
		CHECK_EQ(ember_evsel__read(evsel, i, 0, &c), 0);
		total += c.val;
	}
	CHECK(total > 1000000);
	evsel__delete(evsel);
	ember_cpu_map__put(cpus);
	ember_thread_map__put(threads);
}

/* Burns cpu once a byte arrives on the pipe, then exits. */
static void *burn_thread(void *arg)
{
	int *pipefd = arg;
	char go;

	if (read(pipefd[0], &go, 1) == 1)
		burn();
	return NULL;
}

TEST(evsel_open_every_thread_of_pid)
{
	struct perf_event_attr attr = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct ember_evsel *evsel = evsel__new(&attr, "task-clock");
	struct ember_thread_map *threads;
	struct ember_counts c;
	int pipefd[2], err, nr;
	uint64_t other = 0;
	pthread_t th;
	char list[16];

	if (pipe(pipefd) || pthread_create(&th, NULL, burn_thread, pipefd)) {
		evsel__delete(evsel);
		SKIP("pipe or pthread_create failed");
	}
	snprintf(list, sizeof(list), "%d", (int)getpid());
	threads = ember_thread_map__new_pids(list);
	nr = ember_thread_map__nr(threads);
	CHECK(nr >= 2);
	err = ember_evsel__open(evsel, NULL, threads);
	if (write(pipefd[1], "g", 1) != 1)
		CHECK(0);
	burn();
	pthread_join(th, NULL);
	close(pipefd[0]);
	close(pipefd[1]);
	if (DENIED(err)) {
		evsel__delete(evsel);
		ember_thread_map__put(threads);
		SKIP("perf_event_open denied");
	}
	CHECK_EQ(err, 0);
	CHECK_EQ(evsel->nr_fds_threads, nr);
	/* The main thread's tid is the pid, listed first: it counted our burn. */
	CHECK_EQ(ember_evsel__read(evsel, 0, 0, &c), 0);
	CHECK(c.val > 1000000);
	for (int i = 1; i < nr; i++) {
		CHECK_EQ(ember_evsel__read(evsel, 0, i, &c), 0);
		other += c.val;
	}
	CHECK(other > 1000000);
	evsel__delete(evsel);
	ember_thread_map__put(threads);
}

TEST(evsel_open_group_read)
{
	struct perf_event_attr lattr = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr mattr = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct ember_evlist *evlist = ember_evlist__new();
	struct ember_thread_map *self = ember_thread_map__new_pid(0);
	struct ember_cpu_map *any = ember_cpu_map__new_any();
	struct ember_evsel *leader, *member;
	struct ember_counts lc, mc;
	const size_t pages = 64;
	long page = sysconf(_SC_PAGESIZE);
	char *mem;
	int err;

	lattr.read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	mattr.read_format = lattr.read_format;
	lattr.disabled = 1;
	leader = ember_evlist__add_attr(evlist, &lattr, "task-clock");
	member = ember_evlist__add_attr(evlist, &mattr, "page-faults");
	ember_evlist__make_group(evlist, leader);
	ember_evlist__set_maps(evlist, any, self);
	CHECK(member->leader == leader && leader->nr_members == 2);

	err = ember_evlist__open(evlist);
	if (DENIED(err))
		goto skip;
	CHECK_EQ(err, 0);
	CHECK(ember_evlist__failed(evlist) == NULL);

	/* Disabled leader: the whole group is stopped until enable. */
	burn();
	CHECK_EQ(ember_evsel__read(member, 0, 0, &mc), 0);
	CHECK_EQ(mc.val, 0);
	CHECK_EQ(mc.ena, 0);

	CHECK_EQ(ember_evlist__enable(evlist), 0);
	mem = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (size_t i = 0; mem != MAP_FAILED && i < pages; i++)
		mem[i * page] = 1;
	burn();
	CHECK_EQ(ember_evlist__disable(evlist), 0);
	if (mem != MAP_FAILED)
		munmap(mem, pages * page);

	CHECK_EQ(ember_evsel__read(leader, 0, 0, &lc), 0);
	CHECK_EQ(ember_evsel__read(member, 0, 0, &mc), 0);
	CHECK(lc.val > 1000000);
	CHECK(mc.val >= pages);
	/* One group read: both values share the same times. */
	CHECK(lc.ena > 0 && lc.ena == mc.ena && lc.run == mc.run);

	CHECK(evlist__id2evsel(evlist, leader->ids[0]) == leader);
	CHECK(evlist__id2evsel(evlist, member->ids[0]) == member);
	CHECK(evlist__id2evsel(evlist, leader->ids[0] + member->ids[0] + 1000) == NULL);
	ember_evlist__close(evlist);
	CHECK(leader->fds == NULL && member->fds == NULL);
	goto out;
skip:
	t->skip_reason = "perf_event_open denied";
out:
	ember_evlist__delete(evlist);
	ember_cpu_map__put(any);
	ember_thread_map__put(self);
}

TEST(evlist_open_continues_past_unsupported)
{
	struct perf_event_attr hw = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(hw),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.exclude_guest = 1,
	};
	struct perf_event_attr sw = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct ember_evlist *evlist = ember_evlist__new();
	struct ember_evsel *cycles, *clock;
	char msg[512];
	int err;

	clock = ember_evlist__add_attr(evlist, &sw, "task-clock");
	cycles = ember_evlist__add_attr(evlist, &hw, "cycles");
	err = ember_evlist__open(evlist);
	if (DENIED(err)) {
		ember_evlist__delete(evlist);
		SKIP("perf_event_open denied");
	}
	if (err == 0) {
		ember_evlist__delete(evlist);
		SKIP("this machine has a hardware PMU: cycles opened");
	}
	CHECK(ember_evlist__failed(evlist) == cycles);
	CHECK_EQ(cycles->open_err, err);
	CHECK(cycles->fds == NULL);
	CHECK(clock->fds != NULL);	/* opened before the failure, still open */
	ember_evsel__strerror_open(cycles, err, msg, sizeof(msg));
	if (!have_core_pmu())
		CHECK(strstr(msg, "no hardware PMU") && strstr(msg, "cpu-clock"));
	CHECK(!strchr(msg, '\n'));
	if (t->failures)
		fprintf(stderr, "  cycles: err %d: %s\n", err, msg);

	/* Marked unsupported, it is skipped and the rest stays open. */
	cycles->supported = false;
	CHECK_EQ(ember_evlist__open(evlist), 0);
	CHECK(ember_evlist__failed(evlist) == NULL);
	CHECK(clock->fds != NULL);
	ember_evlist__delete(evlist);
}

TEST(evsel_open_tracepoint_filter)
{
	long id = test_tracepoint_id("syscalls", "sys_enter_getpid");
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	struct ember_evsel *all, *none, *bad;
	struct ember_counts c;
	struct ember_log prev;
	int err;

	if (id < 0)
		SKIP("no syscalls:sys_enter_getpid tracepoint in tracefs");
	attr.config = (uint64_t)id;
	all = evsel__new(&attr, "syscalls:sys_enter_getpid");
	none = evsel__new(&attr, "syscalls:sys_enter_getpid");
	bad = evsel__new(&attr, "syscalls:sys_enter_getpid");
	CHECK_EQ(ember_evsel__set_filter(none, "__syscall_nr == -1"), 0);
	CHECK_EQ(ember_evsel__set_filter(bad, "no_such_field == 1"), 0);

	err = ember_evsel__open(all, NULL, NULL);
	if (DENIED(err))
		goto skip;
	CHECK_EQ(err, 0);
	CHECK_EQ(ember_evsel__open(none, NULL, NULL), 0);
	/* A filter the kernel rejects fails the open and leaves nothing open. */
	prev = ember_set_log(NULL, NULL);
	CHECK_EQ(ember_evsel__open(bad, NULL, NULL), -EINVAL);
	ember_set_log(prev.fn, prev.ctx);
	CHECK(bad->fds == NULL);

	for (int i = 0; i < 100; i++)
		syscall(SYS_getpid);
	CHECK_EQ(ember_evsel__read(all, 0, 0, &c), 0);
	CHECK_EQ(c.val, 100);
	CHECK_EQ(ember_evsel__read(none, 0, 0, &c), 0);
	CHECK_EQ(c.val, 0);
	goto out;
skip:
	t->skip_reason = "perf_event_open denied";
out:
	evsel__delete(all);
	evsel__delete(none);
	evsel__delete(bad);
}

TEST(evsel_open_dead_pid_esrch)
{
	struct perf_event_attr attr = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct ember_evsel *evsel = evsel__new(&attr, "task-clock");
	struct ember_thread_map *threads;
	char msg[256];
	pid_t child = fork();
	int err;

	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	threads = ember_thread_map__new_pid(child);
	err = ember_evsel__open(evsel, NULL, threads);
	if (DENIED(err)) {
		evsel__delete(evsel);
		ember_thread_map__put(threads);
		SKIP("perf_event_open denied");
	}
	CHECK_EQ(err, -ESRCH);
	CHECK_EQ(evsel->open_err, -ESRCH);
	CHECK(evsel->fds == NULL);
	ember_evsel__strerror_open(evsel, err, msg, sizeof(msg));
	CHECK(strstr(msg, "no such process") != NULL);
	evsel__delete(evsel);
	ember_thread_map__put(threads);
}

/* Use up every descriptor below the soft limit. */
static void fill_fds(void)
{
	while (dup(0) >= 0)
		;
}

/*
 * In a child (rlimits are per process). Returns 0 when: with every fd
 * below a low soft limit in use, the open succeeds because it raises the
 * soft limit to the hard one; and once the hard limit is low too, it
 * fails with -EMFILE, explained with the limit.
 */
static int emfile_child(void)
{
	struct perf_event_attr attr = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct ember_evsel *evsel = evsel__new(&attr, "task-clock");
	struct rlimit rl, low;
	char msg[512];
	int err;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_max <= 128)
		return 10;
	low.rlim_cur = 64;
	low.rlim_max = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &low) < 0)
		return 11;
	fill_fds();
	err = ember_evsel__open(evsel, NULL, NULL);
	if (DENIED(err))
		return 77;
	if (err)
		return 12;
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur != rl.rlim_max)
		return 13;
	ember_evsel__close(evsel);

	low.rlim_max = 64;
	if (setrlimit(RLIMIT_NOFILE, &low) < 0)
		return 14;
	fill_fds();
	err = ember_evsel__open(evsel, NULL, NULL);
	if (err != -EMFILE || evsel->fds)
		return 15;
	ember_evsel__strerror_open(evsel, err, msg, sizeof(msg));
	if (!strstr(msg, "limit is 64") || !strstr(msg, "ulimit -n"))
		return 16;
	evsel__delete(evsel);
	return 0;
}

TEST(evsel_open_emfile_raises_limit)
{
	pid_t child = fork();
	int status;

	if (child < 0)
		SKIP("fork failed");
	if (child == 0)
		_exit(emfile_child());
	waitpid(child, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		SKIP("perf_event_open denied");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr, "  emfile child: status %#x (step %d)\n", status,
			WEXITSTATUS(status));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(evsel_strerror_messages)
{
	struct perf_event_attr hw = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(hw),
		.config = PERF_COUNT_HW_CPU_CYCLES,
	};
	struct perf_event_attr sw = sw_attr(PERF_COUNT_SW_CPU_CLOCK);
	struct ember_evsel *cycles = evsel__new(&hw, "cycles");
	struct ember_evsel *clock = evsel__new(&sw, "cpu-clock");
	char msg[512], want[64];
	struct rlimit rl;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	long paranoid = 99;

	if (f) {
		if (fscanf(f, "%ld", &paranoid) != 1)
			paranoid = 99;
		fclose(f);
	}

	ember_evsel__strerror_open(clock, -EACCES, msg, sizeof(msg));
	snprintf(want, sizeof(want), "perf_event_paranoid is %ld", paranoid);
	CHECK(strstr(msg, want) != NULL);
	CHECK(strstr(msg, "sysctl -w kernel.perf_event_paranoid=-1") != NULL);
	CHECK(strstr(msg, "CAP_PERFMON") != NULL);
	CHECK(!strchr(msg, '\n'));
	if (t->failures)
		fprintf(stderr, "  EACCES: %s\n", msg);
	ember_evsel__strerror_open(clock, EPERM, msg, sizeof(msg));
	CHECK(strstr(msg, want) != NULL);

	ember_evsel__strerror_open(cycles, -ENOENT, msg, sizeof(msg));
	if (have_core_pmu())
		CHECK(strstr(msg, "not supported") != NULL);
	else
		CHECK_STR(msg, "not supported on this machine (no hardware PMU); try -e cpu-clock");
	ember_evsel__strerror_open(cycles, -EOPNOTSUPP, msg, sizeof(msg));
	if (!have_core_pmu())
		CHECK(strstr(msg, "no hardware PMU") != NULL);

	ember_evsel__strerror_open(clock, -ESRCH, msg, sizeof(msg));
	CHECK(strstr(msg, "no such process") != NULL);

	getrlimit(RLIMIT_NOFILE, &rl);
	ember_evsel__strerror_open(clock, -EMFILE, msg, sizeof(msg));
	snprintf(want, sizeof(want), "limit is %llu", (unsigned long long)rl.rlim_cur);
	CHECK(strstr(msg, "too many open files") != NULL);
	CHECK(strstr(msg, want) != NULL);
	CHECK(strstr(msg, "ulimit -n") != NULL);
	if (t->failures)
		fprintf(stderr, "  EMFILE: %s\n", msg);

	/* EINVAL names the attr at fault. */
	clock->attr.freq = 1;
	clock->attr.sample_freq = 10 * 1000 * 1000;
	ember_evsel__strerror_open(clock, -EINVAL, msg, sizeof(msg));
	CHECK(strstr(msg, "perf_event_max_sample_rate") != NULL);
	clock->attr.freq = 0;
	clock->attr.sample_period = 0;
	clock->attr.precise_ip = 2;
	ember_evsel__strerror_open(clock, -EINVAL, msg, sizeof(msg));
	CHECK(strstr(msg, "precise") != NULL);

	/* Every errno yields one non-empty line, even into a tiny buffer. */
	for (int e = 1; e < 134; e++) {
		ember_evsel__strerror_open(clock, -e, msg, sizeof(msg));
		CHECK(msg[0] && !strchr(msg, '\n'));
	}
	ember_evsel__strerror_open(clock, -EACCES, msg, 8);
	CHECK_EQ(strlen(msg), 7);
	evsel__delete(cycles);
	evsel__delete(clock);
}

TEST(evsel_open_skips_exited_thread)
{
	struct perf_event_attr attr = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct ember_evsel *evsel = evsel__new(&attr, "task-clock");
	struct ember_thread_map *threads;
	struct ember_counts c;
	char list[32];
	pid_t child = fork();
	int err;

	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	/* A task list where one task is gone: it is skipped, the rest is counted. */
	snprintf(list, sizeof(list), "%d,%d", (int)syscall(SYS_gettid), (int)child);
	threads = ember_thread_map__new_tids(list);
	err = ember_evsel__open(evsel, NULL, threads);
	if (DENIED(err)) {
		evsel__delete(evsel);
		ember_thread_map__put(threads);
		SKIP("perf_event_open denied");
	}
	CHECK_EQ(err, 0);
	CHECK(ember_evsel__fd(evsel, 0, 0) >= 0);
	CHECK_EQ(ember_evsel__fd(evsel, 0, 1), -1);
	burn();
	CHECK_EQ(ember_evsel__read(evsel, 0, 0, &c), 0);
	CHECK(c.val > 1000000);
	CHECK_EQ(ember_evsel__read(evsel, 0, 1, &c), 0);
	CHECK_EQ(c.val, 0);
	evsel__delete(evsel);
	ember_thread_map__put(threads);
}
