/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The targets of a syscall BPF program, included by each lib/systrace
 * program: every task, processes and their children, or threads (the
 * targets map, keyed as target_cfg.target_mode says), the syscalls chosen
 * (the syscalls map), a command followed from its exec on (follow_exec(),
 * from each program's exec tracepoint) and the children of a followed
 * process added as they fork.
 */
#ifndef EMBER_SYSTRACE_TARGET_BPF_H
#define EMBER_SYSTRACE_TARGET_BPF_H

#include "systrace/event.h"
#include "systrace/target.h"

const volatile struct systrace_target_cfg target_cfg = {
	.target_mode = SYSTRACE_ALL,
	.follow_forks = 1,
};

/* tgid or tid (target_mode) -> enum systrace_target_state */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u32);
} targets SEC(".maps");

/*
 * Set by user space when it stops: detaching the programs one by one takes
 * a grace period each, and an exit without its entry must not slip out.
 */
volatile __u32 stopped = 0;

/* syscall number -> SYSTRACE_TRACED | SYSTRACE_STR_ARG(i)... */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SYSTRACE_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, __u32);
} syscalls SEC(".maps");

/* cpu -> 1 when traced (filter_cpus) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SYSTRACE_MAX_CPUS);
	__type(key, __u32);
	__type(value, __u8);
} cpus SEC(".maps");

/* The tracepoints' records after their 8 bytes of common fields (stable ABI). */
struct sys_enter_args {
	__u64 common;
	long id;
	unsigned long args[SYSTRACE_NR_ARGS];
};

struct sys_exit_args {
	__u64 common;
	long id;
	long ret;
};

static __always_inline __u32 target_key(__u64 pid_tgid)
{
	return target_cfg.target_mode == SYSTRACE_BY_TID ? (__u32)pid_tgid :
							   (__u32)(pid_tgid >> 32);
}

/*
 * Children forked by a followed process, by their task_struct's address
 * (all a raw tracepoint gives without the kernel's BTF): each is followed
 * from its first syscall on, and forgotten when it exits.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, __u32);
} forked SEC(".maps");

/* A child forked by a followed process (the current task) followed from now on; else 0. */
static __always_inline int follow_forked(__u32 key)
{
	__u32 followed_state = SYSTRACE_FOLLOWED;
	__u64 task;

	if (target_cfg.target_mode != SYSTRACE_BY_PID || !target_cfg.follow_forks)
		return 0;
	task = bpf_get_current_task();
	if (!bpf_map_lookup_elem(&forked, &task))
		return 0;
	bpf_map_delete_elem(&forked, &task);
	bpf_map_update_elem(&targets, &key, &followed_state, BPF_ANY);
	return 1;
}

static __always_inline int followed(__u64 pid_tgid)
{
	__u32 key, *state;

	if (stopped)
		return 0;
	if (target_cfg.filter_cpus) {
		__u32 cpu = bpf_get_smp_processor_id();
		__u8 *on = bpf_map_lookup_elem(&cpus, &cpu);

		if (!on || !*on)
			return 0;
	}
	if (target_cfg.filter_uid && (__u32)bpf_get_current_uid_gid() != target_cfg.target_uid)
		return 0;
	if (target_cfg.target_mode == SYSTRACE_ALL)
		return (__u32)(pid_tgid >> 32) != target_cfg.self_tgid;
	key = target_key(pid_tgid);
	state = bpf_map_lookup_elem(&targets, &key);
	if (state)
		return *state == SYSTRACE_FOLLOWED;
	return follow_forked(key);
}

/* The flags of syscall id (SYSTRACE_TRACED...) when traced, else NULL. */
static __always_inline __u32 *traced_syscall(long id)
{
	__u32 nr = id, *flags;

	if (id < 0 || id >= SYSTRACE_MAX_SYSCALLS)
		return NULL;
	flags = bpf_map_lookup_elem(&syscalls, &nr);
	return flags && (*flags & SYSTRACE_TRACED) ? flags : NULL;
}

/*
 * Raw tracepoints for the process events: their detach does not wait for
 * an RCU grace period, as closing a perf tracepoint event does.
 */

/*
 * A command held before its exec is followed from its exec on, as perf's
 * enable_on_exec: each program's sched_process_exec calls this first.
 */
static __always_inline void follow_exec(__u64 pid_tgid)
{
	__u32 key = target_key(pid_tgid), *state;

	if (target_cfg.target_mode == SYSTRACE_ALL)
		return;
	state = bpf_map_lookup_elem(&targets, &key);
	if (state && *state == SYSTRACE_AT_EXEC)
		*state = SYSTRACE_FOLLOWED;
}

/* The children of a followed process are followed (perf's inherit): (parent, child). */
SEC("raw_tp/sched_process_fork")
int on_fork(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 parent = bpf_get_current_pid_tgid() >> 32, *state, one = 1;
	__u64 child = ctx->args[1];

	if (target_cfg.target_mode != SYSTRACE_BY_PID || !target_cfg.follow_forks)
		return 0;
	state = bpf_map_lookup_elem(&targets, &parent);
	if (state && *state == SYSTRACE_FOLLOWED)
		bpf_map_update_elem(&forked, &child, &one, BPF_ANY);
	return 0;
}

/*
 * A child that exits before any syscall of its own: followed now, so its
 * exit's tracepoints (-e sched:sched_process_exit, attached after this
 * program) see it, and forgotten as a task_struct whose address may come
 * back.
 */
SEC("raw_tp/sched_process_exit")
int on_task_exit(void *ctx)
{
	follow_forked(target_key(bpf_get_current_pid_tgid()));
	return 0;
}

#endif
