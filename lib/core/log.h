/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Library diagnostics, routed to the callback set by ember_set_log(). */
#ifndef EMBER_LIB_LOG_H
#define EMBER_LIB_LOG_H

#include <ember/common.h>

__attribute__((format(printf, 2, 3)))
void log__printf(enum ember_log_level level, const char *fmt, ...);

#define pr_warn(fmt, ...)  log__printf(EMBER_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)  log__printf(EMBER_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) log__printf(EMBER_DEBUG, fmt, ##__VA_ARGS__)

#endif
