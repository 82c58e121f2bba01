// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The synthesis context, the sample_id trailer, record emission, and the
 * small /proc readers (status, numeric directories, lines) the rest shares.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/log.h"
#include "synth/synth-int.h"

#define DEFAULT_PROC_MAP_TIMEOUT_MS 500

size_t ember_synth__id_sample(void *buf, uint64_t type, const struct ember_synth_id *id)
{
	static const struct ember_synth_id zero;
	uint64_t *a = buf;
	size_t n = 0;
	uint32_t u32[2];

	if (!id)
		id = &zero;
	if (type & PERF_SAMPLE_TID) {
		u32[0] = id->pid;
		u32[1] = id->tid;
		memcpy(&a[n++], u32, sizeof(u32));
	}
	if (type & PERF_SAMPLE_TIME)
		a[n++] = id->time;
	if (type & PERF_SAMPLE_ID)
		a[n++] = id->id;
	if (type & PERF_SAMPLE_STREAM_ID)
		a[n++] = id->stream_id;
	if (type & PERF_SAMPLE_CPU) {
		u32[0] = id->cpu;
		u32[1] = 0;
		memcpy(&a[n++], u32, sizeof(u32));
	}
	if (type & PERF_SAMPLE_IDENTIFIER)
		a[n++] = id->id;
	return n * sizeof(uint64_t);
}

/* The first hugetlbfs mount point in /proc/self/mounts, as perf looks it up. */
static void find_hugetlbfs(struct ember_synth *s)
{
	char buf[8192];
	struct synth_lines l;
	char *line;
	size_t len;
	int fd = openat(s->proc_fd, "self/mounts", O_RDONLY | O_CLOEXEC);

	s->hugetlbfs[0] = '\0';
	s->hugetlbfs_len = 0;
	if (fd < 0)
		return;
	synth_lines__init(&l, fd, buf, sizeof(buf));
	while ((line = synth_lines__next(&l, &len))) {
		char *dir = strchr(line, ' '), *type, *end;

		if (!dir)
			continue;
		dir++;
		type = strchr(dir, ' ');
		if (!type)
			continue;
		*type++ = '\0';
		end = strchr(type, ' ');
		if (!end || (size_t)(end - type) != 9 || strncmp(type, "hugetlbfs", 9))
			continue;
		if (strlen(dir) < sizeof(s->hugetlbfs)) {
			strcpy(s->hugetlbfs, dir);
			s->hugetlbfs_len = strlen(dir);
		}
		break;
	}
	close(fd);
}

int ember_synth__init(struct ember_synth *s, const struct ember_synth_opts *opts)
{
	memset(s, 0, sizeof(*s));
	s->proc_fd = -1;
	if (!opts || !opts->emit)
		return -EINVAL;
	s->opts = *opts;
	if (!s->opts.proc_map_timeout_ms)
		s->opts.proc_map_timeout_ms = DEFAULT_PROC_MAP_TIMEOUT_MS;
	if (opts->sample_id_all)
		s->id_size = ember_synth__id_sample(s->id_sample, opts->sample_type, opts->id);
	s->proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->proc_fd < 0)
		return -errno;
	find_hugetlbfs(s);
	return 0;
}

void ember_synth__exit(struct ember_synth *s)
{
	if (s->proc_fd >= 0)
		close(s->proc_fd);
	s->proc_fd = -1;
}

int synth__emit(struct ember_synth *s, union synth_buf *buf, size_t len)
{
	size_t aligned = SYNTH_ALIGN8(len);
	char *p = (char *)buf;
	int err;

	memset(p + len, 0, aligned - len);
	memcpy(p + aligned, s->id_sample, s->id_size);
	buf->header.size = (uint16_t)(aligned + s->id_size);
	err = s->opts.emit(s->opts.ctx, &buf->header);
	/* Positive values mean "gone" inside lib/synth: keep the caller's apart. */
	return err > 0 ? -ECANCELED : err;
}

/* ---- line reader ------------------------------------------------------------ */

void synth_lines__init(struct synth_lines *l, int fd, char *buf, size_t size)
{
	memset(l, 0, sizeof(*l));
	l->fd = fd;
	l->buf = buf;
	l->size = size;
}

