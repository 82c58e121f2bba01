// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * systrace.bpf.c loaded (targets, syscalls and their string arguments set
 * in its maps) and its ring buffer consumed: each exit paired with its
 * thread's pending enter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ember/bpf.h>
#include <ember/event.h>
#include <ember/systrace.h>
#include "core/hash.h"
#include "core/hashtab.h"
#include "systrace/event.h"
#include "systrace/target.h"
#include "systrace.skel.h"

_Static_assert(sizeof(struct ember_systrace_frame) == sizeof(struct systrace_frame),
	       "the public frame is the BPF one");

/* The ring buffer: room for about 150 000 events between two polls. */
#define DEFAULT_BUFFER (16u << 20)

/* A thread's enter waiting for its exit. */
struct pending {
	struct ember_syscall_rec rec;
	char str[SYSTRACE_NR_STRS][SYSTRACE_STR_LEN];
	bool valid;
};

struct ember_systrace {
	struct systrace *skel;
	struct ring_buffer *rb;
	struct hashtab threads;		/* hash_mix64(tid) -> struct pending * */
	enum ember_systrace_target target;
	struct ember_tracepoint *tps;	/* copied from the opts, with their links */
	struct bpf_link **tp_links;
	int nr_tps;
	ember_systrace_tp_fn tp_fn;
	void *tp_ctx;
	int nr_exit, nr_exit_group;	/* the calls after which a thread is gone */
	ember_systrace_fn fn;		/* during a poll */
	void *ctx;
	int stop;			/* fn's non-zero return */
	int handed;
};

static bool listed(const int *nrs, int nr_nrs, int nr)
{
	for (int i = 0; nrs && i < nr_nrs; i++)
		if (nrs[i] == nr)
			return true;
	return false;
}

/* The per-syscall map: traced or not, and which arguments are strings to read. */
static int choose_syscalls(struct ember_systrace *st, const char *root,
			   const struct ember_systrace_opts *opts)
{
	struct ember_syscalls *table = opts->table ? opts->table : ember_syscalls__new(root);
	int fd = bpf_map__fd(st->skel->maps.syscalls);
	int max = ember_syscall__max(), err = 0;

	if (!table)
		return -errno;
	if (max > SYSTRACE_MAX_SYSCALLS)
		max = SYSTRACE_MAX_SYSCALLS;
	for (int nr = 0; nr < max && !err; nr++) {
		__u32 key = nr, flags = SYSTRACE_TRACED;
		unsigned int strs;

		if (opts->syscalls && !listed(opts->syscalls, opts->nr_syscalls, nr)) {
			if (!listed(opts->also, opts->nr_also, nr))
				continue;
			flags |= SYSTRACE_UNCHOSEN_CALL;
		}
		/* what tracefs has no event for, perf trace does not show */
		if (!ember_syscalls__format(table, nr))
			continue;
		strs = ember_syscalls__string_args(table, nr);
		for (int i = 0; i < SYSTRACE_NR_ARGS; i++)
			if (strs & (1u << i))
				flags |= SYSTRACE_STR_ARG(i);
		if (bpf_map_update_elem(fd, &key, &flags, BPF_ANY))
			err = -errno;
	}
	if (table != opts->table)
		ember_syscalls__delete(table);
	return err;
}

static struct pending *pending_of(struct ember_systrace *st, pid_t tid, bool create)
{
	uint64_t h = hash_mix64((uint64_t)(uint32_t)tid);
	struct hashtab_slot *s;
	struct pending *p;

	if (!create)
		return (struct pending *)(uintptr_t)hashtab__get(&st->threads, h,
								 hashtab__eq_hash, NULL);
	if (hashtab__reserve(&st->threads, 1))
		return NULL;
	s = hashtab__slot(&st->threads, h, hashtab__eq_hash, NULL);
	if (s->val)
		return (struct pending *)(uintptr_t)s->val;
	p = calloc(1, sizeof(*p));
	if (p)
		hashtab__fill(&st->threads, s, h, (uintptr_t)p);
	return p;
}

static void fill_rec(struct ember_syscall_rec *rec, const struct systrace_event *e)
{
	memset(rec, 0, sizeof(*rec));
	rec->time = e->time;
	rec->pid = e->pid;
	rec->tid = e->tid;
	rec->nr = e->nr;
	rec->unchosen = e->kind & SYSTRACE_UNCHOSEN;
	memcpy(rec->comm, e->comm, sizeof(rec->comm));
	rec->comm[sizeof(rec->comm) - 1] = '\0';
}

static void forget_thread(struct ember_systrace *st, pid_t tid)
{
	struct hashtab_slot *s = hashtab__find(&st->threads, hash_mix64((uint64_t)(uint32_t)tid),
					       hashtab__eq_hash, NULL);

	if (!s)
		return;
	free((void *)(uintptr_t)s->val);
	hashtab__remove(&st->threads, s);
}

