/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Syscall summaries, perf trace -s's figures: per thread and syscall the
 * calls, the failed ones, the total, shortest and longest durations and
 * what their spread needs. The summary is filled either by a BPF counter
 * (ember_syscount), which counts every followed syscall in the kernel
 * without sending any event to user space and is read once at the end, or
 * call by call (a recorded file replayed).
 */
#ifndef EMBER_SYSTRACE_SUMMARY_H_PUBLIC
#define EMBER_SYSTRACE_SUMMARY_H_PUBLIC

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ember/common.h>
#include <ember/systrace.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The calls of one syscall by one thread; durations in ns. */
struct ember_syscall_stats {
	uint64_t calls;
	uint64_t errors;	/* calls that returned a negative value */
	uint64_t total;
	uint64_t min;		/* UINT64_MAX before the first call */
	uint64_t max;
	uint64_t sq_lo;		/* the sum of the durations' squares, 128 bits */
	uint64_t sq_hi;
	uint64_t *errnos;	/* failures by errno: errnos[e - 1] for errno e; NULL: none */
	int max_errno;		/* errnos' length */
	/*
	 * perf's running figures (Welford's mean and M2, in doubles), kept by
	 * ember_syscall_stats__add() for the welford_n calls it added: when
	 * that is every call, the mean and stddev are perf's to the last bit.
	 */
	uint64_t welford_n;
	double welford_mean, welford_m2;
};

/* One more call that took duration ns, failed or not. */
EMBER_API void ember_syscall_stats__add(struct ember_syscall_stats *s, uint64_t duration,
					bool failed);
/* n more failures with errno err (positive). Returns 0 or -ENOMEM, -EINVAL. */
EMBER_API int ember_syscall_stats__add_errno(struct ember_syscall_stats *s, int err, uint64_t n);
/* The mean duration in ns (perf's running one when every call came through _add), 0 without calls. */
EMBER_API double ember_syscall_stats__mean(const struct ember_syscall_stats *s);
/*
 * The standard deviation of the mean in ns, as perf's stddev_stats()
 * (sqrt(variance / calls), the variance with calls - 1), 0 under 2 calls.
 */
EMBER_API double ember_syscall_stats__stddev(const struct ember_syscall_stats *s);

struct ember_syscall_summary_entry {
	int nr;				/* syscall number */
	struct ember_syscall_stats stats;
};

/* A thread of the summary. */
struct ember_syscall_summary_thread {
	pid_t pid;
	pid_t tid;
	char comm[16];			/* its last name */
	uint64_t events;		/* syscall enters and exits seen */
	int nr_entries;			/* its syscalls, in the order first seen */
	struct ember_syscall_summary_entry *entries;
	size_t alloc;
};

struct ember_syscall_summary;

/* An empty summary, freed with ember_syscall_summary__delete(); NULL with errno. */
EMBER_API struct ember_syscall_summary *ember_syscall_summary__new(void);
EMBER_API void ember_syscall_summary__delete(struct ember_syscall_summary *s);
/*
 * Thread tid of the summary, made (pid, no name, no events) when new;
 * NULL when memory runs out. Owned by the summary, valid until the next
 * thread is made.
 */
EMBER_API struct ember_syscall_summary_thread *
ember_syscall_summary__thread(struct ember_syscall_summary *s, pid_t pid, pid_t tid);
/*
 * The statistics of syscall nr in thread t, zeroed (min UINT64_MAX) when
 * new; NULL when memory runs out. Valid until t's next new syscall.
 */
EMBER_API struct ember_syscall_stats *
ember_syscall_summary_thread__stats(struct ember_syscall_summary_thread *t, int nr);
/* How many threads the summary holds, and the i-th, in the order first seen. */
EMBER_API int ember_syscall_summary__nr_threads(const struct ember_syscall_summary *s);
EMBER_API struct ember_syscall_summary_thread *
ember_syscall_summary__thread_at(struct ember_syscall_summary *s, int i);

/* The BPF counter of ember_syscall_summary's figures. */
struct ember_syscount;

/*
 * Load the counting BPF program for opts' targets and syscalls (those tracefs
 * has an event for, as perf trace; buffer_size unused), not yet attached. NULL with errno set: the kernel's refusal,
 * which ember_bpf__strerror() explains. Freed with ember_syscount__delete().
 */
EMBER_API struct ember_syscount *ember_syscount__new(const struct ember_systrace_opts *opts);
/* As ember_systrace__add(): follow process or thread id, from its exec on if at_exec. */
EMBER_API int ember_syscount__add(struct ember_syscount *sc, pid_t id, bool at_exec);
/* Attach the programs: counting starts. Returns 0 or -errno. */
EMBER_API int ember_syscount__start(struct ember_syscount *sc);
/* Detach them: counting stops, the counts stay. */
EMBER_API void ember_syscount__stop(struct ember_syscount *sc);
/* Add the counts so far to summary s. Returns 0 or -errno. */
EMBER_API int ember_syscount__read(struct ember_syscount *sc, struct ember_syscall_summary *s);
/* Calls not counted because the kernel maps were full. */
EMBER_API uint64_t ember_syscount__dropped(const struct ember_syscount *sc);
EMBER_API void ember_syscount__delete(struct ember_syscount *sc);

#ifdef __cplusplus
}
#endif

#endif
