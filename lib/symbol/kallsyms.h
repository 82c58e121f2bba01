/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The running kernel's symbols and modules: /proc/kallsyms, /proc/modules. */
#ifndef EMBER_LIB_KALLSYMS_H
#define EMBER_LIB_KALLSYMS_H

#include <stdint.h>

#define KERNEL_DSO_NAME "[kernel.kallsyms]"

typedef int (*module_fn_t)(void *arg, const char *name, uint64_t start, uint64_t size);

/*
 * Calls fn(arg, "[name]", start, size) for each module in a /proc/modules
 * style file. Returns 0, the first non-zero fn result, or -errno (-ENOENT
 * when there is no such file: a kernel without modules).
 */
int modules__parse(const char *path, module_fn_t fn, void *arg);

#endif
