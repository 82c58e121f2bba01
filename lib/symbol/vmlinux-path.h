/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Where perf looks for the running kernel's vmlinux (its vmlinux_path__init()). */
#ifndef EMBER_LIB_VMLINUX_PATH_H
#define EMBER_LIB_VMLINUX_PATH_H

#include <stdbool.h>

/*
 * fn(path, arg) for each place of perf's vmlinux path, in its order, with
 * the running kernel's release (uname -r) filled in: ./vmlinux,
 * /boot/vmlinux, /boot/vmlinux-R, /usr/lib/debug/boot/vmlinux-R,
 * /lib/modules/R/build/vmlinux, /usr/lib/debug/lib/modules/R/vmlinux,
 * /usr/lib/debug/boot/vmlinux-R.debug; until fn returns true. Whether
 * one did.
 */
bool vmlinux_path__find(bool (*fn)(const char *path, void *arg), void *arg);

#endif
