// SPDX-License-Identifier: GPL-2.0-only
/*
 * Synthesized task records on the real /proc: this test process's COMM,
 * FORK per thread and MMAP2s covering its own code and libc's; the shape of
 * every record (sizes, alignment, zeroed trailer); -p style thread maps;
 * a whole machine; vanished pids; emit errors stopping the walk.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include "test.h"
#include "synth/synth-int.h"

#define ID_TYPE (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | \
		 PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD)
#define ID_SIZE 40	/* TID, TIME, ID, CPU, IDENTIFIER; IP and PERIOD are not in it */

/* Every record emitted, copied back to back. */
struct recs {
	char *buf;
	size_t len, alloc;
	int nr;
	int stop_after;		/* > 0: fail the emit after that many records */
	size_t trailer;		/* expected trailer bytes */
	int bad;		/* records whose shape was wrong */
};

static int collect(void *ctx, const struct perf_event_header *h)
{
	struct recs *r = ctx;
	const char *trailer = (const char *)h + h->size - r->trailer;

	if (r->stop_after && r->nr >= r->stop_after)
		return -EIO;
	if (h->size % 8 || h->size < sizeof(*h) + r->trailer)
		r->bad++;
	for (size_t i = 0; i < r->trailer; i++)
		if (trailer[i])
			r->bad++;
	if (r->len + h->size > r->alloc) {
		r->alloc = (r->len + h->size) * 2;
		r->buf = realloc(r->buf, r->alloc);
	}
	memcpy(r->buf + r->len, h, h->size);
	r->len += h->size;
	r->nr++;
	return 0;
}

#define for_each_rec(r, h)							\
	for (h = (const struct perf_event_header *)(r)->buf;			\
	     (const char *)h < (r)->buf + (r)->len;				\
	     h = (const void *)((const char *)h + h->size))

static int init(struct ember_synth *s, struct recs *r, bool data)
{
	struct ember_synth_opts o = {
		.emit = collect, .ctx = r, .sample_id_all = true, .sample_type = ID_TYPE,
		.mmap_data = data,
	};

	memset(r, 0, sizeof(*r));
	r->trailer = ID_SIZE;
	return ember_synth__init(s, &o);
}

/* The filename's bytes must stop (NUL) before the trailer starts. */
static bool name_fits(const struct perf_event_header *h, const char *name, size_t off)
{
	size_t n = strnlen(name, h->size - off);

	return off + n + 1 <= (size_t)(h->size - ID_SIZE) &&
	       SYNTH_ALIGN8(off + n + 1) == (size_t)(h->size - ID_SIZE);
}

static const struct synth_mmap2 *find_mmap2(const struct recs *r, uint64_t addr)
{
	const struct perf_event_header *h;

	for_each_rec(r, h) {
		const struct synth_mmap2 *m = (const void *)h;

		if (h->type == PERF_RECORD_MMAP2 && addr >= m->start && addr < m->start + m->len)
			return m;
	}
	return NULL;
}

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static pid_t helper_tid;

static void *helper(void *arg)
{
	prctl(PR_SET_NAME, (unsigned long)"synth-helper");
	__atomic_store_n(&helper_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&gate);	/* park until the test is done */
	pthread_mutex_unlock(&gate);
	return arg;
}

static void read_comm(char *comm, size_t size)
{
	FILE *f = fopen("/proc/self/comm", "r");

	comm[0] = '\0';
	if (f && fgets(comm, (int)size, f))
		comm[strcspn(comm, "\n")] = '\0';
	if (f)
		fclose(f);
}

