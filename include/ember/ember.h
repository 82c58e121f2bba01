/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * libember — the C SDK behind the ember command.
 *
 * Conventions (as libbpf and libperf): functions return 0 or a negative
 * errno; constructors return NULL with errno set. Nothing here prints to
 * stdout or exits; diagnostics go through the print callback below.
 */
#ifndef EMBER_EMBER_H
#define EMBER_EMBER_H

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

#include <ember/event.h>
#include <ember/mmap.h>
#include <ember/workload.h>
#include <ember/synth.h>
#include <ember/symbol.h>
#include <ember/machine.h>
#include <ember/perf-data.h>
#include <ember/trace.h>
#include <ember/session.h>
#include <ember/flame.h>
#include <ember/collapse.h>
#include <ember/heatmap.h>
#include <ember/hist.h>

#endif
