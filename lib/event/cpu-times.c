// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Each cpu's time split from /proc/stat: the "cpuN user nice system idle
 * iowait irq softirq steal guest guest_nice" lines, in USER_HZ ticks. One
 * read costs a syscall and a few hundred bytes per cpu, cheap enough for a
 * monitor polling every 100 ms.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/event.h>

/* The number at *p (skipping blanks), advancing p; false at the line's end or a non-digit. */
static bool next_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;

	while (s < end && *s == ' ')
		s++;
	if (s == end || *s < '0' || *s > '9')
		return false;
	*v = 0;
	while (s < end && *s >= '0' && *s <= '9')
		*v = *v * 10 + (uint64_t)(*s++ - '0');
	*p = s;
	return true;
}

/* One "cpuN ..." line [s, end) into t: 0, or -EINVAL. */
static int parse_line(const char *s, const char *end, struct ember_cpu_time *t)
{
	uint64_t *f[] = { &t->user, &t->nice, &t->system, &t->idle,
			  &t->iowait, &t->irq, &t->softirq, &t->steal };
	uint64_t cpu;
	size_t i;

	s += 3;
	if (!next_u64(&s, end, &cpu) || cpu > 1u << 20)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	t->cpu = (int)cpu;
	/* user to idle are there since Linux 2.4; the later columns may be missing */
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!next_u64(&s, end, f[i]))
			break;
	return i < 4 ? -EINVAL : 0;
}

int ember_cpu_times__parse(const char *text, size_t len, struct ember_cpu_time *t, int max)
{
	const char *s = text, *end = text + len;
	int n = 0;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl : end;

		if (eol - s > 3 && !memcmp(s, "cpu", 3) && s[3] >= '0' && s[3] <= '9' && n < max) {
			int err = parse_line(s, eol, &t[n]);

			if (err)
				return err;
			n++;
		}
		s = eol + 1;
	}
	return n;
}

int ember_cpu_times__read(int fd, struct ember_cpu_time *t, int max)
{
	/* ~150 bytes a cpu line, plus the rest of the file (interrupt counts can be long) */
	size_t size = 16384 + (size_t)(max > 0 ? max : 0) * 192, len = 0;
	int own = fd < 0, ret;
	char *buf = malloc(size);

	if (!buf)
		return -ENOMEM;
	if (own)
		fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	for (;;) {
		ssize_t r = pread(fd, buf + len, size - len, (off_t)len);

		if (r < 0) {
			ret = -errno;
			goto out;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (len == size) {
			/* the cpu lines come first: a full buffer holds them all */
			break;
		}
	}
	ret = ember_cpu_times__parse(buf, len, t, max);
out:
	if (own && fd >= 0)
		close(fd);
	free(buf);
	return ret;
}
