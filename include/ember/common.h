/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What every part of libember shares: the export mark, where its
 * diagnostics go and the library's version. Each public header includes it;
 * <ember/ember.h> includes them all.
 */
#ifndef EMBER_COMMON_H
#define EMBER_COMMON_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EMBER_API __attribute__((visibility("default")))

enum ember_log_level {
	EMBER_WARN,
	EMBER_INFO,
	EMBER_DEBUG,
};

/*
 * Receives each diagnostic line of the library (fmt ends with '\n'), with
 * the ctx given to ember_set_log(). May be called from any thread that
 * calls into libember.
 */
typedef int (*ember_log_fn_t)(enum ember_log_level level, void *ctx, const char *fmt, va_list ap);

/* Where the diagnostics go: fn (NULL: nowhere) called with ctx. */
struct ember_log {
	ember_log_fn_t fn;
	void *ctx;
};

/*
 * Sends the library's diagnostics to fn with ctx from now on; fn NULL
 * silences them. Returns where they went before, to put it back with
 * ember_set_log(old.fn, old.ctx). The default writes warnings to stderr
 * and drops info and debug lines. This is libember's one process-wide
 * setting, as libbpf_set_print(): set it before starting threads that
 * use the library, or have fn lock what ctx holds.
 */
EMBER_API struct ember_log ember_set_log(ember_log_fn_t fn, void *ctx);

/* The library's version, "MAJOR.MINOR.PATCH". Static storage. */
EMBER_API const char *ember_version(void);

#ifdef __cplusplus
}
#endif

#endif