static int handle_enter(struct ember_systrace *st, const void *data, size_t size)
{
	const struct systrace_event *e = data;
	struct pending *p = pending_of(st, e->tid, true);
	int k = 0, ret;

	if (!p)
		return -ENOMEM;
	fill_rec(&p->rec, e);
	memcpy(p->rec.args, e->args, sizeof(p->rec.args));
	if (e->str_args && size >= sizeof(struct systrace_event_strs)) {
		const struct systrace_event_strs *es = data;

		for (int i = 0; i < SYSTRACE_NR_ARGS && k < SYSTRACE_NR_STRS; i++) {
			if (!(e->str_args & (1u << i)))
				continue;
			memcpy(p->str[k], es->str[k], SYSTRACE_STR_LEN);
			p->str[k][SYSTRACE_STR_LEN - 1] = '\0';
			p->rec.strs[i] = p->str[k++];
		}
	}
	p->valid = true;
	ret = st->fn(st->ctx, &p->rec, NULL);
	/* exit and exit_group do not return: the thread is gone, and its pending entry */
	if (e->nr == st->nr_exit || e->nr == st->nr_exit_group)
		forget_thread(st, e->tid);
	return ret;
}

static int handle_exit(struct ember_systrace *st, const struct systrace_event *e, size_t size)
{
	struct pending *p = pending_of(st, e->tid, false);
	struct ember_syscall_rec rec;
	const struct ember_syscall_rec *enter = NULL;
	int ret;

	fill_rec(&rec, e);
	rec.ret = e->ret;
	if ((e->kind & SYSTRACE_WITH_USTACK) && size >= sizeof(struct systrace_event_ustack)) {
		const struct systrace_event_ustack *eu = (const void *)e;
		uint64_t room = size - sizeof(*eu);

		rec.user_regs = (const uint64_t *)eu->regs;
		rec.user_regs_mask = SYSTRACE_REGS_MASK;
		rec.nr_user_regs = SYSTRACE_NR_REGS;
		rec.user_stack = eu->stack;
		rec.user_stack_size = eu->size < room ? eu->size : room;
	} else if (size >= sizeof(struct systrace_event_stack)) {
		const struct systrace_event_stack *es = (const void *)e;

		rec.frames = (const struct ember_systrace_frame *)es->frames;
		rec.nr_frames = es->nr_frames > SYSTRACE_MAX_STACK ? SYSTRACE_MAX_STACK :
								       es->nr_frames;
	}
	if (p && p->valid && p->rec.nr == e->nr)
		enter = &p->rec;
	ret = st->fn(st->ctx, enter, &rec);
	if (p)
		p->valid = false;
	return ret;
}

static int handle_tracepoint(struct ember_systrace *st, const struct systrace_tp_event *e)
{
	struct ember_systrace_tp_rec rec = {
		.time = e->time, .pid = e->pid, .tid = e->tid, .index = e->index, .raw = e->raw,
		.size = sizeof(e->raw),
	};

	if (!st->tp_fn || e->index < 0 || e->index >= st->nr_tps)
		return 0;
	memcpy(rec.comm, e->comm, sizeof(rec.comm));
	rec.comm[sizeof(rec.comm) - 1] = '\0';
	return st->tp_fn(st->tp_ctx, &rec);
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct ember_systrace *st = ctx;
	const struct systrace_event *e = data;
	int ret;

	if (st->stop || size < sizeof(*e))
		return 0;
	switch (e->kind & SYSTRACE_KIND_MASK) {
	case SYSTRACE_ENTER:
		ret = handle_enter(st, data, size);
		break;
	case SYSTRACE_EXIT:
		ret = handle_exit(st, e, size);
		break;
	case SYSTRACE_COMM: {
		struct ember_syscall_rec rec;

		fill_rec(&rec, e);
		rec.nr = EMBER_SYSTRACE_EXEC;
		ret = st->fn(st->ctx, &rec, NULL);
		break;
	}
	default:
		ret = size >= sizeof(struct systrace_tp_event) ? handle_tracepoint(st, data) : 0;
		break;
	}
	st->handed++;
	if (ret)
		st->stop = ret;
	/* a non-zero return ends ring_buffer__poll() */
	return ret ? -ECANCELED : 0;
}

static int copy_tps(struct ember_systrace *st, const struct ember_systrace_opts *opts)
{
	if (!opts->nr_tps)
		return 0;
	st->tps = calloc(opts->nr_tps, sizeof(*st->tps));
	st->tp_links = calloc(opts->nr_tps, sizeof(*st->tp_links));
	if (!st->tps || !st->tp_links)
		return -ENOMEM;
	st->nr_tps = opts->nr_tps;
	for (int i = 0; i < opts->nr_tps; i++) {
		st->tps[i].sys = strdup(opts->tps[i].sys);
		st->tps[i].name = strdup(opts->tps[i].name);
		if (!st->tps[i].sys || !st->tps[i].name)
			return -ENOMEM;
	}
	return 0;
}

static void free_tps(struct ember_systrace *st)
{
	for (int i = 0; i < st->nr_tps; i++) {
		bpf_link__destroy(st->tp_links[i]);
		free((char *)st->tps[i].sys);
		free((char *)st->tps[i].name);
	}
	free(st->tps);
	free(st->tp_links);
	st->tps = NULL;
	st->tp_links = NULL;
	st->nr_tps = 0;
}

