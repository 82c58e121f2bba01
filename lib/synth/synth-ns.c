// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The namespaces of tasks (PERF_RECORD_NAMESPACES, perf record --namespaces)
 * and the cgroups that exist (PERF_RECORD_CGROUP, perf record --all-cgroups),
 * synthesized as perf 6.1 does at the start of a recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "synth/synth-int.h"

/* perf's namespace order (NET_NS_INDEX ... CGROUP_NS_INDEX). */
static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
#define NR_NS (sizeof(ns_names) / sizeof(ns_names[0]))

struct synth_namespaces {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	struct {
		uint64_t dev, ino;
	} link_info[NR_NS];
};

int ember_synth__namespaces(struct ember_synth *s, pid_t tgid, pid_t tid)
{
	union synth_buf buf;
	struct synth_namespaces *ev = (struct synth_namespaces *)&buf;
	char path[64];

	memset(ev, 0, sizeof(*ev));
	ev->header.type = PERF_RECORD_NAMESPACES;
	ev->pid = (uint32_t)tgid;
	ev->tid = (uint32_t)tid;
	ev->nr_namespaces = NR_NS;
	for (size_t i = 0; i < NR_NS; i++) {
		struct stat st;

		/* A namespace the kernel lacks (or a task gone) reads as 0/0, as in perf. */
		snprintf(path, sizeof(path), "%d/ns/%s", (int)tid, ns_names[i]);
		if (fstatat(s->proc_fd, path, &st, 0) == 0) {
			ev->link_info[i].dev = st.st_dev;
			ev->link_info[i].ino = st.st_ino;
		}
	}
	return synth__emit(s, &buf, sizeof(*ev));
}

struct synth_cgroup {
	struct perf_event_header header;
	uint64_t id;
	char path[];
};

/* The cgroup id perf uses: the 8-byte kernfs file handle of the directory. */
static int cgroup_id(const char *path, uint64_t *id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h;
	int mount_id;

	h.fh.handle_bytes = sizeof(h.id);
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) < 0)
		return -errno;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

/* nftw() takes no context argument: one walk at a time per thread. */
static __thread struct cgroup_walk {
	struct ember_synth *s;
	size_t mount_len;
	int err;
} *walk;

static int cgroup_dir(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	union synth_buf buf;
	struct synth_cgroup *ev = (struct synth_cgroup *)&buf;
	const char *rel = path + walk->mount_len;
	size_t n;
	int err;

	if (flag != FTW_D)
		return 0;
	if (!*rel)
		rel = "/";
	n = strlen(rel) + 1;
	if (n > PATH_MAX || cgroup_id(path, &ev->id))
		return 0;	/* gone, or not a cgroup file system after all */
	ev->header.type = PERF_RECORD_CGROUP;
	ev->header.misc = 0;
	memcpy(ev->path, rel, n);
	err = synth__emit(walk->s, &buf, sizeof(*ev) + n);
	if (err) {
		walk->err = err;
		return 1;
	}
	return 0;
}

int ember_synth__cgroups(struct ember_synth *s, const char *mount)
{
	struct cgroup_walk w = { .s = s, .mount_len = strlen(mount) };
	int ret;

	while (w.mount_len > 1 && mount[w.mount_len - 1] == '/')
		w.mount_len--;
	walk = &w;
	ret = nftw(mount, cgroup_dir, 16, FTW_PHYS);
	walk = NULL;
	if (w.err)
		return w.err;
	return ret < 0 ? -errno : 0;
}

int ember_synth__cgroup_mount(char *buf, size_t size)
{
	static const char *const tries[] = { "/sys/fs/cgroup/perf_event", "/sys/fs/cgroup/unified",
					     "/sys/fs/cgroup" };
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[4096], v1[PATH_MAX] = "", v2[PATH_MAX] = "";

	/* perf's cgroupfs_find_mountpoint("perf_event"): the v1 controller, else cgroup2. */
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char dev[256], dir[PATH_MAX], type[64], opts[1024];

			if (sscanf(line, "%255s %4095s %63s %1023s", dev, dir, type, opts) != 4)
				continue;
			if (!strcmp(type, "cgroup2") && !*v2)
				snprintf(v2, sizeof(v2), "%s", dir);
			else if (!strcmp(type, "cgroup") && !*v1 && strstr(opts, "perf_event"))
				snprintf(v1, sizeof(v1), "%s", dir);
		}
		fclose(f);
	}
	if (*v1 || *v2) {
		snprintf(buf, size, "%s", *v1 ? v1 : v2);
		return 0;
	}
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		if (access(tries[i], R_OK) == 0) {
			snprintf(buf, size, "%s", tries[i]);
			return 0;
		}
	}
	return -ENOENT;
}
