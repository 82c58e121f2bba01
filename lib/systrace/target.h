/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Whom a syscall BPF program follows, shared by every program of
 * lib/systrace (systrace.bpf.c's lines, summary.bpf.c's counts) and their
 * loaders: the settings put in the program's rodata before the load, and the
 * user side that fills them and the targets and syscalls maps.
 */
#ifndef EMBER_SYSTRACE_TARGET_H
#define EMBER_SYSTRACE_TARGET_H

#include <linux/types.h>

/* The rodata target_cfg of each program, set by user space before the load. */
struct systrace_target_cfg {
	__u32 target_mode;		/* enum systrace_target_mode */
	__u32 follow_forks;		/* BY_PID: new children are followed */
	__u32 self_tgid;		/* ember itself, never traced */
	__u32 filter_cpus;		/* only the cpus set in the cpus map */
	__u32 filter_uid;		/* only tasks of user target_uid */
	__u32 target_uid;
};

#ifndef __bpf__
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct ember_systrace_opts;

/* cfg filled for opts. */
void systrace_target__config(struct systrace_target_cfg *cfg,
			     const struct ember_systrace_opts *opts);
/* Whether opts choose syscall nr (all when opts->syscalls is NULL). */
bool systrace_target__chosen(const struct ember_systrace_opts *opts, int nr);
/* opts' cpus set in the cpus map cpus_fd (filter_cpus). 0 or -errno (-ERANGE: too high). */
int systrace_target__choose_cpus(int cpus_fd, const struct ember_systrace_opts *opts);
/* id followed in the targets map targets_fd, from its next exec on if at_exec. 0 or -errno. */
int systrace_target__add(int targets_fd, pid_t id, bool at_exec);
/* The sum over the cpus of a per-cpu array's first __u64 (map fd), 0 when unreadable. */
uint64_t systrace_percpu_sum(int fd);
#endif

#endif
