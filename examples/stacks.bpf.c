// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* At each cpu-clock sample: one more for (process, user stack, kernel stack). */
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <bpf/bpf_helpers.h>
#include "stacks.h"

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, STACKS_MAX_DEPTH * sizeof(__u64));
} stack_ids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct stacks_key);
	__type(value, __u64);	/* samples */
} counts SEC(".maps");

const volatile __u32 target_pid;	/* 0: every process */

SEC("perf_event")
int sample(struct bpf_perf_event_data *ctx)
{
	struct stacks_key key = { .pid = bpf_get_current_pid_tgid() >> 32 };
	__u64 one = 1, *n;

	if (!key.pid || (target_pid && key.pid != target_pid))
		return 0;	/* the idle task, or another process */
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	key.user_stack = bpf_get_stackid(ctx, &stack_ids, BPF_F_USER_STACK);
	key.kernel_stack = bpf_get_stackid(ctx, &stack_ids, 0);
	n = bpf_map_lookup_elem(&counts, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
