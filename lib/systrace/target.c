// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The user side of target.bpf.h: a program's target settings, its chosen syscalls, its targets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ember/bpf.h>
#include <ember/systrace.h>
#include "systrace/event.h"
#include "systrace/target.h"

void systrace_target__config(struct systrace_target_cfg *cfg,
			     const struct ember_systrace_opts *opts)
{
	cfg->target_mode = opts->target == EMBER_SYSTRACE_PIDS ? SYSTRACE_BY_PID :
			   opts->target == EMBER_SYSTRACE_TIDS ? SYSTRACE_BY_TID :
								 SYSTRACE_ALL;
	cfg->follow_forks = !opts->no_inherit;
	cfg->self_tgid = getpid();
	cfg->filter_cpus = opts->cpus != NULL;
	cfg->filter_uid = opts->filter_uid;
	cfg->target_uid = opts->uid;
}

bool systrace_target__chosen(const struct ember_systrace_opts *opts, int nr)
{
	if (!opts->syscalls)
		return true;
	for (int i = 0; i < opts->nr_syscalls; i++)
		if (opts->syscalls[i] == nr)
			return true;
	return false;
}

int systrace_target__choose_cpus(int cpus_fd, const struct ember_systrace_opts *opts)
{
	__u8 on = 1;

	for (int i = 0; opts->cpus && i < opts->nr_cpus; i++) {
		__u32 cpu = opts->cpus[i];

		if (cpu >= SYSTRACE_MAX_CPUS)
			return -ERANGE;
		if (bpf_map_update_elem(cpus_fd, &cpu, &on, BPF_ANY))
			return -errno;
	}
	return 0;
}

int systrace_target__add(int targets_fd, pid_t id, bool at_exec)
{
	__u32 key = id, state = at_exec ? SYSTRACE_AT_EXEC : SYSTRACE_FOLLOWED;

	if (bpf_map_update_elem(targets_fd, &key, &state, BPF_ANY))
		return -errno;
	return 0;
}

uint64_t systrace_percpu_sum(int fd)
{
	uint64_t sum = 0;
	__u32 zero = 0;

	ember_bpf__percpu_sum(fd, &zero, &sum);	/* 0 when unreadable */
	return sum;
}
