/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What stacks.bpf.c counts by, shared with stacks.c. */
#ifndef STACKS_H
#define STACKS_H

#define STACKS_MAX_DEPTH 127

struct stacks_key {
	__u32 pid;
	__s32 user_stack;	/* a stack id, or -errno: none */
	__s32 kernel_stack;
	char comm[16];
};

#endif