void ember_systrace__set_tp_handler(struct ember_systrace *st, ember_systrace_tp_fn fn, void *ctx)
{
	st->tp_fn = fn;
	st->tp_ctx = ctx;
}

struct ember_systrace *ember_systrace__new(const struct ember_systrace_opts *opts)
{
	struct ember_systrace *st = calloc(1, sizeof(*st));
	char root[4000];
	size_t size;
	int err;

	if (!st)
		return NULL;
	st->target = opts->target;
	st->nr_exit = ember_syscall__number("exit");
	st->nr_exit_group = ember_syscall__number("exit_group");
	if (opts->tracefs)
		snprintf(root, sizeof(root), "%s", opts->tracefs);
	else if ((err = ember_tracefs__find(root, sizeof(root))))
		goto out_err;
	ember_bpf__route_log();
	st->skel = systrace__open();
	if (!st->skel) {
		err = -errno;
		goto out_err;
	}
	systrace_target__config((struct systrace_target_cfg *)&st->skel->rodata->target_cfg, opts);
	st->skel->rodata->want_stack = opts->user_stack;
	if (opts->user_stack_size > SYSTRACE_MAX_USTACK || opts->user_stack_size % 8) {
		err = -EINVAL;
		goto out_err;
	}
	st->skel->rodata->ustack_size = opts->user_stack_size;
	bpf_program__set_autoattach(st->skel->progs.on_tracepoint, false);
	if (opts->no_syscalls) {
		bpf_program__set_autoattach(st->skel->progs.sys_enter, false);
		bpf_program__set_autoattach(st->skel->progs.sys_exit, false);
	}
	err = copy_tps(st, opts);
	if (err)
		goto out_err;
	size = opts->buffer_size ? opts->buffer_size : DEFAULT_BUFFER;
	err = bpf_map__set_max_entries(st->skel->maps.events, size);
	if (err)
		goto out_err;
	st->skel->rodata->wakeup_bytes = opts->wakeup_bytes ? opts->wakeup_bytes : size / 4;
	err = ember_bpf__load(st->skel->skeleton);
	if (err)
		goto out_err;
	err = choose_syscalls(st, root, opts);
	if (!err)
		err = systrace_target__choose_cpus(bpf_map__fd(st->skel->maps.cpus), opts);
	if (err)
		goto out_err;
	st->rb = ring_buffer__new(bpf_map__fd(st->skel->maps.events), on_event, st, NULL);
	if (!st->rb) {
		err = -errno;
		goto out_err;
	}
	return st;
out_err:
	ember_systrace__delete(st);
	errno = -err;
	return NULL;
}

int ember_systrace__add(struct ember_systrace *st, pid_t id, bool at_exec)
{
	if (st->target == EMBER_SYSTRACE_ALL)
		return -EINVAL;
	return systrace_target__add(bpf_map__fd(st->skel->maps.targets), id, at_exec);
}

int ember_systrace__start(struct ember_systrace *st)
{
	int err = ember_bpf__attach(st->skel->skeleton);

	for (int i = 0; !err && i < st->nr_tps; i++) {
		LIBBPF_OPTS(bpf_tracepoint_opts, opts, .bpf_cookie = (__u64)i);

		st->tp_links[i] = bpf_program__attach_tracepoint_opts(
			st->skel->progs.on_tracepoint, st->tps[i].sys, st->tps[i].name, &opts);
		if (!st->tp_links[i])
			err = -errno;
	}
	return err;
}

void ember_systrace__stop(struct ember_systrace *st)
{
	/* nothing more from any program now, before the slow detaching */
	__atomic_store_n(&st->skel->bss->stopped, 1, __ATOMIC_SEQ_CST);
	systrace__detach(st->skel);
	for (int i = 0; i < st->nr_tps; i++) {
		bpf_link__destroy(st->tp_links[i]);
		st->tp_links[i] = NULL;
	}
}

int ember_systrace__poll(struct ember_systrace *st, int timeout_ms, ember_systrace_fn fn,
			 void *ctx)
{
	int err;

	st->fn = fn;
	st->ctx = ctx;
	st->stop = 0;
	st->handed = 0;
	/* the BPF side wakes us for a batch only: after the wait, take whatever is there */
	err = ring_buffer__poll(st->rb, timeout_ms);
	if (err >= 0 && !st->stop)
		err = ring_buffer__consume(st->rb);
	if (st->stop)
		return st->stop;
	if (err < 0 && err != -ECANCELED)
		return err;
	return st->handed;
}

uint64_t ember_systrace__lost(const struct ember_systrace *st)
{
	return systrace_percpu_sum(bpf_map__fd(st->skel->maps.lost));
}

void ember_systrace__delete(struct ember_systrace *st)
{
	struct hashtab_slot *s;

	if (!st)
		return;
	ring_buffer__free(st->rb);
	free_tps(st);
	systrace__destroy(st->skel);
	hashtab__for_each(&st->threads, s)
		if (s->val)
			free((void *)(uintptr_t)s->val);
	hashtab__exit(&st->threads);
	free(st);
}
