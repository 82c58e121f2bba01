/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* printf into a caller's buffer that is never overrun and always NUL-ended. */
#ifndef EMBER_CORE_SCNPRINTF_H
#define EMBER_CORE_SCNPRINTF_H

#include <stddef.h>

/* The kernel's scnprintf: at most size - 1 bytes and a NUL; returns the bytes written. */
__attribute__((format(printf, 3, 4)))
int scnprintf(char *buf, size_t size, const char *fmt, ...);

/* The same, returning buf: for messages built into a caller's buffer. */
__attribute__((format(printf, 3, 4)))
const char *bprintf(char *buf, size_t size, const char *fmt, ...);

#endif
