// SPDX-License-Identifier: GPL-2.0-only
/* Opening cgroups and pointing stat's counters at them (PERF_FLAG_PID_CGROUP). */
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stat/cgroup.h"

/* perf's choice: the v1 hierarchy with the perf_event controller, else the v2 one. */
static int find_mount(struct stat_cgroups *cg)
{
	char v2[PATH_MAX] = "";
	struct mntent *m;
	FILE *f;

	if (cg->mnt[0])
		return 0;
	f = setmntent("/proc/self/mounts", "re");
	if (!f)
		return -errno;
	while ((m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "cgroup") && hasmntopt(m, "perf_event")) {
			snprintf(cg->mnt, sizeof(cg->mnt), "%s", m->mnt_dir);
			break;
		}
		if (!strcmp(m->mnt_type, "cgroup2") && !v2[0])
			snprintf(v2, sizeof(v2), "%s", m->mnt_dir);
	}
	endmntent(f);
	if (!cg->mnt[0] && v2[0])
		snprintf(cg->mnt, sizeof(cg->mnt), "%s", v2);
	return cg->mnt[0] ? 0 : -ENOENT;
}

/* The table index of cgroup `name`, opening it the first time. Index or -errno. */
static int cgroup_get(struct stat_cgroups *cg, const char *name, size_t len)
{
	struct stat_cgroup *v;
	char *path = cg->path;
	int err, fd;

	for (int i = 0; i < cg->nr; i++)
		if (strlen(cg->v[i].name) == len && !strncmp(cg->v[i].name, name, len))
			return i;
	err = find_mount(cg);
	snprintf(path, sizeof(cg->path), "%s/%.*s", err ? "/sys/fs/cgroup" : cg->mnt, (int)len,
		 name);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	v = realloc(cg->v, (cg->nr + 1) * sizeof(*v));
	if (!v) {
		close(fd);
		return -ENOMEM;
	}
	cg->v = v;
	v[cg->nr].name = strndup(name, len);
	v[cg->nr].fd = fd;
	if (!v[cg->nr].name) {
		close(fd);
		return -ENOMEM;
	}
	return cg->nr++;
}

const char *stat_cgroups__path(const struct stat_cgroups *cg)
{
	return cg->path;
}

static struct ember_evsel *nth(struct ember_evlist *evlist, int n)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos)
		if (n-- == 0)
			return pos;
	return NULL;
}

int stat_cgroups__assign(struct stat_cgroups *cg, struct ember_evlist *evlist, const char *list,
			 int nr_before)
{
	const char *p = list;
	int first = cg->nr_assigned, err;

	if (nr_before <= 0)
		return -ENOENT;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len) {
			struct ember_evsel *evsel = cg->nr_assigned < nr_before ?
							    nth(evlist, cg->nr_assigned) : NULL;
			int idx;

			if (!evsel)
				return -E2BIG;
			idx = cgroup_get(cg, p, len);
			if (idx < 0)
				return idx;
			err = ember_evsel__set_cgroup(evsel, cg->v[idx].fd);
			if (err)
				return err;
		}
		cg->nr_assigned++;
		if (!comma)
			break;
		p = comma + 1;
	}
	/* As perf: one cgroup for the first -G covers every event given so far. */
	if (cg->nr_assigned == 1 && first == 0) {
		struct ember_evsel *lead = nth(evlist, 0), *pos;
		int idx = stat_cgroups__idx_of(cg, lead);

		if (idx < 0)
			return 0;
		for (pos = ember_evlist__next(evlist, lead); pos; pos = ember_evlist__next(evlist, pos)) {
			if (ember_evsel__idx(pos) >= nr_before)
				break;
			err = ember_evsel__set_cgroup(pos, cg->v[idx].fd);
			if (err)
				return err;
		}
	}
	return 0;
}

int stat_cgroups__expand(struct stat_cgroups *cg, struct ember_evlist *evlist, const char *list)
{
	struct ember_evsel *last = nth(evlist, ember_evlist__nr_entries(evlist) - 1), *pos;
	const char *p = list;
	bool first = true;
	int err;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int idx = cgroup_get(cg, len ? p : "/", len ? len : 1);

		if (idx < 0)
			return idx;
		/* The events themselves take the first cgroup; copies of them the others. */
		ember_evlist__for_each(evlist, pos) {
			struct ember_evsel *ev = pos;

			if (!first) {
				ev = ember_evsel__clone(pos);
				if (!ev)
					return -ENOMEM;
				ember_evlist__add(evlist, ev);
			}
			err = ember_evsel__set_cgroup(ev, cg->v[idx].fd);
			if (err)
				return err;
			if (pos == last)
				break;
		}
		first = false;
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

int stat_cgroups__idx_of(const struct stat_cgroups *cg, const struct ember_evsel *evsel)
{
	int fd = evsel ? ember_evsel__cgroup_fd(evsel) : -1;

	if (fd < 0)
		return -1;
	for (int i = 0; i < cg->nr; i++)
		if (cg->v[i].fd == fd)
			return i;
	return -1;
}

void stat_cgroups__exit(struct stat_cgroups *cg)
{
	for (int i = 0; i < cg->nr; i++) {
		free(cg->v[i].name);
		close(cg->v[i].fd);
	}
	free(cg->v);
	memset(cg, 0, sizeof(*cg));
}
