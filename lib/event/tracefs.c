// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* tracefs: locate (or mount) it, walk its events, read tracepoint ids. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/log.h"
#include "event/tracefs.h"

#define TRACEFS_DEFAULT "/sys/kernel/tracing"

/* 0 when dir/events is a directory we may read, else -errno. */
static int has_events(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/events", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return access(path, R_OK | X_OK) ? -errno : 0;
}

static int copy_path(char *buf, size_t size, const char *dir, const char *suffix)
{
	if (snprintf(buf, size, "%s%s", dir, suffix) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * The first mount of fstype whose dir (plus suffix) has events/: 0, or
 * -EACCES when there is one we may not read (buf names it), or -ENOENT.
 */
static int find_mount(const char *fstype, const char *suffix, char *buf, size_t size)
{
	FILE *fp = setmntent("/proc/mounts", "r");
	struct mntent *m;
	int ret = -ENOENT;

	if (!fp)
		return -errno;
	while ((m = getmntent(fp))) {
		int err;

		if (strcmp(m->mnt_type, fstype) || copy_path(buf, size, m->mnt_dir, suffix))
			continue;
		err = has_events(buf);
		if (!err || err == -EACCES || err == -EPERM) {
			ret = err;
			break;
		}
	}
	endmntent(fp);
	return ret;
}

int ember_tracefs__find(char *buf, size_t size)
{
	int err;

	err = find_mount("tracefs", "", buf, size);
	if (err != -ENOENT)
		return err;
	err = find_mount("debugfs", "/tracing", buf, size);
	if (err != -ENOENT)
		return err;
	/* Neither is mounted: mount tracefs where the kernel expects it, as perf does. */
	if (copy_path(buf, size, TRACEFS_DEFAULT, ""))
		return -ENAMETOOLONG;
	if (mount("nodev", TRACEFS_DEFAULT, "tracefs", 0, NULL) && errno != EBUSY) {
		err = -errno;
		pr_debug("tracefs: cannot mount %s: %s\n", TRACEFS_DEFAULT, strerror(errno));
		return err;
	}
	return has_events(buf);
}

/* Read the decimal id in <dirfd>/<name>/id. */
static int read_id_at(int dirfd, const char *name, uint64_t *id)
{
	char path[NAME_MAX + 8], buf[32], *end;
	ssize_t n;
	int fd, err;

	if (snprintf(path, sizeof(path), "%s/id", name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	errno = 0;
	*id = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

int tracefs__event_id(const char *root, const char *sys, const char *name, uint64_t *id)
{
	char path[PATH_MAX];
	int fd, err;

	if (snprintf(path, sizeof(path), "%s/events/%s", root, sys) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = read_id_at(fd, name, id);
	close(fd);
	return err;
}

static bool is_dir_entry(int dirfd, const struct dirent *d)
{
	struct stat st;

	if (d->d_name[0] == '.')
		return false;
	if (d->d_type != DT_UNKNOWN)
		return d->d_type == DT_DIR;
	return !fstatat(dirfd, d->d_name, &st, 0) && S_ISDIR(st.st_mode);
}

/* Visit the events of one system directory (sysfd is consumed). */
static int walk_system(int sysfd, const char *sys, const char *evt_glob, int flags,
		       ember_tracefs_event_fn fn, void *arg)
{
	DIR *dir;
	struct dirent *d;
	int ret = 0;

	/* A plain name needs no directory scan: one id read. */
	if (evt_glob && !is_glob(evt_glob, strlen(evt_glob))) {
		uint64_t id = 0;

		if (!read_id_at(sysfd, evt_glob, &id))
			ret = fn(sys, evt_glob, (flags & EMBER_TRACEFS_READ_ID) ? id : 0, arg);
		close(sysfd);
		return ret;
	}
	dir = fdopendir(sysfd);
	if (!dir) {
		close(sysfd);
		return 0;
	}
	while (!ret && (d = readdir(dir))) {
		uint64_t id = 0;
		char path[NAME_MAX + 8];

		if (!is_dir_entry(dirfd(dir), d))
			continue;
		if (evt_glob && !ember_glob_match(evt_glob, d->d_name))
			continue;
		if (flags & EMBER_TRACEFS_READ_ID) {
			if (read_id_at(dirfd(dir), d->d_name, &id))
				continue;
		} else {
			snprintf(path, sizeof(path), "%s/id", d->d_name);
			if (faccessat(dirfd(dir), path, F_OK, 0))
				continue;
		}
		ret = fn(sys, d->d_name, id, arg);
	}
	closedir(dir);
	return ret;
}

static int walk(const char *root, const char *sys_glob, const char *evt_glob, int flags,
		bool systems_only, ember_tracefs_event_fn fn, void *arg)
{
	char path[PATH_MAX];
	DIR *dir;
	struct dirent *d;
	int ret = 0, sysfd;

	if (snprintf(path, sizeof(path), "%s/events", root) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	dir = opendir(path);
	if (!dir)
		return -errno;
	/* A plain system name: open it directly. */
	if (sys_glob && !is_glob(sys_glob, strlen(sys_glob))) {
		sysfd = openat(dirfd(dir), sys_glob, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sysfd >= 0) {
			if (systems_only) {
				close(sysfd);
				ret = fn(sys_glob, NULL, 0, arg);
			} else {
				ret = walk_system(sysfd, sys_glob, evt_glob, flags, fn, arg);
			}
		}
		closedir(dir);
		return ret;
	}
	while (!ret && (d = readdir(dir))) {
		if (!is_dir_entry(dirfd(dir), d))
			continue;
		if (sys_glob && !ember_glob_match(sys_glob, d->d_name))
			continue;
		if (systems_only) {
			ret = fn(d->d_name, NULL, 0, arg);
			continue;
		}
		sysfd = openat(dirfd(dir), d->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sysfd < 0)
			continue;
		ret = walk_system(sysfd, d->d_name, evt_glob, flags, fn, arg);
	}
	closedir(dir);
	return ret;
}

int ember_tracefs__for_each_event(const char *root, const char *sys_glob, const char *evt_glob,
				  int flags, ember_tracefs_event_fn fn, void *arg)
{
	return walk(root, sys_glob, evt_glob, flags, false, fn, arg);
}

int tracefs__for_each_system(const char *root, const char *sys_glob, ember_tracefs_event_fn fn,
			     void *arg)
{
	return walk(root, sys_glob, NULL, 0, true, fn, arg);
}

bool ember_glob_match(const char *pattern, const char *str)
{
	return !fnmatch(pattern, str, 0);
}

bool ember_glob_match_nocase(const char *pattern, const char *str)
{
	return !fnmatch(pattern, str, FNM_CASEFOLD);
}

bool is_glob(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[' || s[i] == '\\')
			return true;
	return false;
}
