// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stacks counted in the kernel: at each sample of the event, one more for
 * (process, thread name, user stack, kernel stack) of a followed task (the
 * targets of lib/systrace's target.bpf.h: every task, or processes and
 * their children). A process seen for the first time, or again after an
 * exec, is announced through a ring buffer so user space reads its maps
 * while it lives.
 */
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <linux/errno.h>
#include <bpf/bpf_helpers.h>
#include "systrace/target.bpf.h"
#include "profile/key.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile struct profile_cfg profile_cfg = { .user = 1, .kernel = 1 };

/* Stacks by id (what bpf_get_stackid() returns); the loader sets the sizes. */
struct stack_map {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, PROFILE_MAX_DEPTH * sizeof(__u64));
};

struct stack_map stack_ids SEC(".maps");
/*
 * Where a stack goes when its slot in stack_ids holds another: a second
 * table hashed with fewer slots, so the stacks that collide there rarely
 * collide again (the kernel's slot is the stack's hash modulo the size).
 */
struct stack_map stack_ids2 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 40960);	/* set by the loader */
	__type(key, struct profile_key);
	__type(value, __u64);	/* samples */
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PROFILE_NR_STATS);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

/* tgid -> 1 once announced; an exec forgets it */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u8);
} seen SEC(".maps");

/* tgids to read the maps of */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} new_pids SEC(".maps");

static __always_inline void count(__u32 stat)
{
	__u64 *n = bpf_map_lookup_elem(&stats, &stat);

	if (n)
		*n += 1;
}

/* The first sample of a process (or the first after its exec) tells user space. */
static __always_inline void announce(__u32 pid)
{
	__u8 one = 1;
	__u32 *slot;

	if (!pid || bpf_map_lookup_elem(&seen, &pid))
		return;
	if (bpf_map_update_elem(&seen, &pid, &one, BPF_NOEXIST))
		return;
	slot = bpf_ringbuf_reserve(&new_pids, sizeof(*slot), 0);
	if (!slot) {
		bpf_map_delete_elem(&seen, &pid);	/* told at a later sample */
		return;
	}
	*slot = pid;
	bpf_ringbuf_submit(slot, 0);
}

/* A stack id (PROFILE_STACK2: the second map's), -1 for none (a kernel thread's user stack), or -2: lost. */
static __always_inline __s32 stack_of(struct bpf_perf_event_data *ctx, __u64 flags)
{
	long id = bpf_get_stackid(ctx, &stack_ids, flags);

	if (id >= 0)
		return id;
	if (id == -EEXIST) {
		id = bpf_get_stackid(ctx, &stack_ids2, flags);
		if (id >= 0)
			return id | PROFILE_STACK2;
	}
	if (id == -EEXIST || id == -ENOMEM)
		return -2;	/* another stack holds the slot, or no room */
	return -1;
}

SEC("perf_event")
int sample(struct bpf_perf_event_data *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(), one = 1, *n;
	struct profile_key key = { .pid = pid_tgid >> 32, .user_stack = -1, .kernel_stack = -1 };

	count(PROFILE_EVENTS);
	if (!followed(pid_tgid))
		return 0;
	if (profile_cfg.user)
		key.user_stack = stack_of(ctx, BPF_F_USER_STACK);
	if (profile_cfg.kernel)
		key.kernel_stack = stack_of(ctx, 0);
	if (key.user_stack == -2 || key.kernel_stack == -2) {
		count(PROFILE_LOST_COLLISION);
		return 0;
	}
	/* -g user or kernel: a sample without a frame of that kind is not drawn */
	if (key.user_stack < 0 && key.kernel_stack < 0)
		return 0;
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	announce(key.pid);
	n = bpf_map_lookup_elem(&counts, &key);
	if (n) {
		__sync_fetch_and_add(n, 1);
	} else if (bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST)) {
		/* another cpu made it first (-EEXIST), or the map is full */
		n = bpf_map_lookup_elem(&counts, &key);
		if (n)
			__sync_fetch_and_add(n, 1);
		else
			count(PROFILE_LOST_FULL);
	}
	return 0;
}

/*
 * Code mapped (the loader's libraries, a dlopen): the process's maps are
 * read again at its next sample. Only PROT_EXEC mappings: a malloc's
 * mmap changes no symbol.
 */
SEC("tracepoint/syscalls/sys_enter_mmap")
int on_mmap(struct sys_enter_args *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	if (ctx->args[2] & 0x4 /* PROT_EXEC */)
		bpf_map_delete_elem(&seen, &pid);
	return 0;
}

/* A command followed from its exec on; a process that execs is read again. */
SEC("raw_tp/sched_process_exec")
int on_exec(void *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 pid = pid_tgid >> 32;

	follow_exec(pid_tgid);
	bpf_map_delete_elem(&seen, &pid);
	return 0;
}
