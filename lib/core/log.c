// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdio.h>
#include "core/log.h"

static int default_print(enum ember_print_level level, const char *fmt, va_list ap)
{
	if (level != EMBER_WARN)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* The one piece of process-wide state: the diagnostics sink, as libbpf_set_print. */
static ember_print_fn_t print_fn = default_print;

ember_print_fn_t ember_set_print(ember_print_fn_t fn)
{
	ember_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

void ember_log(enum ember_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}

const char *ember_version(void)
{
	return EMBER_VERSION;
}
