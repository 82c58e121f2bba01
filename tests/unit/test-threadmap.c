// SPDX-License-Identifier: GPL-2.0-only
/* Thread maps: every task of a pid, tid lists, dead pids, bad lists. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ember/event.h>
#include "test.h"

struct parked {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool go;
	pid_t tid;
};

static void *park(void *arg)
{
	struct parked *p = arg;

	pthread_mutex_lock(&p->lock);
	p->tid = (pid_t)syscall(SYS_gettid);
	pthread_cond_broadcast(&p->cond);
	while (!p->go)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

TEST(threadmap_pids_lists_every_task)
{
	struct parked p = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0 };
	struct ember_thread_map *m;
	pthread_t th;
	char list[32];
	bool self = false, other = false;

	if (pthread_create(&th, NULL, park, &p))
		SKIP("pthread_create failed");
	pthread_mutex_lock(&p.lock);
	while (!p.tid)
		pthread_cond_wait(&p.cond, &p.lock);
	pthread_mutex_unlock(&p.lock);

	snprintf(list, sizeof(list), "%d", (int)getpid());
	m = ember_thread_map__new_pids(list);
	CHECK(m != NULL);
	for (int i = 0; m && i < ember_thread_map__nr(m); i++) {
		self |= ember_thread_map__pid(m, i) == getpid();
		other |= ember_thread_map__pid(m, i) == p.tid;
	}
	CHECK(m && ember_thread_map__nr(m) >= 2);
	CHECK(self);
	CHECK(other);
	CHECK_EQ(ember_thread_map__pid(m, ember_thread_map__nr(m)), -1);
	ember_thread_map__put(m);

	pthread_mutex_lock(&p.lock);
	p.go = true;
	pthread_cond_broadcast(&p.cond);
	pthread_mutex_unlock(&p.lock);
	pthread_join(th, NULL);
}

TEST(threadmap_dead_pid)
{
	struct ember_thread_map *m;
	char list[32];
	pid_t child = fork();

	if (child < 0)
		SKIP("fork failed");
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	snprintf(list, sizeof(list), "%d", (int)child);
	errno = 0;
	m = ember_thread_map__new_pids(list);
	CHECK(m == NULL);
	CHECK_EQ(errno, ESRCH);

	/* One dead pid in a list fails the whole list. */
	snprintf(list, sizeof(list), "%d,%d", (int)getpid(), (int)child);
	errno = 0;
	m = ember_thread_map__new_pids(list);
	CHECK(m == NULL);
	CHECK_EQ(errno, ESRCH);
}

TEST(threadmap_tids_and_bad_lists)
{
	static const char *const bad[] = { "", ",", "1,", "x", "-1", "0", "1 2", "99999999999" };
	struct ember_thread_map *m = ember_thread_map__new_tids("10,20,10,30");

	CHECK(m != NULL);
	if (m) {
		CHECK_EQ(ember_thread_map__nr(m), 3);
		CHECK_EQ(ember_thread_map__pid(m, 0), 10);
		CHECK_EQ(ember_thread_map__pid(m, 1), 20);
		CHECK_EQ(ember_thread_map__pid(m, 2), 30);
	}
	ember_thread_map__put(m);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		CHECK(ember_thread_map__new_tids(bad[i]) == NULL);
		CHECK_EQ(errno, EINVAL);
		errno = 0;
		CHECK(ember_thread_map__new_pids(bad[i]) == NULL);
		CHECK_EQ(errno, EINVAL);
	}
	errno = 0;
	CHECK(ember_thread_map__new_pids(NULL) == NULL);
	CHECK_EQ(errno, EINVAL);
}

TEST(threadmap_single_any_refcount)
{
	struct ember_thread_map *m = ember_thread_map__new_pid(1234);
	struct ember_thread_map *a = ember_thread_map__new_any();

	CHECK(m && ember_thread_map__nr(m) == 1 && ember_thread_map__pid(m, 0) == 1234);
	CHECK(a && ember_thread_map__nr(a) == 1 && ember_thread_map__pid(a, 0) == -1);
	CHECK(ember_thread_map__is_any(a));
	CHECK(!ember_thread_map__is_any(m));
	CHECK(ember_thread_map__get(a) == a);
	ember_thread_map__put(a);
	CHECK_EQ(ember_thread_map__pid(a, 0), -1);
	ember_thread_map__put(a);
	ember_thread_map__put(m);
	ember_thread_map__put(NULL);
	CHECK_EQ(ember_thread_map__nr(NULL), 0);
}
