// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * summary.bpf.c loaded for the targets and syscalls chosen, and its maps
 * read into an ember_syscall_summary: per (thread, syscall) statistics
 * counted in the kernel, per thread its enters and name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ember/bpf.h>
#include <ember/event.h>
#include <ember/syscall.h>
#include <ember/systrace-summary.h>
#include "systrace/event.h"
#include "systrace/summary.h"
#include "systrace/target.h"
#include "summary.skel.h"

struct ember_syscount {
	struct summary *skel;
	enum ember_systrace_target target;
};

/* The syscalls chosen that tracefs has an event for: perf trace counts no others. */
static int choose_syscalls(struct ember_syscount *sc, const struct ember_systrace_opts *opts)
{
	int fd = bpf_map__fd(sc->skel->maps.syscalls);
	int max = ember_syscall__max(), err = 0;
	struct ember_syscalls *table;
	__u32 flags = SYSTRACE_TRACED;
	char root[4000];

	if (opts->tracefs)
		snprintf(root, sizeof(root), "%s", opts->tracefs);
	else if ((err = ember_tracefs__find(root, sizeof(root))))
		return err;
	table = ember_syscalls__new(root);
	if (!table)
		return -errno;
	if (max > SYSTRACE_MAX_SYSCALLS)
		max = SYSTRACE_MAX_SYSCALLS;
	for (int nr = 0; nr < max && !err; nr++) {
		__u32 key = nr;

		if (systrace_target__chosen(opts, nr) && ember_syscalls__format(table, nr) &&
		    bpf_map_update_elem(fd, &key, &flags, 0))
			err = -errno;
	}
	ember_syscalls__delete(table);
	return err;
}

struct ember_syscount *ember_syscount__new(const struct ember_systrace_opts *opts)
{
	struct ember_syscount *sc = calloc(1, sizeof(*sc));
	int err;

	if (!sc)
		return NULL;
	sc->target = opts->target;
	ember_bpf__route_log();
	sc->skel = summary__open();
	if (!sc->skel) {
		err = -errno;
		goto out_err;
	}
	systrace_target__config((struct systrace_target_cfg *)&sc->skel->rodata->target_cfg, opts);
	err = ember_bpf__load(sc->skel->skeleton);
	if (err)
		goto out_err;
	err = choose_syscalls(sc, opts);
	if (!err)
		err = systrace_target__choose_cpus(bpf_map__fd(sc->skel->maps.cpus), opts);
	if (err)
		goto out_err;
	return sc;
out_err:
	ember_syscount__delete(sc);
	errno = -err;
	return NULL;
}

int ember_syscount__add(struct ember_syscount *sc, pid_t id, bool at_exec)
{
	if (sc->target == EMBER_SYSTRACE_ALL)
		return -EINVAL;
	return systrace_target__add(bpf_map__fd(sc->skel->maps.targets), id, at_exec);
}

int ember_syscount__start(struct ember_syscount *sc)
{
	return ember_bpf__attach(sc->skel->skeleton);
}

void ember_syscount__stop(struct ember_syscount *sc)
{
	summary__detach(sc->skel);
}

/* Each thread of the threads map: its name, pid and enters. */
static int read_threads(struct ember_syscount *sc, struct ember_syscall_summary *s)
{
	int fd = bpf_map__fd(sc->skel->maps.threads);
	__u32 key, next, *prev = NULL;
	struct summary_thread v;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct ember_syscall_summary_thread *t;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &v))
			continue;	/* gone since */
		t = ember_syscall_summary__thread(s, v.pid, key);
		if (!t)
			return -ENOMEM;
		memcpy(t->comm, v.comm, sizeof(t->comm));
		t->comm[sizeof(t->comm) - 1] = '\0';
		t->events += v.enters;
	}
	return errno == ENOENT ? 0 : -errno;
}

static void merge(struct ember_syscall_stats *to, const struct summary_stats *from)
{
	unsigned __int128 sq = ((unsigned __int128)to->sq_hi << 64 | to->sq_lo) +
			       ((unsigned __int128)from->sq_hi << 64 | from->sq_lo);

	to->calls += from->calls;
	to->errors += from->errors;
	to->total += from->total;
	if (from->min < to->min)
		to->min = from->min;
	if (from->max > to->max)
		to->max = from->max;
	to->sq_lo = (uint64_t)sq;
	to->sq_hi = (uint64_t)(sq >> 64);
}

/* Each (thread, syscall, errno)'s failures into the summary's syscalls. */
static int read_errnos(struct ember_syscount *sc, struct ember_syscall_summary *s)
{
	int fd = bpf_map__fd(sc->skel->maps.errnos), err;
	struct summary_errno_key key, next, *prev = NULL;
	__u64 n;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct ember_syscall_summary_thread *t;
		struct ember_syscall_stats *st;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &n))
			continue;
		t = ember_syscall_summary__thread(s, key.tid, key.tid);
		st = t ? ember_syscall_summary_thread__stats(t, key.nr) : NULL;
		if (!st)
			return -ENOMEM;
		err = ember_syscall_stats__add_errno(st, key.err, n);
		if (err == -ENOMEM)
			return err;
	}
	return errno == ENOENT ? 0 : -errno;
}

int ember_syscount__read(struct ember_syscount *sc, struct ember_syscall_summary *s)
{
	int fd = bpf_map__fd(sc->skel->maps.stats), err;
	struct summary_key key, next, *prev = NULL;
	struct summary_stats v;

	err = read_threads(sc, s);
	if (err)
		return err;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct ember_syscall_summary_thread *t;
		struct ember_syscall_stats *st;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &v))
			continue;
		/* a thread the threads map had no room for: its pid unknown */
		t = ember_syscall_summary__thread(s, key.tid, key.tid);
		st = t ? ember_syscall_summary_thread__stats(t, key.nr) : NULL;
		if (!st)
			return -ENOMEM;
		merge(st, &v);
		t->events += v.calls;
	}
	if (errno != ENOENT)
		return -errno;
	return read_errnos(sc, s);
}

uint64_t ember_syscount__dropped(const struct ember_syscount *sc)
{
	return systrace_percpu_sum(bpf_map__fd(sc->skel->maps.dropped));
}

void ember_syscount__delete(struct ember_syscount *sc)
{
	if (!sc)
		return;
	summary__destroy(sc->skel);
	free(sc);
}
