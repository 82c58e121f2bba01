// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * profile.bpf.c loaded for a target and a sampling event, attached to the
 * event on every cpu chosen (lib/bpf's perf-event layer), and the processes
 * it announces read at once by the symbolizer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "profile/key.h"
#include "profile/profile-priv.h"
#include "systrace/event.h"
#include "systrace/target.h"
#include "profile.skel.h"

#define PROFILE_ENTRIES 40960
#define PROFILE_STACKS 16384

static void say(const struct ember_profile *p, const char *what, int err)
{
	char why[256];

	if (p->opts.errbuf && p->opts.errbuf_size)
		snprintf(p->opts.errbuf, p->opts.errbuf_size, "cannot %s: %s", what,
			 ember_bpf__strerror(err, why, sizeof(why)));
}

/* Whom the program follows, and which stacks it takes, into its rodata. */
static void configure(struct ember_profile *p)
{
	struct systrace_target_cfg *tc = (struct systrace_target_cfg *)&p->skel->rodata->target_cfg;
	struct profile_cfg *pc = (struct profile_cfg *)&p->skel->rodata->profile_cfg;

	memset(tc, 0, sizeof(*tc));
	tc->target_mode = p->opts.target == EMBER_PROFILE_PIDS ? SYSTRACE_BY_PID : SYSTRACE_ALL;
	tc->follow_forks = !p->opts.no_inherit;
	tc->self_tgid = getpid();
	pc->user = p->opts.stacks != EMBER_PROFILE_KERNEL;
	pc->kernel = p->opts.stacks != EMBER_PROFILE_USER;
}

/* A process announced: its maps read now, while it lives (again after an exec). */
static int on_new_pid(void *ctx, void *data, size_t size)
{
	struct ember_profile *p = ctx;
	struct ember_addr_location al;
	__u32 pid;

	if (size < sizeof(pid))
		return 0;
	memcpy(&pid, data, sizeof(pid));
	ember_symbolizer__forget(p->sym, pid);
	/* any address: the first lookup of a pid reads its maps and comm */
	ember_symbolizer__resolve(p->sym, pid, 0, &al);
	p->nr_new++;
	return 0;
}

struct ember_profile *ember_profile__new(const struct ember_profile_opts *opts)
{
	struct ember_profile *p = calloc(1, sizeof(*p));
	int err = -ENOMEM;

	if (!p)
		return NULL;
	if (opts)
		memcpy(&p->opts, opts, opts->sz < sizeof(p->opts) ? opts->sz : sizeof(p->opts));
	p->opts.sz = sizeof(p->opts);
	if (!p->opts.attr) {
		err = -EINVAL;
		goto out_err;
	}
	p->attr = malloc(sizeof(*p->attr));
	p->sym = ember_symbolizer__new(NULL);
	if (!p->attr || !p->sym)
		goto out_err;
	memcpy(p->attr, p->opts.attr, sizeof(*p->attr));
	p->opts.attr = p->attr;
	ember_bpf__route_log();
	p->skel = profile__open();
	if (!p->skel) {
		err = -errno;
		say(p, "open the BPF program", err);
		goto out_err;
	}
	configure(p);
	/* without syscall tracepoints, a process's maps are read at its first sample only */
	if (access("/sys/kernel/tracing/events/syscalls/sys_enter_mmap", F_OK) &&
	    access("/sys/kernel/debug/tracing/events/syscalls/sys_enter_mmap", F_OK))
		bpf_program__set_autoload(p->skel->progs.on_mmap, false);
	err = bpf_map__set_max_entries(p->skel->maps.counts, p->opts.max_entries ?: PROFILE_ENTRIES);
	if (!err)
		err = bpf_map__set_max_entries(p->skel->maps.stack_ids,
					       p->opts.max_stacks ?: PROFILE_STACKS);
	if (!err)
		err = bpf_map__set_max_entries(p->skel->maps.stack_ids2,
					       (p->opts.max_stacks ?: PROFILE_STACKS) / 2 ?: 1);
	if (!err)
		err = ember_bpf__load(p->skel->skeleton);
	if (err) {
		say(p, "load the BPF program", err);
		goto out_err;
	}
	p->new_pids = ring_buffer__new(bpf_map__fd(p->skel->maps.new_pids), on_new_pid, p, NULL);
	if (!p->new_pids) {
		err = -errno;
		say(p, "read the BPF ring buffer", err);
		goto out_err;
	}
	return p;
out_err:
	ember_profile__delete(p);
	errno = -err;
	return NULL;
}

void ember_profile__delete(struct ember_profile *p)
{
	if (!p)
		return;
	ember_profile__stop(p);
	ring_buffer__free(p->new_pids);
	profile__destroy(p->skel);
	ember_symbolizer__delete(p->sym);
	free(p->pids);
	free(p->attr);
	free(p);
}

int ember_profile__add(struct ember_profile *p, pid_t pid, bool at_exec)
{
	pid_t *grown;

	if (p->opts.target != EMBER_PROFILE_PIDS || p->events)
		return -EINVAL;
	grown = realloc(p->pids, (p->nr_pids + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	p->pids = grown;
	p->pids[p->nr_pids++] = pid;
	return systrace_target__add(bpf_map__fd(p->skel->maps.targets), pid, at_exec);
}

/*
 * The event opened on every task of the cpus, or on each target and,
 * inherited, its children (as record opens it: the program runs only when
 * they run, and the inherited events carry it). 0 or -errno.
 */
static int open_events(struct ember_profile *p)
{
	int nr = p->opts.target == EMBER_PROFILE_PIDS ? p->nr_pids : 1;
	int prog_fd = bpf_program__fd(p->skel->progs.sample);
	struct perf_event_attr attr = *p->attr;

	p->events = calloc(nr ? nr : 1, sizeof(*p->events));
	if (!p->events)
		return -ENOMEM;
	if (p->opts.target == EMBER_PROFILE_PIDS)
		attr.inherit = !p->opts.no_inherit;
	for (int i = 0; i < nr; i++) {
		struct ember_bpf_perf_opts eo = {
			.sz = sizeof(eo),
			.cpus = p->opts.cpus,
			.pid = p->opts.target == EMBER_PROFILE_PIDS ? p->pids[i] : -1,
			.errbuf = p->opts.errbuf,
			.errbuf_size = p->opts.errbuf_size,
		};

		p->events[i] = ember_bpf_perf__attach_attr(prog_fd, &attr, &eo);
		if (!p->events[i])
			return -errno;
		p->nr_events++;
	}
	return 0;
}

static void close_events(struct ember_profile *p)
{
	for (int i = 0; i < p->nr_events; i++)
		ember_bpf_perf__detach(p->events[i]);
	free(p->events);
	p->events = NULL;
	p->nr_events = 0;
}

int ember_profile__start(struct ember_profile *p)
{
	int err;

	if (p->events)
		return -EBUSY;
	/* the exec and fork tracepoints first: the command's exec must not slip by */
	err = ember_bpf__attach(p->skel->skeleton);
	if (err) {
		say(p, "attach the BPF programs", err);
		return err;
	}
	err = open_events(p);
	if (err) {
		close_events(p);
		profile__detach(p->skel);
	}
	return err;
}

int ember_profile__poll(struct ember_profile *p, int timeout_ms)
{
	int err;

	p->nr_new = 0;
	err = ring_buffer__poll(p->new_pids, timeout_ms);
	if (err < 0)
		return err;
	return p->nr_new;
}

void ember_profile__stop(struct ember_profile *p)
{
	if (!p->events)
		return;
	close_events(p);
	profile__detach(p->skel);
	/* the processes announced at the last samples */
	ring_buffer__consume(p->new_pids);
}

int ember_profile__read(struct ember_profile *p, struct ember_flame *fl, bool clear,
			struct ember_profile_stats *st)
{
	int fd = bpf_map__fd(p->skel->maps.stats);
	__u32 keys[] = { PROFILE_EVENTS, PROFILE_LOST_FULL, PROFILE_LOST_COLLISION };
	uint64_t *sums[] = { &st->events, &st->lost_full, &st->lost_collision };

	memset(st, 0, sizeof(*st));
	/* new processes first: their maps before their stacks */
	ring_buffer__consume(p->new_pids);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int err = ember_bpf__percpu_sum(fd, &keys[i], sums[i]);

		if (err)
			return err;
	}
	return profile__fold(p, fl, clear, st);
}
