/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EMBER_UTIL_SYSCTL_H
#define EMBER_UTIL_SYSCTL_H

/*
 * An unsigned number from /proc/sys/kernel/NAME (perf_event_max_stack,
 * perf_event_max_sample_rate, ...), or dflt when it cannot be read.
 */
unsigned int sysctl__kernel_uint(const char *name, unsigned int dflt);

/* perf's sysctl__max_stack(): the kernel's deepest callchain, 127 unless told */
static inline unsigned int sysctl__max_stack(void)
{
	return sysctl__kernel_uint("perf_event_max_stack", 127);
}

#endif
