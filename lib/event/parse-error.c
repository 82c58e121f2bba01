// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Parse errors: the first one is kept, with its position; perf's rendering. */
#include <stdarg.h>
#include <stdio.h>
#include "event/parse-events-priv.h"

int parse_events__fail_hint(struct parser *p, int ret, int pos, char *hint, const char *fmt, ...)
{
	struct ember_parse_error *err = p->err;
	va_list ap;

	if (!err || err->msg) {
		free(hint);
		return ret;
	}
	err->pos = pos;
	err->str = strdup(p->spec);
	va_start(ap, fmt);
	if (vasprintf(&err->msg, fmt, ap) < 0)
		err->msg = NULL;
	va_end(ap);
	err->hint = hint;
	return ret;
}

void ember_parse_error__exit(struct ember_parse_error *err)
{
	if (!err)
		return;
	free(err->str);
	free(err->msg);
	free(err->hint);
	memset(err, 0, sizeof(*err));
}

int ember_parse_error__snprintf(const struct ember_parse_error *err, int width, char *buf,
				size_t size)
{
	static const char prefix[] = "event syntax error: ";
	const int len_prefix = sizeof(prefix) - 1, max_idx = 13;
	const char *str = err->str ? err->str : "";
	int len = strlen(str), pos = err->pos, cut = 0, max_len, n;
	char window[512];

	/* perf's layout: cut the spec on the left so the caret stays near column 33. */
	if (width <= 0)
		width = 80;
	max_len = width - 2 - len_prefix;
	if (max_len < 16)
		max_len = 16;
	if (max_len > (int)sizeof(window) - 1)
		max_len = sizeof(window) - 1;
	if (pos < 0)
		pos = 0;
	if (pos > len)
		pos = len;
	if (pos > max_idx)
		cut = pos - max_idx;
	snprintf(window, max_len + 1, "%s", str + cut);
	if (cut)
		window[0] = window[1] = '.';
	if (len - cut > max_len)
		window[max_len - 1] = window[max_len - 2] = '.';
	n = snprintf(buf, size, "%s'%s'\n%*s\\___ %s\n", prefix, window,
		     len_prefix + pos - cut + 1, "", err->msg ? err->msg : "parser error");
	if (err->hint && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - n, "\n%s\n", err->hint);
	return n;
}