/* Refill after moving the unread tail to the front. Returns bytes read, 0 at EOF. */
static ssize_t lines_fill(struct synth_lines *l)
{
	ssize_t n;

	if (l->head) {
		memmove(l->buf, l->buf + l->head, l->tail - l->head);
		l->tail -= l->head;
		l->head = 0;
	}
	do {
		n = read(l->fd, l->buf + l->tail, l->size - 1 - l->tail);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		l->err = -errno;
		l->eof = true;
		return 0;
	}
	if (n == 0)
		l->eof = true;
	l->tail += (size_t)n;
	return n;
}

char *synth_lines__next(struct synth_lines *l, size_t *len)
{
	char *line, *nl;
	size_t scanned = 0;

	l->toolong = false;
	for (;;) {
		nl = memchr(l->buf + l->head + scanned, '\n', l->tail - l->head - scanned);
		if (nl)
			break;
		scanned = l->tail - l->head;
		if (l->eof) {
			if (!scanned)
				return NULL;
			/* A last line without '\n'. */
			nl = l->buf + l->tail;
			break;
		}
		if (l->head == 0 && l->tail == l->size - 1) {
			/* Full buffer, no newline: cut here, drop the rest of the line. */
			char c;
			ssize_t n;

			l->toolong = true;
			nl = l->buf + l->tail;
			do {
				n = read(l->fd, &c, 1);
			} while ((n > 0 && c != '\n') || (n < 0 && errno == EINTR));
			if (n <= 0)
				l->eof = true;
			break;
		}
		lines_fill(l);
	}
	line = l->buf + l->head;
	*nl = '\0';
	*len = (size_t)(nl - line);
	l->head = (size_t)(nl - l->buf) + (nl < l->buf + l->tail ? 1 : 0);
	if (l->head > l->tail)
		l->head = l->tail;
	return line;
}

/* ---- /proc readers ---------------------------------------------------------- */

/* Whether the line starts with the field name (which includes its ':'). */
static bool field(const char *line, const char *name, size_t n)
{
	return !strncmp(line, name, n);
}

int synth__read_status(struct ember_synth *s, pid_t pid, pid_t tid, struct synth_status *st)
{
	char bf[4096], path[64];
	char *p, *nl;
	ssize_t n;
	int fd;
	bool have_tgid = false;

	if (pid)
		snprintf(path, sizeof(path), "%d/task/%d/status", (int)pid, (int)tid);
	else
		snprintf(path, sizeof(path), "%d/status", (int)tid);
	fd = openat(s->proc_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	n = read(fd, bf, sizeof(bf) - 1);
	close(fd);
	if (n <= 0)
		return 1;
	bf[n] = '\0';

	memset(st, 0, sizeof(*st));
	st->tgid = -1;
	st->ppid = -1;
	st->kernel = true;
	for (p = bf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (field(p, "Name:", 5)) {
			char *name = p + 5;
			size_t len;

			while (name < nl && isspace((unsigned char)*name))
				name++;
			len = (size_t)(nl - name);
			if (len >= sizeof(st->comm))
				len = sizeof(st->comm) - 1;
			memcpy(st->comm, name, len);
			st->comm[len] = '\0';
		} else if (field(p, "Tgid:", 5)) {
			st->tgid = atoi(p + 5);
			have_tgid = true;
		} else if (field(p, "PPid:", 5)) {
			st->ppid = atoi(p + 5);
		} else if (field(p, "VmPeak:", 7)) {
			st->kernel = false;
			break;		/* everything perf wants comes before VmPeak */
		}
		if (!*nl)
			break;
	}
	return have_tgid && st->tgid > 0 ? 0 : 1;
}

/* Parse an all-digit name into n. Returns false for anything else. */
static bool parse_number(const char *name, pid_t *n)
{
	long v = 0;

	if (!*name)
		return false;
	for (; *name; name++) {
		if (*name < '0' || *name > '9' || v > 0x7fffffffL / 10)
			return false;
		v = v * 10 + (*name - '0');
	}
	*n = (pid_t)v;
	return true;
}

int synth__for_each_number(int dirfd, int (*fn)(void *arg, pid_t n), void *arg)
{
	char buf[8192] __attribute__((aligned(8)));
	ssize_t got;

	while ((got = getdents64(dirfd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < got;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			pid_t n;
			int err;

			off += d->d_reclen;
			if (!parse_number(d->d_name, &n))
				continue;
			err = fn(arg, n);
			if (err)
				return err;
		}
	}
	return got < 0 ? -errno : 0;
}
