// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Tasks that already run: COMM, FORK and MMAP2 records from /proc, in the
 * order and shape perf 6.1 synthesizes them for -p/-t (thread maps) and -a
 * (every process).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include "core/clock.h"
#include "core/log.h"
#include "synth/synth-int.h"

/*
 * Internal results besides 0 and -errno: the task went away (or never was),
 * or its maps cannot be read (EACCES: another user namespace, ptrace rules).
 */
#define GONE 1
#define DENIED 2

static int emit_comm(struct ember_synth *s, pid_t tgid, pid_t tid, const char *comm)
{
	union synth_buf buf;
	struct synth_comm *ev = (struct synth_comm *)&buf;
	size_t n = strlen(comm) + 1;
	int err;

	ev->header.type = PERF_RECORD_COMM;
	ev->header.misc = 0;
	ev->pid = (uint32_t)tgid;
	ev->tid = (uint32_t)tid;
	memcpy(ev->comm, comm, n);
	err = synth__emit(s, &buf, sizeof(*ev) + n);
	if (!err)
		s->counts.comm++;
	return err;
}

/* As perf: a leader's parent is PPid; other threads are "forked" by their leader. */
static int emit_fork(struct ember_synth *s, pid_t tgid, pid_t tid, pid_t ppid)
{
	union synth_buf buf;
	struct synth_fork *ev = (struct synth_fork *)&buf;
	pid_t parent = tid == tgid ? ppid : tgid;
	int err;

	ev->header.type = PERF_RECORD_FORK;
	ev->header.misc = PERF_RECORD_MISC_FORK_EXEC;
	ev->pid = (uint32_t)tgid;
	ev->ppid = (uint32_t)parent;
	ev->tid = (uint32_t)tid;
	ev->ptid = (uint32_t)parent;
	ev->time = 0;
	err = synth__emit(s, &buf, sizeof(*ev));
	if (!err)
		s->counts.fork++;
	return err;
}

/* ---- /proc/PID/maps ------------------------------------------------------------ */

struct maps_line {
	uint64_t start, end, pgoff, ino;
	uint32_t maj, min, prot, flags;
	const char *name;
};

