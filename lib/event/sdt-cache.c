// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The SDT events in perf's build-id cache, read the way perf list reads them. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "event/sdt-cache.h"

#define BUILD_ID_MAX 64	/* hex digits; SHA-1 build-ids have 40 */

const char *sdt_cache__dir(char *buf, size_t size)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	int n;

	if (dir && *dir)
		n = snprintf(buf, size, "%s", dir);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.debug", home);
	else
		return NULL;
	return n > 0 && (size_t)n < size ? buf : NULL;
}

/* Whether s is a non-empty run of hex digits of at most max. */
static bool is_hex(const char *s, size_t max)
{
	size_t len = strlen(s);

	if (!len || len > max)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/*
 * The binary a cache link stands for: the link reads "../..<path>/<build-id>"
 * (perf's build_id_cache__origname()); "[kernel.kallsyms]" keeps no '/'.
 */
static char *orig_path(const char *target)
{
	const size_t offs = 5;	/* strlen("../..") */
	const char *slash = strrchr(target, '/');
	size_t skip = offs;

	if (!slash || slash <= target + offs || strncmp(target, "../..", offs))
		return NULL;
	if (target[offs + 1] == '[')
		skip++;
	return strndup(target + skip, slash - target - skip);
}

/* Read "%group:event=..." lines of one probes file. */
static int read_probes(FILE *fp, const char *build_id, const char *path, ember_sdt_fn fn,
		       void *arg)
{
	char line[4096];
	int ret = 0;

	while (!ret && fgets(line, sizeof(line), fp)) {
		char *colon, *eq;

		if (line[0] != '%')
			continue;
		colon = strchr(line + 1, ':');
		if (!colon)
			continue;
		eq = strpbrk(colon + 1, "=\n");
		*colon = '\0';
		if (eq)
			*eq = '\0';
		if (line[1] && colon[1])
			ret = fn(line + 1, colon + 1, build_id, path, arg);
	}
	return ret;
}

/* One .build-id/<xx>/<rest> link: its probes file, if the cache entry is whole. */
static int visit_link(int linkdir, const char *xx, const char *rest, ember_sdt_fn fn, void *arg)
{
	char target[PATH_MAX], probes[PATH_MAX + 8], build_id[2 * NAME_MAX + 2];
	ssize_t n = readlinkat(linkdir, rest, target, sizeof(target) - 1);
	char *path;
	FILE *fp;
	int fd, ret;

	if (n <= 0)
		return 0;
	target[n] = '\0';
	snprintf(build_id, sizeof(build_id), "%s%s", xx, rest);
	snprintf(probes, sizeof(probes), "%s/probes", target);
	fd = openat(linkdir, probes, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	fp = fdopen(fd, "r");
	if (!fp) {
		close(fd);
		return 0;
	}
	path = orig_path(target);
	ret = read_probes(fp, build_id, path, fn, arg);
	free(path);
	fclose(fp);
	return ret;
}

int ember_sdt_cache__for_each(const char *dir, ember_sdt_fn fn, void *arg)
{
	char buf[PATH_MAX], top[PATH_MAX + 16];
	DIR *ids;
	struct dirent *d;
	int ret = 0;

	if (!dir && !(dir = sdt_cache__dir(buf, sizeof(buf))))
		return -ENOENT;
	snprintf(top, sizeof(top), "%s/.build-id", dir);
	ids = opendir(top);
	if (!ids)
		return -errno;
	while (!ret && (d = readdir(ids))) {
		int fd;
		DIR *sub;
		struct dirent *e;

		if (!is_hex(d->d_name, 2) || strlen(d->d_name) != 2)
			continue;
		fd = openat(dirfd(ids), d->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		sub = fdopendir(fd);
		if (!sub) {
			close(fd);
			continue;
		}
		while (!ret && (e = readdir(sub)))
			if (is_hex(e->d_name, BUILD_ID_MAX - 2))
				ret = visit_link(dirfd(sub), d->d_name, e->d_name, fn, arg);
		closedir(sub);
	}
	closedir(ids);
	return ret;
}
