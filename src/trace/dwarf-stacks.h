/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --call-graph dwarf: each syscall's user stack unwound from the
 * registers and stack copy the BPF program took at its exit, with ember's
 * DWARF unwinder (lib/unwind, its per-file CFI kept across calls), in the
 * process's maps: a command's as the kernel reports them from its exec
 * on, any other's as /proc/PID/maps gives them (read when a process is
 * first seen, again when an address falls outside them), each frame named
 * as perf trace names it, inline levels included as perf's unwinder
 * callback adds them.
 */
#ifndef EMBER_SRC_TRACE_DWARF_STACKS_H
#define EMBER_SRC_TRACE_DWARF_STACKS_H

#include <stdio.h>
#include <sys/types.h>
#include <ember/systrace.h>

struct trace_dwarf;

/* NULL on ENOMEM. */
struct trace_dwarf *trace_dwarf__new(void);
void trace_dwarf__delete(struct trace_dwarf *d);
/*
 * A command held before its exec (pid): its maps, and its children's, as
 * the kernel makes them from the exec on (a side-band perf event, as perf
 * trace's), so that a command gone before its stacks are read still has
 * them. 0 or -errno.
 */
int trace_dwarf__follow_command(struct trace_dwarf *d, pid_t pid);
/* The first time pid shows up: its maps, while it still runs. */
void trace_dwarf__see_pid(struct trace_dwarf *d, pid_t pid);
/* The frames of exit's stack, one a line under it, as perf trace prints them. 0 or -ENOMEM. */
int trace_dwarf__fprintf(struct trace_dwarf *d, const struct ember_syscall_rec *exit, FILE *out);

#endif
