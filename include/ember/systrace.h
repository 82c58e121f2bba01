/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Syscall tracing with BPF: a program on raw_syscalls:sys_enter/sys_exit
 * keeps the calls of the targets (every task, processes and their new
 * children, or threads) and of the syscalls chosen, reads their string
 * arguments (paths, names) from the caller's memory at entry, and sends
 * each enter and exit through a ring buffer. The consumer pairs them per
 * thread: an exit comes with the enter it ends, when that was seen.
 */
#ifndef EMBER_SYSTRACE_H
#define EMBER_SYSTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ember/common.h>
#include <ember/syscall.h>
#include <ember/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ember_systrace_target {
	EMBER_SYSTRACE_ALL,	/* every task but ember's own process (-a) */
	EMBER_SYSTRACE_PIDS,	/* the processes added, and their children unless no_inherit */
	EMBER_SYSTRACE_TIDS,	/* the threads added */
};

struct ember_systrace_opts {
	size_t sz;			/* sizeof(struct ember_systrace_opts) */
	const char *tracefs;		/* the directory holding events/; NULL: find it */
	enum ember_systrace_target target;
	bool no_inherit;		/* PIDS: not their children */
	const int *syscalls;		/* the syscall numbers to trace; NULL: all */
	int nr_syscalls;
	const int *also;		/* traced too though not chosen, marked unchosen */
	int nr_also;
	size_t buffer_size;		/* ring buffer bytes (a power of 2 of pages); 0: 16 MB */
	/*
	 * Wake a poll only when this many bytes wait (0: at every event); then
	 * poll with a timeout, which collects the rest. 0 in the opts: a
	 * quarter of the buffer.
	 */
	size_t wakeup_bytes;
	const int *cpus;		/* only calls made on these cpus; NULL: any */
	int nr_cpus;
	bool filter_uid;		/* only calls of tasks whose uid is uid */
	uid_t uid;
	bool no_syscalls;		/* tracepoints only */
	bool user_stack;		/* exits carry the caller's user stack (frame pointers) */
	const struct ember_tracepoint *tps;	/* tracepoints (and probes) recorded too */
	int nr_tps;
	struct ember_syscalls *table;	/* formats already read (not owned); NULL: read them */
	/*
	 * --call-graph dwarf: exits carry the caller's user registers and this
	 * many bytes of its user stack (a multiple of 8, at most 65528; 0: not)
	 */
	unsigned int user_stack_size;
};

/* A user stack frame: in a file known by its build-id (and offset), or a bare address. */
struct ember_systrace_frame {
	int32_t status;			/* 0 none, 1 build_id and offset, 2 ip only */
	uint8_t build_id[20];
	uint64_t offset_or_ip;		/* the file offset (status 1) or the address (2) */
};

/* One end of a syscall, as the consumer hands it out. */
struct ember_syscall_rec {
	uint64_t time;			/* ns, CLOCK_MONOTONIC */
	pid_t pid;
	pid_t tid;
	int nr;				/* syscall number */
	char comm[16];			/* the thread's name then */
	uint64_t args[EMBER_SYSCALL_MAX_ARGS];	/* enter */
	/* enter: argument i's string read at entry, or NULL (not a string, or unreadable) */
	const char *strs[EMBER_SYSCALL_MAX_ARGS];
	int64_t ret;			/* exit */
	bool unchosen;			/* one of opts.also only: for bookkeeping, not to show */
	/* exit, with opts.user_stack: the caller's frames, innermost first */
	const struct ember_systrace_frame *frames;
	int nr_frames;
	/*
	 * exit, with opts.user_stack_size: the user registers as a perf sample's
	 * user_regs hold them (x86_64: PERF_REG_X86_* of user_regs_mask, in bit
	 * order; NULL: none) and the stack copy from their sp, as its user_stack
	 * (user_stack_size bytes valid)
	 */
	const uint64_t *user_regs;
	uint64_t user_regs_mask;
	int nr_user_regs;
	const void *user_stack;
	uint64_t user_stack_size;
};

/*
 * Called for each event in order: at an enter with exit NULL; at an exit
 * with the enter it ends, or NULL when that was not seen. The records are
 * valid during the call only. A non-zero return stops the poll and is
 * returned by it. An exec of a followed task comes as an enter whose nr is
 * EMBER_SYSTRACE_EXEC and whose comm is the new one.
 */
#define EMBER_SYSTRACE_EXEC (-1)

typedef int (*ember_systrace_fn)(void *ctx, const struct ember_syscall_rec *enter,
				 const struct ember_syscall_rec *exit);

/* A tracepoint's record (opts.tps[index]) for the same targets. */
struct ember_systrace_tp_rec {
	uint64_t time;			/* ns, CLOCK_MONOTONIC */
	pid_t pid;
	pid_t tid;
	char comm[16];
	int index;			/* which of opts.tps */
	const void *raw;		/* the record, as PERF_SAMPLE_RAW holds it, then more bytes */
	size_t size;
};

typedef int (*ember_systrace_tp_fn)(void *ctx, const struct ember_systrace_tp_rec *rec);

struct ember_systrace;

/* Where tracepoint records go during polls (none by default: dropped). */
EMBER_API void ember_systrace__set_tp_handler(struct ember_systrace *st, ember_systrace_tp_fn fn,
					      void *ctx);

/*
 * Load the BPF program for opts (maps made, syscalls chosen, string
 * arguments marked from tracefs' formats), not yet attached. NULL with
 * errno set: the kernel's refusal, which ember_bpf__strerror() explains.
 * Freed with ember_systrace__delete().
 */
EMBER_API struct ember_systrace *ember_systrace__new(const struct ember_systrace_opts *opts);
/*
 * Follow a process (PIDS) or thread (TIDS); at_exec: only from its next
 * exec on (a command held before it, as perf's enable_on_exec). Returns 0
 * or -errno.
 */
EMBER_API int ember_systrace__add(struct ember_systrace *st, pid_t id, bool at_exec);
/* Attach the programs: events flow from now on. Returns 0 or -errno. */
EMBER_API int ember_systrace__start(struct ember_systrace *st);
/* Detach them; what the buffer holds can still be polled. */
EMBER_API void ember_systrace__stop(struct ember_systrace *st);
/*
 * Wait up to timeout_ms (-1: forever, 0: not at all) for events and hand
 * each to fn. Returns how many were handed, fn's non-zero return, or
 * -errno (-EINTR when a signal came).
 */
EMBER_API int ember_systrace__poll(struct ember_systrace *st, int timeout_ms,
				   ember_systrace_fn fn, void *ctx);
/* Events the full ring buffer dropped so far. */
EMBER_API uint64_t ember_systrace__lost(const struct ember_systrace *st);
EMBER_API void ember_systrace__delete(struct ember_systrace *st);

#ifdef __cplusplus
}
#endif

#endif