/* Parse hex digits at p into *v; returns the first other char, NULL without digits. */
static const char *parse_hex(const char *p, uint64_t *v)
{
	const char *q = p;
	uint64_t x = 0;

	for (;; q++) {
		int d;

		if (*q >= '0' && *q <= '9')
			d = *q - '0';
		else if (*q >= 'a' && *q <= 'f')
			d = *q - 'a' + 10;
		else if (*q >= 'A' && *q <= 'F')
			d = *q - 'A' + 10;
		else
			break;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return q == p ? NULL : q;
}

/* "00400000-0040c000 r-xp 00000000 fd:01 41038    /bin/cat"; false when malformed. */
static bool parse_maps_line(const char *p, struct maps_line *m)
{
	uint64_t v;

	p = parse_hex(p, &m->start);
	if (!p || *p++ != '-')
		return false;
	p = parse_hex(p, &m->end);
	if (!p || *p++ != ' ')
		return false;

	m->prot = 0;
	if (p[0] == 'r')
		m->prot |= PROT_READ;
	else if (p[0] != '-')
		return false;
	if (p[1] == 'w')
		m->prot |= PROT_WRITE;
	else if (p[1] != '-')
		return false;
	if (p[2] == 'x')
		m->prot |= PROT_EXEC;
	else if (p[2] != '-')
		return false;
	if (p[3] == 's')
		m->flags = MAP_SHARED;
	else if (p[3] == 'p')
		m->flags = MAP_PRIVATE;
	else
		return false;
	if (p[4] != ' ')
		return false;
	p += 5;

	p = parse_hex(p, &m->pgoff);
	if (!p || *p++ != ' ')
		return false;
	p = parse_hex(p, &v);
	if (!p || *p++ != ':')
		return false;
	m->maj = (uint32_t)v;
	p = parse_hex(p, &v);
	if (!p || *p++ != ' ')
		return false;
	m->min = (uint32_t)v;

	if (*p < '0' || *p > '9')
		return false;
	for (m->ino = 0; *p >= '0' && *p <= '9'; p++)
		m->ino = m->ino * 10 + (uint64_t)(*p - '0');
	if (*p && *p != ' ')
		return false;
	while (*p == ' ')
		p++;
	m->name = p;
	return true;
}

static int emit_mmap2(struct ember_synth *s, pid_t tgid, pid_t pid, const struct maps_line *m,
		      const char *name, uint16_t misc)
{
	union synth_buf buf;
	struct synth_mmap2 *ev = (struct synth_mmap2 *)&buf;
	size_t n = strlen(name) + 1;
	int err;

	ev->header.type = PERF_RECORD_MMAP2;
	ev->header.misc = misc;
	ev->pid = (uint32_t)tgid;
	ev->tid = (uint32_t)pid;
	ev->start = m->start;
	ev->len = m->end - m->start;
	ev->pgoff = m->pgoff;
	ev->maj = m->maj;
	ev->min = m->min;
	ev->ino = m->ino;
	ev->ino_generation = 0;
	ev->prot = m->prot;
	ev->flags = m->flags;
	memcpy(ev->filename, name, n);
	err = synth__emit(s, &buf, sizeof(*ev) + n);
	if (!err)
		s->counts.mmap2++;
	return err;
}

/*
 * Returns 0, GONE when the maps file is gone, DENIED when it cannot be
 * opened for lack of permission (EACCES, EPERM), -errno, or the emit error.
 */
static int synth_mmaps(struct ember_synth *s, pid_t pid, pid_t tgid)
{
	char buf[16384], path[64];
	struct synth_lines l;
	uint64_t t0, timeout = (uint64_t)s->opts.proc_map_timeout_ms * 1000000ULL;
	char *line;
	size_t len;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%d/task/%d/maps", (int)pid, (int)pid);
	fd = openat(s->proc_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ESRCH)
			return GONE;
		pr_debug("synth: cannot open /proc/%s: %s\n", path, strerror(errno));
		s->counts.unreadable++;
		return errno == EACCES || errno == EPERM ? DENIED : -errno;
	}
	synth_lines__init(&l, fd, buf, sizeof(buf));
	t0 = clock_now_ns();
	while ((line = synth_lines__next(&l, &len))) {
		struct maps_line m;
		const char *name;
		uint16_t misc = PERF_RECORD_MISC_USER;
		bool timed_out;

		if (!parse_maps_line(line, &m))
			continue;
		name = l.toolong ? "//toolong" : m.name;
		if (!*name)
			name = "//anon";
		if (s->hugetlbfs_len && !strncmp(name, s->hugetlbfs, s->hugetlbfs_len)) {
			name = "//anon";
			m.flags |= MAP_HUGETLB;
		}
		timed_out = clock_now_ns() - t0 > timeout;
		if (timed_out) {
			/* As perf: this line goes out flagged, whatever it is, and we stop. */
			misc |= PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT;
		} else if (!(m.prot & PROT_EXEC)) {
			if (!s->opts.mmap_data || !(m.prot & PROT_READ))
				continue;
			misc |= PERF_RECORD_MISC_MMAP_DATA;
		}
		err = emit_mmap2(s, tgid, pid, &m, name, misc);
		if (err)
			break;
		if (timed_out) {
			pr_warn("Reading /proc/%d/task/%d/maps time out. You may want to increase "
				"the time limit by --proc-map-timeout\n", (int)pid, (int)pid);
			s->counts.timeouts++;
			break;
		}
	}
	close(fd);
	return err;
}

/* The public face of the internal results. */
static int public_err(int err)
{
	if (err == GONE)
		return -ESRCH;
	if (err == DENIED)
		return -EACCES;
	return err;
}

int ember_synth__mmaps(struct ember_synth *s, pid_t pid, pid_t tgid)
{
	return public_err(synth_mmaps(s, pid, tgid));
}

/* ---- thread maps (-p/-t) ----------------------------------------------------- */

/* COMM for tid; *tgid gets its group. Returns 0, GONE, or the emit error. */
static int synth_comm(struct ember_synth *s, pid_t tid, pid_t *tgid)
{
	struct synth_status st;
	int err;

	if (synth__read_status(s, 0, tid, &st))
		return GONE;
	*tgid = st.tgid;
	s->counts.threads++;
	err = emit_comm(s, st.tgid, tid, st.comm);
	if (!err && s->opts.namespaces)
		err = ember_synth__namespaces(s, st.tgid, tid);
	return err;
}

