// SPDX-License-Identifier: GPL-2.0-only
/* ember trace's memory of threads, fds and names (see state.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/hash.h"
#include "trace/state.h"

void trace_state__init(struct trace_state *s)
{
	memset(s, 0, sizeof(*s));
}

void trace_state__exit(struct trace_state *s)
{
	struct hashtab_slot *slot;

	hashtab__for_each(&s->threads, slot) {
		struct trace_thread *t = (struct trace_thread *)(uintptr_t)slot->val;

		trace_thread__exit(t);
		free(t);
	}
	hashtab__for_each(&s->fds, slot)
		free((void *)(uintptr_t)slot->val);
	hashtab__exit(&s->threads);
	hashtab__exit(&s->fds);
}

/* A path behind an fd, and whose it is (to forget a process's fds at its end). */
struct fd_path {
	pid_t pid;
	char path[];
};

void trace_thread__exit(struct trace_thread *t)
{
	free(t->open_name);
	free(t->entry_str);
	t->open_name = NULL;
	t->entry_str = NULL;
	t->entry_pending = false;
}

static uint64_t tid_hash(pid_t tid)
{
	return hash_mix64((uint32_t)tid);
}

/* (pid, fd) packed into 64 bits; hash_mix64 keeps it a bijection. */
static uint64_t fd_hash(pid_t pid, int fd)
{
	return hash_mix64((uint64_t)(uint32_t)pid << 32 | (uint32_t)fd);
}

struct trace_thread *trace_state__thread(struct trace_state *s, pid_t pid, pid_t tid)
{
	uint64_t h = tid_hash(tid);
	struct hashtab_slot *slot;
	struct trace_thread *t;

	if (hashtab__reserve(&s->threads, 1))
		return NULL;
	slot = hashtab__slot(&s->threads, h, hashtab__eq_hash, NULL);
	if (slot->val) {
		t = (struct trace_thread *)(uintptr_t)slot->val;
		t->pid = pid;
		return t;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	hashtab__fill(&s->threads, slot, h, (uintptr_t)t);
	return t;
}

void trace_state__set_fd(struct trace_state *s, pid_t pid, int fd, const char *path)
{
	uint64_t h = fd_hash(pid, fd);
	struct hashtab_slot *slot;
	size_t len = strlen(path) + 1;
	struct fd_path *copy = malloc(sizeof(*copy) + len);

	if (copy) {
		copy->pid = pid;
		memcpy(copy->path, path, len);
	}
	if (!copy || hashtab__reserve(&s->fds, 1)) {
		free(copy);
		return;
	}
	slot = hashtab__slot(&s->fds, h, hashtab__eq_hash, NULL);
	if (slot->val) {
		free((void *)(uintptr_t)slot->val);
		slot->val = (uintptr_t)copy;
	} else {
		hashtab__fill(&s->fds, slot, h, (uintptr_t)copy);
	}
}

void trace_state__forget_fds(struct trace_state *s, pid_t pid)
{
	struct hashtab_slot *slot;
	bool removed;

	/* removal moves later slots back: walk again until a pass removes nothing */
	do {
		removed = false;
		hashtab__for_each(&s->fds, slot) {
			struct fd_path *f = (struct fd_path *)(uintptr_t)slot->val;

			if (f->pid != pid)
				continue;
			free(f);
			hashtab__remove(&s->fds, slot);
			removed = true;
			break;
		}
	} while (removed);
}

void trace_state__forget_fd(struct trace_state *s, pid_t pid, int fd)
{
	struct hashtab_slot *slot = hashtab__find(&s->fds, fd_hash(pid, fd), hashtab__eq_hash,
						  NULL);

	if (!slot)
		return;
	free((void *)(uintptr_t)slot->val);
	hashtab__remove(&s->fds, slot);
}

const char *trace_state__fd_path(struct trace_state *s, pid_t pid, int fd)
{
	char link[64], path[PATH_MAX];
	ssize_t len;
	uint64_t known = hashtab__get(&s->fds, fd_hash(pid, fd), hashtab__eq_hash, NULL);

	if (known)
		return ((struct fd_path *)(uintptr_t)known)->path;
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return NULL;
	path[len] = '\0';
	trace_state__set_fd(s, pid, fd, path);
	known = hashtab__get(&s->fds, fd_hash(pid, fd), hashtab__eq_hash, NULL);
	return known ? ((struct fd_path *)(uintptr_t)known)->path : NULL;
}

static struct trace_thread *known(const struct trace_state *s, pid_t tid)
{
	return (struct trace_thread *)(uintptr_t)hashtab__get(&s->threads, tid_hash(tid),
							      hashtab__eq_hash, NULL);
}

struct trace_thread *trace_state__find_thread(const struct trace_state *s, pid_t tid)
{
	return known(s, tid);
}

/* /proc/PID/stat's parent pid, or -1. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	int ppid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');	/* the comm may hold spaces and parentheses */
		if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
			ppid = -1;
	}
	fclose(f);
	return ppid;
}

const char *trace_state__ret_comm(struct trace_state *s, pid_t pid, pid_t caller)
{
	struct trace_thread *t = known(s, pid), *parent;

	if (t && t->comm[0])
		return t->comm;
	if (parent_of(pid) != caller)
		return NULL;
	parent = known(s, caller);
	return parent && parent->comm[0] ? parent->comm : trace_state__comm(s, pid);
}

const char *trace_state__comm(struct trace_state *s, pid_t pid)
{
	struct trace_thread *t = known(s, pid);
	char path[64];
	FILE *f;

	if (t && t->comm[0])
		return t->comm;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	if (!fgets(s->comm, sizeof(s->comm), f))
		s->comm[0] = '\0';
	fclose(f);
	s->comm[strcspn(s->comm, "\n")] = '\0';
	return s->comm[0] ? s->comm : NULL;
}
