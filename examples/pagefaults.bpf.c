// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* At each page fault (a software perf event, period 1): one more for the process. */
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);	/* pid (the kernel's tgid) */
	__type(value, __u64);	/* page faults */
} faults SEC(".maps");

SEC("perf_event")
int count_fault(struct bpf_perf_event_data *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 one = 1, *n = bpf_map_lookup_elem(&faults, &pid);

	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&faults, &pid, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
