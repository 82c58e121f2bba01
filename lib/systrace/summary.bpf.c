// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Syscalls counted in the kernel: on raw_syscalls:sys_enter each followed
 * thread's enter time is kept; on sys_exit the call is added to its
 * (thread, syscall) statistics: count, errors, total, min, max and the sum
 * of squares. Nothing per syscall reaches user space, which reads the maps
 * once at the end.
 */
#include <linux/bpf.h>
#include <asm/ptrace.h>
#include <bpf/bpf_helpers.h>
#include "systrace/target.bpf.h"
#include "systrace/summary.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* tid -> struct summary_thread */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SUMMARY_MAX_THREADS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct summary_thread);
} threads SEC(".maps");

/* (tid, syscall) -> struct summary_stats */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SUMMARY_MAX_STATS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct summary_key);
	__type(value, struct summary_stats);
} stats SEC(".maps");

/* (tid, syscall, errno) -> failures: only failing calls touch it */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SUMMARY_MAX_STATS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct summary_errno_key);
	__type(value, __u64);
} errnos SEC(".maps");

/* Calls the full maps could not count, per cpu. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} dropped SEC(".maps");

static __always_inline void count_dropped(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&dropped, &zero);

	if (n)
		(*n)++;
}

/*
 * The current thread's entry when it is followed (*follow says whether it
 * is), made when first seen; NULL when not followed or no room is left.
 * An entry is made only for a followed thread, so a thread that has one
 * needs no targets lookup again until it exits, unless -C or -u ask about
 * each call (the cpu it runs on, its uid now).
 */
static __always_inline struct summary_thread *followed_thread(__u64 pid_tgid, int *follow)
{
	__u32 tid = (__u32)pid_tgid;
	struct summary_thread *t = bpf_map_lookup_elem(&threads, &tid), fresh = { 0 };

	*follow = 1;
	if (t && !t->gone && !target_cfg.filter_cpus && !target_cfg.filter_uid)
		return t;
	*follow = followed(pid_tgid);
	if (!*follow)
		return NULL;
	if (t) {
		/* its tid given to a new followed thread: perf too merges them by tid */
		t->gone = 0;
		return t;
	}
	fresh.pid = pid_tgid >> 32;
	bpf_get_current_comm(fresh.comm, sizeof(fresh.comm));
	bpf_map_update_elem(&threads, &tid, &fresh, BPF_NOEXIST);
	t = bpf_map_lookup_elem(&threads, &tid);
	if (!t)
		count_dropped();
	return t;
}

/*
 * Raw tracepoints: the arguments as the kernel passes them (no record
 * copied), and a detach that does not wait for an RCU grace period as a
 * perf tracepoint event's close does (50 ms each here).
 */
SEC("raw_tp/sys_enter")
int sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct summary_thread *t;
	int follow;

	/* (struct pt_regs *regs, long id) */
	if (!traced_syscall(ctx->args[1]))
		return 0;
	t = followed_thread(pid_tgid, &follow);
	if (!t)
		return 0;
	t->enter_time = bpf_ktime_get_ns();
	t->enters++;
	return 0;
}

SEC("raw_tp/sys_exit")
int sys_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns(), d = 0;
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
	struct summary_key key = { .tid = (__u32)pid_tgid };
	long id = -1, ret = ctx->args[1];
	struct summary_thread *t;
	struct summary_stats *s;
	int follow;

	/* (struct pt_regs *regs, long ret): the number is the registers' orig_rax */
	if (bpf_probe_read_kernel(&id, sizeof(id), &regs->orig_rax) || !traced_syscall(id))
		return 0;
	t = followed_thread(pid_tgid, &follow);
	if (!follow)
		return 0;
	key.nr = id;
	/* perf's rule: the time since the thread's last enter, 0 when none was seen */
	if (t && t->enter_time && now > t->enter_time)
		d = now - t->enter_time;
	s = bpf_map_lookup_elem(&stats, &key);
	if (!s) {
		struct summary_stats fresh = { .min = ~0ULL };

		bpf_map_update_elem(&stats, &key, &fresh, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&stats, &key);
		if (!s) {
			count_dropped();
			return 0;
		}
	}
	s->calls++;
	if (ret < 0) {
		struct summary_errno_key ek = { .tid = key.tid, .nr = key.nr, .err = -ret };
		__u64 one = 1, *n;

		s->errors++;
		n = bpf_map_lookup_elem(&errnos, &ek);
		if (n)
			(*n)++;
		else if (ret >= -4095)
			bpf_map_update_elem(&errnos, &ek, &one, BPF_NOEXIST);
	}
	s->total += d;
	if (d < s->min)
		s->min = d;
	if (d > s->max)
		s->max = d;
	summary_add_square(&s->sq_lo, &s->sq_hi, d);
	return 0;
}

/* A thread that exits: its tid may come back for another, followed or not. */
SEC("raw_tp/sched_process_exit")
int on_thread_exit(void *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct summary_thread *t = bpf_map_lookup_elem(&threads, &tid);

	if (t)
		t->gone = 1;
	return 0;
}

/* A command held before its exec is counted from its exec on. */
SEC("raw_tp/sched_process_exec")
int on_exec(void *ctx)
{
	follow_exec(bpf_get_current_pid_tgid());
	return 0;
}

/*
 * A thread's new name (exec, prctl), kept as perf keeps the last COMM:
 * (task, comm). A name another thread writes in /proc is not seen (the
 * task's tid needs the kernel's BTF).
 */
SEC("raw_tp/task_rename")
int on_rename(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct summary_thread *t;

	if (ctx->args[0] != bpf_get_current_task())
		return 0;
	t = bpf_map_lookup_elem(&threads, &tid);
	if (t)
		bpf_probe_read_kernel_str(t->comm, sizeof(t->comm), (const void *)ctx->args[1]);
	return 0;
}
