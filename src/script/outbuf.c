// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include "script/outbuf.h"

void outbuf__init(struct outbuf *ob, FILE *fp)
{
	memset(ob, 0, sizeof(*ob));
	ob->fp = fp;
}

void outbuf__exit(struct outbuf *ob)
{
	free(ob->buf);
	memset(ob, 0, sizeof(*ob));
}

bool outbuf__grow(struct outbuf *ob, size_t n)
{
	size_t cap = ob->cap ? ob->cap : OUTBUF_FLUSH_AT * 2;
	char *buf;

	if (ob->error)
		return false;
	while (cap < ob->len + n + 1)
		cap *= 2;
	buf = realloc(ob->buf, cap);
	if (!buf) {
		ob->error = true;
		return false;
	}
	ob->buf = buf;
	ob->cap = cap - 1;	/* room for outbuf__str()'s NUL */
	return true;
}

/*
 * Straight to the file descriptor: copying tens of megabytes through
 * stdio's buffer first costs a tenth of perf script's work. Whatever
 * others wrote to fp goes out before, so the order of the output holds.
 */
int outbuf__flush(struct outbuf *ob)
{
	const char *p = ob->buf;
	size_t left = ob->len;
	int fd;

	if (!ob->fp || !ob->len)
		return 0;
	if (fflush(ob->fp))
		ob->error = true;
	fd = fileno(ob->fp);
	while (left && !ob->error) {
		ssize_t n = write(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ob->error = true;
			break;
		}
		p += n;
		left -= n;
	}
	ob->len = 0;
	return ob->error ? -EIO : 0;
}

const char *outbuf__str(struct outbuf *ob)
{
	if (!ob->buf && !outbuf__grow(ob, 1))
		return "";
	ob->buf[ob->len] = '\0';
	return ob->buf;
}

void outbuf__printf(struct outbuf *ob, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (int pass = 0; pass < 2; pass++) {
		size_t room = ob->cap - ob->len;

		va_start(ap, fmt);
		n = vsnprintf(ob->buf ? ob->buf + ob->len : NULL, ob->buf ? room + 1 : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (ob->buf && (size_t)n <= room) {
			ob->len += n;
			return;
		}
		if (!outbuf__grow(ob, n + 1))
			return;
	}
}
