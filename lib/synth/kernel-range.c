// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel text range without the kallsyms scan.
 *
 * perf finds _etext by reading /proc/kallsyms to near its end: 5 MB that
 * the kernel formats symbol by symbol, ~70 ms here, nine tenths of what
 * `ember record true` costs. On x86_64 the kernel already publishes that
 * range: /proc/iomem's "Kernel code" resource is [__pa(_text),
 * __pa(_etext) - 1] (arch/x86/kernel/setup.c), so its length is
 * _etext - _text, and _text itself is among the first lines of kallsyms.
 * ember_synth__kernel() writes the same record from either.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "synth/synth-int.h"

#ifdef __x86_64__
/* How much of kallsyms to read looking for _text (it is within the first lines). */
#define KALLSYMS_HEAD (64 * 1024)

/* The "Kernel code" line of /proc/iomem: its physical start and inclusive end, or -ENOENT. */
static int parse_iomem(const char *buf, size_t len, uint64_t *start, uint64_t *end)
{
	const char *p = buf, *stop = buf + len;

	while (p < stop) {
		const char *nl = memchr(p, '\n', (size_t)(stop - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(stop - p);
		char line[256];
		unsigned long long s, e;
		int used = 0;

		if (n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (sscanf(line, " %llx-%llx : %n", &s, &e, &used) == 2 && used &&
			    !strcmp(line + used, "Kernel code")) {
				*start = s;
				*end = e;
				return 0;
			}
		}
		p += n + 1;
	}
	return -ENOENT;
}

/* The address of `name` in the head of a kallsyms text (whole lines): 0, or -ENOENT. */
static int find_symbol(const char *buf, size_t len, const char *name, uint64_t *addr)
{
	const char *p = buf, *stop = buf + len;
	size_t nlen = strlen(name);

	while (p < stop) {
		const char *nl = memchr(p, '\n', (size_t)(stop - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(stop - p);
		char line[512];
		unsigned long long a;
		char type;
		int used = 0;

		if (!nl)
			break;	/* a cut line at the end of the head */
		if (n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (sscanf(line, "%llx %c %n", &a, &type, &used) == 2 && used &&
			    strlen(line + used) == nlen && !memcmp(line + used, name, nlen)) {
				*addr = a;
				return 0;
			}
		}
		p += n + 1;
	}
	return -ENOENT;
}

/* Read up to size - 1 bytes of a proc file into buf, NUL-terminated: its length or -errno. */
static ssize_t read_head(int dirfd, const char *path, char *buf, size_t size)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

int synth_kernel__range(struct ember_synth *s, uint64_t *text, uint64_t *len)
{
	uint64_t pstart, pend;
	ssize_t n;
	char *buf = malloc(KALLSYMS_HEAD);
	int err = -ENOENT;

	if (!buf)
		return -ENOMEM;
	n = read_head(s->proc_fd, "iomem", buf, KALLSYMS_HEAD);
	/* Without CAP_SYS_ADMIN the ranges read as zeros. */
	if (n <= 0 || parse_iomem(buf, (size_t)n, &pstart, &pend) ||
	    !pstart || pend < pstart)
		goto out;
	n = read_head(s->proc_fd, "kallsyms", buf, KALLSYMS_HEAD);
	/* kptr_restrict shows zero addresses: the slow path explains it. */
	if (n <= 0 || find_symbol(buf, (size_t)n, "_text", text) || !*text)
		goto out;
	*len = pend + 1 - pstart;
	err = 0;
out:
	free(buf);
	return err;
}
#else
int synth_kernel__range(struct ember_synth *s, uint64_t *text, uint64_t *len)
{
	return -ENOENT;
}
#endif
