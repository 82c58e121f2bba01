/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What systrace.bpf.c sends through its ring buffer, and the maps user space
 * fills: shared by the BPF program and its consumer, so only kernel UAPI
 * types here.
 */
#ifndef EMBER_SYSTRACE_EVENT_H
#define EMBER_SYSTRACE_EVENT_H

#include <linux/types.h>

#define SYSTRACE_NR_ARGS	6
#define SYSTRACE_COMM_LEN	16
/* Strings read from user memory at a syscall's entry: at most this many, this long. */
#define SYSTRACE_NR_STRS	2
#define SYSTRACE_STR_LEN	256
/* Syscall numbers the per-syscall map covers. */
#define SYSTRACE_MAX_SYSCALLS	512
/* Cpus the cpu filter covers. */
#define SYSTRACE_MAX_CPUS	1024

enum systrace_kind {
	SYSTRACE_ENTER = 1,
	SYSTRACE_EXIT = 2,
	SYSTRACE_TRACEPOINT = 3,	/* struct systrace_tp_event */
	SYSTRACE_COMM = 4,		/* a followed task exec'd: its new comm */
	SYSTRACE_KIND_MASK = 0xff,
	SYSTRACE_UNCHOSEN = 0x100,	/* or'ed in: sent for the consumer's bookkeeping only */
	SYSTRACE_WITH_USTACK = 0x200,	/* or'ed in an exit: a struct systrace_event_ustack */
};

/* The targets map's values: a process (tgid) or thread followed. */
enum systrace_target_state {
	SYSTRACE_AT_EXEC = 0,	/* a command held before its exec: followed from the exec on */
	SYSTRACE_FOLLOWED = 1,
};

/* How the targets map is keyed (rodata target_mode). */
enum systrace_target_mode {
	SYSTRACE_ALL = 0,	/* every task */
	SYSTRACE_BY_PID = 1,	/* keys are tgids; their new children are added */
	SYSTRACE_BY_TID = 2,	/* keys are tids */
};

/* The per-syscall map's value bits. */
#define SYSTRACE_TRACED		(1u << 0)
#define SYSTRACE_UNCHOSEN_CALL	(1u << 1)	/* traced, but not one the user chose */
/* Bit SYSTRACE_STR_ARG(i): argument i is a string to read at entry. */
#define SYSTRACE_STR_ARG(i)	(1u << (8 + (i)))

struct systrace_event {
	__u64 time;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 pid;		/* tgid */
	__u32 tid;
	__s32 nr;		/* syscall number */
	__u16 kind;		/* enum systrace_kind */
	__u16 str_args;		/* enter: bit i set when argument i's string follows */
	char comm[SYSTRACE_COMM_LEN];
	union {
		__u64 args[SYSTRACE_NR_ARGS];	/* enter */
		__s64 ret;			/* exit */
	};
};

/* An enter with strings: str[k] holds the k-th argument set in str_args, NUL-ended. */
struct systrace_event_strs {
	struct systrace_event ev;
	char str[SYSTRACE_NR_STRS][SYSTRACE_STR_LEN];
};

/*
 * An exit with the caller's user stack (--call-graph), innermost first,
 * each frame as bpf_get_stack(BPF_F_USER_BUILD_ID) gives it (the layout of
 * struct bpf_stack_build_id): the file's build-id and the offset in it,
 * known even after the process is gone, or the bare address.
 */
#define SYSTRACE_MAX_STACK	48

struct systrace_frame {
	__s32 status;		/* 0 none, 1 build_id and offset, 2 ip only */
	__u8 build_id[20];
	__u64 offset_or_ip;
};

struct systrace_event_stack {
	struct systrace_event ev;
	__u32 nr_frames;
	__u32 pad;
	struct systrace_frame frames[SYSTRACE_MAX_STACK];
};

/*
 * An exit with the caller's user registers and a copy of its user stack
 * (--call-graph dwarf), as a perf sample with sample_regs_user and
 * sample_stack_user holds them, for user space to unwind: the registers
 * in perf's x86_64 numbering (PERF_REG_X86_*) of SYSTRACE_REGS_MASK, the
 * mask perf's --call-graph dwarf asks for (all but the segment registers
 * ds, es, fs, gs); then the stack_size bytes from sp (rodata
 * ustack_size), of which size are valid.
 */
#define SYSTRACE_REGS_MASK	0xff0fffULL
#define SYSTRACE_NR_REGS	20
#define SYSTRACE_MAX_USTACK	65528

struct systrace_event_ustack {
	struct systrace_event ev;
	__u64 regs[SYSTRACE_NR_REGS];
	__u64 size;		/* bytes of stack copied from regs' sp: 0 none */
	__u8 stack[];		/* ustack_size bytes */
};

/* A tracepoint's record: its first SYSTRACE_TP_RAW bytes, whatever its own size. */
#define SYSTRACE_TP_RAW		512

struct systrace_tp_event {
	__u64 time;
	__u32 pid;
	__u32 tid;
	__s32 index;		/* the attach cookie: which of the tracepoints asked for */
	__u16 kind;		/* SYSTRACE_TRACEPOINT */
	__u16 pad;
	char comm[SYSTRACE_COMM_LEN];
	__u8 raw[SYSTRACE_TP_RAW];
};

#endif
