/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The user stack of a --call-graph dwarf sample unwound from its copy,
 * with elfutils' libdwfl from the binaries' CFI (.eh_frame, .debug_frame
 * of the file or of its separate debuginfo), as perf's libdw unwinder
 * (tools/perf/util/unwind-libdw.c) does, by its rules but where perf
 * 6.1's output is its libunwind unwinder's (the one it runs when built
 * with both), which decides what perf prints:
 *
 * - a module is reported per map at map start - pgoff, from the dso's
 *   file (under the symfs) or, when that is gone, its build-id cache
 *   copy;
 * - the sampled ip is the first frame, whether a walk can start from it
 *   or not (its file gone, JIT or anonymous code): so perf 6.1 prints it,
 *   its unwinder being libunwind's when built with both (libdw's gives
 *   no frame at all then);
 * - the registers come from the sample's user_regs (a register missing
 *   from the mask reads 0), memory from the stack copy (its valid bytes
 *   from the sampled sp, the last word left out as libunwind's reader
 *   leaves it), else from the file a map backs;
 * - the first frame is the ip as it is, each caller's is its return
 *   address - 1; the walk stops at max frames, after a frame whose file
 *   cannot be reported or that no map holds (taken, as libunwind takes
 *   it; libdw's drops the former), or where the CFI or the copy ends;
 *   what was taken stays.
 *
 * Unlike perf, which builds and tears down a Dwfl per sample, the
 * unwinder keeps one per process's maps (the modules and their parsed
 * CFI with it) and checks each module against the map at every frame,
 * so a map replaced since is reported again. Stack copies are read in
 * place and never kept.
 *
 * Nor does it run libdwfl's frame walk for most samples: the frame
 * rules at each pc are read from the module's .eh_frame once
 * (cfi-rules.h) and evaluated as libdwfl's handle_cfi() evaluates them,
 * the modules reported and the memory read in libdwfl's order, so the
 * frames are libdwfl's. A sample whose walk meets a pc without such a
 * rule (no .eh_frame entry, an expression, a signal frame) is walked
 * again by libdwfl from the start.
 */
#ifndef EMBER_LIB_UNWIND_H
#define EMBER_LIB_UNWIND_H

#include <stdint.h>
#include <ember/perf-data.h>
#include "machine/thread.h"

struct unwinder;

/*
 * The value of perf register bit reg (PERF_REG_*) in regs, packed in mask
 * order; false when the sample has no registers or not that one.
 */
bool unwind__reg_value(const struct ember_sample_regs *regs, int reg, uint64_t *val);

/* A new unwinder for x86_64 samples; NULL on ENOMEM. Free with unwinder__delete(). */
struct unwinder *unwinder__new(void);
void unwinder__delete(struct unwinder *u);

/*
 * Whether u walks by its cached rules where it can (on, the default) or
 * leaves every walk to libdwfl (off): the frames are the same either
 * way, which the unwinder's fuzz target checks.
 */
void unwinder__set_own_walk(struct unwinder *u, bool on);

/*
 * Unwinds sm's user stack (sm has user_regs and a stack copy) taken in
 * thread: at most max addresses into ips, callee first. Returns how many
 * (0: no user ip in the registers, or max 0), or -ENOMEM. Warnings about the input (registers missing,
 * a file gone, CFI that does not parse) go through the log callback,
 * once per kind for the unwinder's life.
 */
int unwinder__unwind(struct unwinder *u, struct ember_thread *thread,
		     const struct ember_sample *sm, uint64_t *ips, unsigned int max);

#endif
