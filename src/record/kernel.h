/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel's MMAP record, found in microseconds rather than by reading all of kallsyms. */
#ifndef EMBER_RECORD_KERNEL_H
#define EMBER_RECORD_KERNEL_H

#include "synth/synth.h"

/*
 * Emit what ember_synth__kernel() emits — PERF_RECORD_MMAP
 * "[kernel.kallsyms]_text" from _text to _etext, then one MMAP per module —
 * but on x86_64 take _etext from /proc/iomem's "Kernel code" resource
 * (__pa(_text) .. __pa(_etext) - 1) and _text from the head of
 * /proc/kallsyms, instead of scanning the whole 5 MB kallsyms for _etext
 * (most of the cost of starting a recording). Falls back to
 * ember_synth__kernel() whenever either source is missing or hidden.
 * Returns what ember_synth__kernel() returns.
 */
int record_kernel__synthesize(struct ember_synth *s);

/*
 * Parse the "Kernel code" line of an /proc/iomem text (len bytes).
 * Returns 0 with its physical start and inclusive end, or -ENOENT.
 */
int record_kernel__parse_iomem(const char *buf, size_t len, uint64_t *start, uint64_t *end);

/*
 * Find the address of `name` in the leading part of a kallsyms text (len
 * bytes, whole lines). Returns 0 and *addr, or -ENOENT.
 */
int record_kernel__find_symbol(const char *buf, size_t len, const char *name, uint64_t *addr);

#endif