pid_t ember_synth__comm(struct ember_synth *s, pid_t tid)
{
	pid_t tgid = -1;
	int err = synth_comm(s, tid, &tgid);

	return err ? public_err(err) : tgid;
}

/* perf's non-"full" thread: a COMM, and the maps when it leads its group. */
static int synth_thread(struct ember_synth *s, pid_t tid, pid_t *tgid)
{
	int err = synth_comm(s, tid, tgid);

	if (err)
		return err;
	if (*tgid != tid)
		return 0;
	s->counts.processes++;
	if (s->opts.no_mmap)
		return 0;
	err = synth_mmaps(s, tid, *tgid);
	if (err == GONE) {
		s->counts.vanished++;
		err = 0;
	}
	/* perf record -p fails on unreadable maps; so do we (as -EACCES). */
	return err == DENIED ? -EACCES : err;
}

static bool in_list(const pid_t *v, int nr, pid_t x)
{
	for (int i = 0; i < nr; i++)
		if (v[i] == x)
			return true;
	return false;
}

int ember_synth__threads(struct ember_synth *s, const pid_t *tids, int nr)
{
	bool any = false;

	for (int i = 0; i < nr; i++) {
		pid_t tgid = -1, ignored;
		int err = synth_thread(s, tids[i], &tgid);

		if (err == GONE) {
			s->counts.vanished++;
			continue;
		}
		if (err)
			return err;
		any = true;
		if (tgid == tids[i] || in_list(tids, nr, tgid))
			continue;
		err = synth_thread(s, tgid, &ignored);
		if (err == GONE)
			s->counts.vanished++;
		else if (err)
			return err;
	}
	return any ? 0 : -ESRCH;
}

/* ---- whole processes (-a) ------------------------------------------------------ */

struct process_walk {
	struct ember_synth *s;
	pid_t pid;
	bool any;
};

/* One task of the process: FORK, COMM, and the maps for a user-space leader. */
static int process_task(void *arg, pid_t tid)
{
	struct process_walk *w = arg;
	struct ember_synth *s = w->s;
	struct synth_status st;
	int err;

	if (synth__read_status(s, w->pid, tid, &st)) {
		s->counts.vanished++;
		return 0;
	}
	err = emit_fork(s, st.tgid, tid, st.ppid);
	/* perf's order for a full thread: FORK, NAMESPACES, COMM */
	if (!err && s->opts.namespaces)
		err = ember_synth__namespaces(s, st.tgid, tid);
	if (!err)
		err = emit_comm(s, st.tgid, tid, st.comm);
	if (err)
		return err;
	w->any = true;
	s->counts.threads++;
	if (st.kernel)
		s->counts.kernel_threads++;
	if (tid != w->pid)
		return 0;
	s->counts.processes++;
	if (st.kernel || s->opts.no_mmap)
		return 0;
	err = synth_mmaps(s, w->pid, st.tgid);
	if (err == GONE) {
		s->counts.vanished++;
		err = 0;
	}
	/*
	 * As perf 6.1: when the leader's maps cannot be read, the walk of this
	 * process stops, and its other threads get no records.
	 */
	return err;
}

/* Returns 0, GONE, or an error. */
static int synth_process(struct ember_synth *s, pid_t pid)
{
	struct process_walk w = { .s = s, .pid = pid };
	char path[32];
	int fd, err;

	snprintf(path, sizeof(path), "%d/task", (int)pid);
	fd = openat(s->proc_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return GONE;
	err = synth__for_each_number(fd, process_task, &w);
	close(fd);
	if (err == DENIED)
		err = 0;
	/* It exited while being walked: what was written of it stands. */
	if (err == -ENOENT || err == -ESRCH)
		return w.any ? 0 : GONE;
	if (err)
		return err;
	return w.any ? 0 : GONE;
}

int ember_synth__process(struct ember_synth *s, pid_t pid)
{
	return public_err(synth_process(s, pid));
}

static int all_one(void *arg, pid_t pid)
{
	struct ember_synth *s = arg;
	int err = synth_process(s, pid);

	if (err == GONE) {
		s->counts.vanished++;
		return 0;
	}
	return err;
}

int ember_synth__all_processes(struct ember_synth *s)
{
	int fd = openat(s->proc_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	err = synth__for_each_number(fd, all_one, s);
	close(fd);
	return err;
}
