/* SPDX-License-Identifier: GPL-2.0-only */
/* ember trace record: the syscalls recorded to perf.data as perf trace record does. */
#ifndef EMBER_SRC_TRACE_RECORD_H
#define EMBER_SRC_TRACE_RECORD_H

/* ember record with perf trace record's arguments, then argv (record's own: -o, a command). */
int trace_record(int argc, const char **argv);

#endif
