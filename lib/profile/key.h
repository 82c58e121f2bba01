/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What profile.bpf.c counts by and tells user space, shared with its loader. */
#ifndef EMBER_LIB_PROFILE_KEY_H
#define EMBER_LIB_PROFILE_KEY_H

#include <linux/types.h>

/* Frames kept per stack: perf's default kernel.perf_event_max_stack. */
#define PROFILE_MAX_DEPTH 127

/*
 * A stack id with this bit is in the overflow stack map (stack_ids2): its
 * slot in the main one held another stack. Ids are below 2^20.
 */
#define PROFILE_STACK2 (1 << 30)

/* One count per (process, thread name, user stack, kernel stack). */
struct profile_key {
	__u32 pid;
	__s32 user_stack;	/* a stack id, or -1: none */
	__s32 kernel_stack;
	char comm[16];
};

/* The per-cpu counters (the stats map's keys). */
enum profile_stat {
	PROFILE_EVENTS,		/* the program ran */
	PROFILE_LOST_FULL,	/* the counts map had no room */
	PROFILE_LOST_COLLISION,	/* bpf_get_stackid(): -EEXIST or -ENOMEM in both stack maps */
	PROFILE_NR_STATS,
};

/* The rodata settings, filled before the load. */
struct profile_cfg {
	__u32 user;		/* keep user stacks */
	__u32 kernel;		/* keep kernel stacks */
};

#endif
