/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EMBER_UTIL_PROC_ALIVE_H
#define EMBER_UTIL_PROC_ALIVE_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Whether task pid still runs: /proc/PID/stat exists and its state is
 * not zombie (Z, exited but not reaped yet) or dead (X).
 */
bool proc__alive(pid_t pid);

#endif
