/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Stacks counted in the kernel: a BPF program on a sampling event (cpu-clock
 * by default) adds one to a map entry per (process, thread name, user stack,
 * kernel stack) at each sample; nothing per sample reaches user space. The
 * event is opened on every cpu for every task (EMBER_PROFILE_ALL), or on
 * each target process, inherited by its children (EMBER_PROFILE_PIDS), as a
 * recorder opens it. The
 * owner reads the maps when it wants (at the end, or every interval) into a
 * flame graph tree (<ember/flame.h>), whose frames are named as
 * stackcollapse-perf.pl names them ("comm;outer;...;inner_[k]").
 *
 * Each process is symbolised from its /proc/PID/maps, read as soon as its
 * first sample is seen (the program announces new processes, and those
 * that exec, through a ring buffer that ember_profile__poll() drains), so
 * a process that exits before the maps are read still gets its names.
 *
 *   p = ember_profile__new(&opts);        BPF loaded, maps made
 *   ember_profile__add(p, pid, at_exec);  targets (EMBER_PROFILE_PIDS)
 *   ember_profile__start(p);              the event opened, the program on it
 *   while (...) ember_profile__poll(p, 100);
 *   ember_profile__stop(p);
 *   ember_profile__read(p, fl, false, &stats);
 *   ember_profile__delete(p);
 */
#ifndef EMBER_PROFILE_H
#define EMBER_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ember_flame;
struct perf_event_attr;
struct ember_profile;

/* Whose samples count. */
enum ember_profile_target {
	EMBER_PROFILE_ALL,	/* every task (ember itself excepted), the idle tasks included */
	EMBER_PROFILE_PIDS,	/* the processes ember_profile__add() names, and their children */
};

/* Which stacks a sample keeps. */
enum ember_profile_stacks {
	EMBER_PROFILE_BOTH,
	EMBER_PROFILE_USER,	/* user frames only; samples of kernel threads are left out */
	EMBER_PROFILE_KERNEL,	/* kernel frames only; samples in user space are left out */
};

struct ember_profile_opts {
	size_t sz;			/* sizeof(struct ember_profile_opts) */
	/* The sampling event: an attr (its sample_freq/freq or sample_period is used as is). */
	const struct perf_event_attr *attr;
	enum ember_profile_target target;
	bool no_inherit;		/* PIDS: children forked later are not followed */
	const char *cpus;		/* a cpu list ("0,2-3"); NULL: every online cpu */
	enum ember_profile_stacks stacks;
	/* Distinct (process, comm, stacks) keys kept; 0: 40960. */
	uint32_t max_entries;
	/*
	 * Slots of the stack map (a bigger table has fewer collisions; a stack
	 * whose slot is taken goes to an overflow map of half as many); 0: 16384.
	 */
	uint32_t max_stacks;
	/* On failure, one sentence on why (the event's refusal in perf's words, or BPF's). */
	char *errbuf;
	size_t errbuf_size;
};

/*
 * Loads the program for opts (nothing runs yet). NULL with errno, and
 * opts->errbuf filled with the reason. Free with ember_profile__delete().
 */
EMBER_API struct ember_profile *ember_profile__new(const struct ember_profile_opts *opts);
/* Stops (if running) and frees. Accepts NULL. */
EMBER_API void ember_profile__delete(struct ember_profile *p);
/*
 * Follows process pid (EMBER_PROFILE_PIDS; -EINVAL otherwise), from its
 * next exec on when at_exec (a command held at its exec). 0 or -errno.
 */
EMBER_API int ember_profile__add(struct ember_profile *p, pid_t pid, bool at_exec);
/* Opens the event on the cpus and attaches the programs. 0 or -errno (errbuf says why). */
EMBER_API int ember_profile__start(struct ember_profile *p);
/*
 * Waits up to timeout_ms for processes seen for the first time (or after
 * an exec) and reads their maps. Returns how many, or -errno (-EINTR: a
 * signal came).
 */
EMBER_API int ember_profile__poll(struct ember_profile *p, int timeout_ms);
/* Stops sampling (the events closed); the counts stay readable. */
EMBER_API void ember_profile__stop(struct ember_profile *p);

/* What a read found, and what was lost since the start. */
struct ember_profile_stats {
	uint64_t samples;	/* samples counted into stacks (this read) */
	uint64_t stacks;	/* distinct keys read (this read) */
	uint64_t unknown_pids;	/* keys of processes gone before their maps were read */
	/* Since the start: */
	uint64_t events;	/* samples the program ran for, its targets' or not */
	uint64_t lost_full;	/* samples lost: the counts map was full */
	uint64_t lost_collision; /* samples lost: their stack's slots held others (or no room) */
};

/*
 * Adds every counted stack to fl (frames named as stackcollapse-perf.pl
 * names them, kernel frames with "_[k]", the frames' kinds as
 * ember_flame__read_folded() takes them from the folded text), weighing
 * its number of samples. With clear,
 * the counts read are deleted (an interval's read). 0 or -errno.
 */
EMBER_API int ember_profile__read(struct ember_profile *p, struct ember_flame *fl, bool clear,
				  struct ember_profile_stats *stats);

#ifdef __cplusplus
}
#endif

#endif
