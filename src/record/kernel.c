// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel MMAP of a recording without the kallsyms scan.
 *
 * perf (and ember_synth__kernel) find _etext by reading /proc/kallsyms to
 * near its end: 5 MB that the kernel formats symbol by symbol, ~70 ms here,
 * nine tenths of what `ember record true` costs. On x86_64 the kernel
 * already publishes that range: /proc/iomem's "Kernel code" resource is
 * [__pa(_text), __pa(_etext) - 1] (arch/x86/kernel/setup.c), so its length
 * is _etext - _text, and _text itself is among the first lines of
 * kallsyms. The record written is byte for byte the library's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <ember/perf-data.h>
#include "record/kernel.h"

#define KERNEL_MMAP_NAME "[kernel.kallsyms]_text"
/* How much of kallsyms to read looking for _text (it is within the first lines). */
#define KALLSYMS_HEAD (64 * 1024)

int record_kernel__parse_iomem(const char *buf, size_t len, uint64_t *start, uint64_t *end)
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

int record_kernel__find_symbol(const char *buf, size_t len, const char *name, uint64_t *addr)
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

/* _text and its length from the two cheap sources; -ENOENT when either says nothing useful. */
static int kernel_range(struct ember_synth *s, uint64_t *text, uint64_t *len)
{
#ifdef __x86_64__
	uint64_t pstart, pend;
	ssize_t n;
	char *buf = malloc(KALLSYMS_HEAD);
	int err = -ENOENT;

	if (!buf)
		return -ENOMEM;
	n = read_head(s->proc_fd, "iomem", buf, KALLSYMS_HEAD);
	/* Without CAP_SYS_ADMIN the ranges read as zeros. */
	if (n <= 0 || record_kernel__parse_iomem(buf, (size_t)n, &pstart, &pend) ||
	    !pstart || pend < pstart)
		goto out;
	n = read_head(s->proc_fd, "kallsyms", buf, KALLSYMS_HEAD);
	/* kptr_restrict shows zero addresses: the slow path explains it. */
	if (n <= 0 || record_kernel__find_symbol(buf, (size_t)n, "_text", text) || !*text)
		goto out;
	*len = pend + 1 - pstart;
	err = 0;
out:
	free(buf);
	return err;
#else
	return -ENOENT;
#endif
}

static int emit_kernel_mmap(struct ember_synth *s, uint64_t text, uint64_t len)
{
	uint64_t buf[(sizeof(struct ember_record_mmap) + 32 + EMBER_SYNTH_ID_MAX) / 8] = { 0 };
	struct ember_record_mmap *m = (struct ember_record_mmap *)buf;
	size_t name = (sizeof(KERNEL_MMAP_NAME) + 7) & ~(size_t)7;
	size_t size = sizeof(*m) + name;

	m->header.type = PERF_RECORD_MMAP;
	m->header.misc = PERF_RECORD_MISC_KERNEL;
	m->pid = (uint32_t)-1;
	m->tid = 0;
	m->start = text;
	m->len = len;
	m->pgoff = text;
	memcpy(m->filename, KERNEL_MMAP_NAME, sizeof(KERNEL_MMAP_NAME));
	memcpy((char *)buf + size, s->id_sample, s->id_size);
	size += s->id_size;
	m->header.size = (uint16_t)size;
	return s->opts.emit(s->opts.ctx, &m->header);
}

int record_kernel__synthesize(struct ember_synth *s)
{
	char dir[PATH_MAX];
	const char *modules_dir = NULL;
	struct utsname uts;
	uint64_t text, len;
	int fd, err;

	if (kernel_range(s, &text, &len))
		return ember_synth__kernel(s);
	err = emit_kernel_mmap(s, text, len);
	if (err)
		return err < 0 ? err : -ECANCELED;
	fd = openat(s->proc_fd, "modules", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (uname(&uts) == 0) {
		snprintf(dir, sizeof(dir), "/lib/modules/%s", uts.release);
		modules_dir = dir;
	}
	err = ember_synth__modules_from(s, fd, modules_dir);
	close(fd);
	return err;
}