TEST(synth_self_process)
{
	struct ember_synth s;
	struct recs r;
	const struct perf_event_header *h;
	const struct synth_mmap2 *m;
	char exe[PATH_MAX], comm[32];
	ssize_t n;
	pthread_t th;
	void *libc_fn = dlsym(RTLD_DEFAULT, "getpid");
	pid_t me = getpid();
	int forks = 0, comms = 0, helper_comm = 0, helper_fork = 0, err;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(n > 0);
	exe[n > 0 ? n : 0] = '\0';
	read_comm(comm, sizeof(comm));

	pthread_mutex_lock(&gate);
	CHECK_EQ(pthread_create(&th, NULL, helper, NULL), 0);
	while (!__atomic_load_n(&helper_tid, __ATOMIC_SEQ_CST))
		usleep(1000);

	CHECK_EQ(init(&s, &r, false), 0);
	err = ember_synth__process(&s, me);
	CHECK_EQ(err, 0);

	for_each_rec(&r, h) {
		if (h->type == PERF_RECORD_COMM) {
			const struct synth_comm *c = (const void *)h;

			comms++;
			CHECK_EQ(c->pid, me);
			CHECK_EQ(h->misc, 0);
			CHECK(name_fits(h, c->comm, sizeof(*c)));
			if (c->tid == (uint32_t)me)
				CHECK_STR(c->comm, comm);
			if (c->tid == (uint32_t)helper_tid) {
				CHECK_STR(c->comm, "synth-helper");
				helper_comm++;
			}
		} else if (h->type == PERF_RECORD_FORK) {
			const struct synth_fork *f = (const void *)h;

			forks++;
			CHECK_EQ(h->size, sizeof(*f) + ID_SIZE);
			CHECK_EQ(h->misc, PERF_RECORD_MISC_FORK_EXEC);
			CHECK_EQ(f->pid, me);
			CHECK_EQ(f->time, 0);
			if (f->tid == (uint32_t)me) {
				CHECK_EQ(f->ppid, getppid());
				CHECK_EQ(f->ptid, getppid());
			} else {
				CHECK_EQ(f->ppid, me);
				CHECK_EQ(f->ptid, me);
			}
			helper_fork += f->tid == (uint32_t)helper_tid;
		} else if (h->type == PERF_RECORD_MMAP2) {
			m = (const void *)h;
			CHECK_EQ(m->pid, me);
			CHECK_EQ(m->tid, me);
			CHECK_EQ(h->misc, PERF_RECORD_MISC_USER);
			CHECK(m->prot & PROT_EXEC);
			CHECK(m->flags == MAP_PRIVATE || m->flags == MAP_SHARED);
			CHECK(m->len > 0 && m->len % 4096 == 0);
			CHECK(name_fits(h, m->filename, sizeof(*m)));
		} else {
			CHECK(!"unexpected record type");
		}
	}
	CHECK_EQ(r.bad, 0);
	CHECK(forks >= 2);
	CHECK_EQ(forks, comms);
	CHECK_EQ(helper_comm, 1);
	CHECK_EQ(helper_fork, 1);
	CHECK_EQ(s.counts.fork, forks);
	CHECK_EQ(s.counts.comm, comms);
	CHECK_EQ(s.counts.processes, 1);

	/* Our own code is mapped from our executable, libc's from libc. */
	m = find_mmap2(&r, (uint64_t)(uintptr_t)&collect);
	CHECK(m != NULL);
	if (m) {
		CHECK_STR(m->filename, exe);
		CHECK_EQ(m->prot, PROT_READ | PROT_EXEC);
		CHECK_EQ(m->flags, MAP_PRIVATE);
		CHECK(m->ino != 0);
		CHECK(m->pgoff % 4096 == 0);
	}
	CHECK(libc_fn != NULL);
	m = find_mmap2(&r, (uint64_t)(uintptr_t)libc_fn);
	CHECK(m != NULL);
	if (m)
		CHECK(strstr(m->filename, "/libc") != NULL);
	m = find_mmap2(&r, (uint64_t)(uintptr_t)&r);
	CHECK(m == NULL);	/* the stack is not executable: no record */

	pthread_mutex_unlock(&gate);
	pthread_join(th, NULL);
	ember_synth__exit(&s);
	free(r.buf);
}

