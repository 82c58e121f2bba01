/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Library diagnostics, routed through the callback set by ember_set_print(). */
#ifndef EMBER_LIB_LOG_H
#define EMBER_LIB_LOG_H

#include <ember/common.h>

__attribute__((format(printf, 2, 3)))
void ember_log(enum ember_print_level level, const char *fmt, ...);

#define pr_warn(fmt, ...)  ember_log(EMBER_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)  ember_log(EMBER_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) ember_log(EMBER_DEBUG, fmt, ##__VA_ARGS__)

#endif
