// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdio.h>
#include "core/log.h"

static int default_log(enum ember_log_level level, void *ctx, const char *fmt, va_list ap)
{
	if (level != EMBER_WARN)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* The one piece of process-wide state: the diagnostics sink, as libbpf_set_print. */
static struct ember_log log_to = { .fn = default_log };

struct ember_log ember_set_log(ember_log_fn_t fn, void *ctx)
{
	struct ember_log old = log_to;

	log_to = (struct ember_log){ .fn = fn, .ctx = ctx };
	return old;
}

void log__printf(enum ember_log_level level, const char *fmt, ...)
{
	va_list ap;

	if (!log_to.fn)
		return;
	va_start(ap, fmt);
	log_to.fn(level, log_to.ctx, fmt, ap);
	va_end(ap);
}

const char *ember_version(void)
{
	return EMBER_VERSION;
}
