// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Two BPF programs for header-bpf.sh to load while perf records: one of a
 * single function, one calling a second (BPF to BPF), which perf's header
 * lists as sub_progs. Neither is attached: loaded is enough.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("socket")
int ember_single(struct __sk_buff *skb)
{
	return skb->len > 64 ? 0 : -1;
}

static __attribute__((noinline)) int ember_helper(int len)
{
	return len > 128 ? 1 : 0;
}

SEC("socket")
int ember_caller(struct __sk_buff *skb)
{
	return ember_helper(skb->len) ? 0 : -1;
}