TEST(synth_self_data_and_anon)
{
	struct ember_synth s;
	struct recs r;
	const struct synth_mmap2 *m;
	long page = sysconf(_SC_PAGESIZE);
	char *anon = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_EXEC,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static int data_var = 1;

	CHECK(anon != MAP_FAILED);
	CHECK_EQ(init(&s, &r, true), 0);
	CHECK_EQ(ember_synth__mmaps(&s, getpid(), getpid()), 0);
	CHECK_EQ(r.bad, 0);

	m = find_mmap2(&r, (uint64_t)(uintptr_t)anon);
	CHECK(m != NULL);
	if (m) {
		CHECK_STR(m->filename, "//anon");
		CHECK_EQ(m->maj, 0);
		CHECK_EQ(m->ino, 0);
		CHECK_EQ(m->header.misc, PERF_RECORD_MISC_USER);
	}
	/* With mmap_data, a writable data mapping comes too, flagged as data. */
	m = find_mmap2(&r, (uint64_t)(uintptr_t)&data_var);
	CHECK(m != NULL);
	if (m) {
		CHECK_EQ(m->header.misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
		CHECK(m->prot & PROT_WRITE);
		CHECK(!(m->prot & PROT_EXEC));
	}
	munmap(anon, (size_t)page * 2);
	ember_synth__exit(&s);
	free(r.buf);
}

TEST(synth_thread_map_like_perf_p)
{
	struct ember_synth s;
	struct recs r;
	const struct perf_event_header *h;
	pid_t me = getpid();
	pid_t tids[2] = { me, 0x7ffffff0 };	/* the second does not exist */
	int comm = 0, mmap2 = 0, other = 0;

	CHECK_EQ(init(&s, &r, false), 0);
	CHECK_EQ(ember_synth__threads(&s, tids, 2), 0);
	for_each_rec(&r, h) {
		if (h->type == PERF_RECORD_COMM)
			comm++;
		else if (h->type == PERF_RECORD_MMAP2)
			mmap2++;
		else
			other++;
	}
	/* -p: a COMM and the leader's MMAP2s, no FORK. */
	CHECK_EQ(comm, 1);
	CHECK(mmap2 >= 3);
	CHECK_EQ(other, 0);
	CHECK_EQ(s.counts.vanished, 1);
	CHECK_EQ(((const struct perf_event_header *)r.buf)->type, PERF_RECORD_COMM);

	CHECK_EQ(ember_synth__threads(&s, tids + 1, 1), -ESRCH);
	CHECK_EQ(ember_synth__process(&s, 0x7ffffff0), -ESRCH);
	CHECK_EQ(ember_synth__comm(&s, 0x7ffffff0), -ESRCH);
	CHECK_EQ(ember_synth__mmaps(&s, 0x7ffffff0, 0x7ffffff0), -ESRCH);
	CHECK_EQ(ember_synth__comm(&s, me), me);
	ember_synth__exit(&s);
	free(r.buf);
}

TEST(synth_no_mmap_and_no_trailer)
{
	struct ember_synth s;
	struct recs r = { 0 };
	struct ember_synth_opts o = { .emit = collect, .ctx = &r, .no_mmap = true };
	const struct perf_event_header *h;
	pid_t me = getpid();

	CHECK_EQ(ember_synth__init(&s, &o), 0);
	CHECK_EQ(s.id_size, 0);
	CHECK_EQ(ember_synth__threads(&s, &me, 1), 0);
	CHECK_EQ(r.nr, 1);
	h = (const void *)r.buf;
	if (r.nr == 1) {
		const struct synth_comm *c = (const void *)h;

		CHECK_EQ(h->type, PERF_RECORD_COMM);
		CHECK_EQ(h->size, SYNTH_ALIGN8(sizeof(*c) + strlen(c->comm) + 1));
	}
	CHECK_EQ(r.bad, 0);
	ember_synth__exit(&s);
	free(r.buf);
	CHECK_EQ(ember_synth__init(&s, NULL), -EINVAL);
}

TEST(synth_emit_error_stops)
{
	struct ember_synth s;
	struct recs r;

	CHECK_EQ(init(&s, &r, false), 0);
	r.stop_after = 2;
	CHECK_EQ(ember_synth__process(&s, getpid()), -EIO);
	CHECK_EQ(r.nr, 2);
	r.nr = 0;
	r.stop_after = 5;
	CHECK_EQ(ember_synth__all_processes(&s), -EIO);
	CHECK_EQ(r.nr, 5);
	ember_synth__exit(&s);
	free(r.buf);
}

TEST(synth_whole_machine)
{
	struct ember_synth s;
	struct ember_synth_counts counts;
	struct recs r;
	const struct perf_event_header *h;
	bool init_comm = false, self_mmap = false, kthread_mmap = false, kthreadd = false;
	pid_t me = getpid();

	CHECK_EQ(init(&s, &r, false), 0);
	CHECK_EQ(ember_synth__machine(&s, &counts), 0);
	CHECK_EQ(r.bad, 0);
	/* The kernel first (unless kallsyms hides it), then the tasks. */
	h = (const void *)r.buf;
	if (!counts.kernel_err) {
		CHECK_EQ(h->type, PERF_RECORD_MMAP);
		CHECK(counts.mmap >= 1);
	} else {
		CHECK_EQ(counts.mmap, 0);
	}
	for_each_rec(&r, h) {
		if (h->type == PERF_RECORD_COMM) {
			const struct synth_comm *c = (const void *)h;

			init_comm |= c->pid == 1 && c->tid == 1;
			kthreadd |= c->pid == 2 && !strcmp(c->comm, "kthreadd");
		} else if (h->type == PERF_RECORD_MMAP2) {
			const struct synth_mmap2 *m = (const void *)h;

			self_mmap |= m->pid == (uint32_t)me;
			kthread_mmap |= m->pid == 2;
		}
	}
	CHECK(init_comm);
	CHECK(self_mmap);
	CHECK(!kthread_mmap);
	if (access("/proc/2/status", R_OK) == 0)
		CHECK(kthreadd);
	CHECK(counts.processes > 2);
	CHECK_EQ(counts.fork, counts.comm);
	CHECK_EQ(counts.threads, counts.comm);
	CHECK(counts.kernel_threads > 0);
	CHECK_EQ(counts.mmap + counts.mmap2 + counts.fork + counts.comm, (uint64_t)r.nr);
	ember_synth__exit(&s);
	free(r.buf);
}

TEST(synth_id_sample_layout)
{
	struct ember_synth_id id = {
		.pid = 1, .tid = 2, .time = 3, .id = 4, .stream_id = 5, .cpu = 6,
	};
	uint64_t buf[EMBER_SYNTH_ID_MAX / 8];
	uint64_t all = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		       PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	uint32_t u32[2];

	CHECK_EQ(ember_synth__id_sample(buf, all, &id), 48);
	memcpy(u32, &buf[0], sizeof(u32));
	CHECK_EQ(u32[0], 1);
	CHECK_EQ(u32[1], 2);
	CHECK_EQ(buf[1], 3);
	CHECK_EQ(buf[2], 4);
	CHECK_EQ(buf[3], 5);
	memcpy(u32, &buf[4], sizeof(u32));
	CHECK_EQ(u32[0], 6);
	CHECK_EQ(u32[1], 0);
	CHECK_EQ(buf[5], 4);
	CHECK_EQ(ember_synth__id_sample(buf, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD, &id), 0);
	CHECK_EQ(ember_synth__id_sample(buf, PERF_SAMPLE_TIME, NULL), 8);
	CHECK_EQ(buf[0], 0);
}

/*
 * A process whose maps we may not read (here pid 1 lives in another user
 * namespace): -a gives its leader FORK and COMM and stops there, as perf
 * 6.1; -p fails with -EACCES, as perf record -p does.
 */
TEST(synth_unreadable_maps)
{
	struct ember_synth s;
	struct recs r;
	const struct perf_event_header *h;
	pid_t one = 1;
	int fd = open("/proc/1/maps", O_RDONLY), nr_tasks = 0;

	if (fd >= 0 || errno != EACCES) {
		if (fd >= 0)
			close(fd);
		SKIP("/proc/1/maps is readable here");
	}
	CHECK_EQ(init(&s, &r, false), 0);
	CHECK_EQ(ember_synth__mmaps(&s, 1, 1), -EACCES);
	CHECK_EQ(ember_synth__process(&s, 1), 0);
	for_each_rec(&r, h) {
		const struct synth_comm *c = (const void *)h;
		const struct synth_fork *f = (const void *)h;

		if (h->type == PERF_RECORD_FORK) {
			CHECK_EQ(f->pid, 1);
			CHECK_EQ(f->tid, 1);
		} else {
			CHECK_EQ(h->type, PERF_RECORD_COMM);
			CHECK_EQ(c->pid, 1);
			CHECK_EQ(c->tid, 1);
		}
		nr_tasks++;
	}
	CHECK_EQ(nr_tasks, 2);
	CHECK(s.counts.unreadable >= 2);
	CHECK_EQ(ember_synth__threads(&s, &one, 1), -EACCES);
	ember_synth__exit(&s);
	free(r.buf);
}
