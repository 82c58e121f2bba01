// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdarg.h>
#include <stdio.h>
#include "core/scnprintf.h"

static int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n;

	if (!size)
		return 0;
	n = vsnprintf(buf, size, fmt, ap);
	if (n < 0) {
		buf[0] = '\0';
		return 0;
	}
	return (size_t)n >= size ? (int)size - 1 : n;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

const char *bprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return buf;
}
