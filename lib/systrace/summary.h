/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The maps summary.bpf.c counts syscalls in, read by summary.c: shared by
 * the BPF program and its reader, so only kernel UAPI types here.
 */
#ifndef EMBER_SYSTRACE_SUMMARY_H
#define EMBER_SYSTRACE_SUMMARY_H

#include <linux/types.h>

#define SUMMARY_MAX_THREADS	65536
#define SUMMARY_MAX_STATS	262144
#define SUMMARY_COMM_LEN	16

/* A followed thread: its last enter's time, the enters seen, its name. */
struct summary_thread {
	__u64 enter_time;	/* bpf_ktime_get_ns() at its last sys_enter, 0: none seen */
	__u64 enters;
	__u32 pid;
	__u32 gone;		/* it exited: its tid is followed again only if a target */
	char comm[SUMMARY_COMM_LEN];
};

struct summary_key {
	__u32 tid;
	__u32 nr;
};

/* The failures of one syscall by one thread with one errno (perf's --errno-summary). */
struct summary_errno_key {
	__u32 tid;
	__u32 nr;
	__u32 err;		/* the errno, positive */
	__u32 pad;
};

/* The calls of one syscall by one thread, counted at each sys_exit. */
struct summary_stats {
	__u64 calls;
	__u64 errors;		/* calls returning a negative value */
	__u64 total;		/* ns, the sum of the durations */
	__u64 min;
	__u64 max;
	__u64 sq_lo;		/* the sum of the durations' squares, 128 bits */
	__u64 sq_hi;
};

/*
 * *hi:*lo += d * d, in 128 bits, with 64-bit operations only (BPF has no
 * wider multiply): d^2 = dh^2 << 64 + 2 dh dl << 32 + dl^2.
 */
static inline __attribute__((always_inline)) void summary_add_square(__u64 *lo, __u64 *hi, __u64 d)
{
	__u64 dl = d & 0xffffffff, dh = d >> 32;
	__u64 low = dl * dl, cross = dl * dh, high = dh * dh + (cross >> 31);
	__u64 sq_lo = low + (cross << 33);

	high += sq_lo < low;
	*lo += sq_lo;
	*hi += high + (*lo < sq_lo);
}

#endif
