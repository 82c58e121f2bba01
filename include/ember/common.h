/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What every part of libember shares: the export mark, the diagnostics
 * callback and the library's version. Each public header includes it;
 * <ember/ember.h> includes them all.
 */
#ifndef EMBER_COMMON_H
#define EMBER_COMMON_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EMBER_API __attribute__((visibility("default")))

enum ember_print_level {
	EMBER_WARN,
	EMBER_INFO,
	EMBER_DEBUG,
};

typedef int (*ember_print_fn_t)(enum ember_print_level level, const char *fmt, va_list ap);

/*
 * Replace the diagnostics callback; NULL silences the library.
 * Returns the previous callback. The default writes warnings to stderr.
 */
EMBER_API ember_print_fn_t ember_set_print(ember_print_fn_t fn);

/* The library's version, "MAJOR.MINOR.PATCH". Static storage. */
EMBER_API const char *ember_version(void);

#ifdef __cplusplus
}
#endif

#endif
