/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Counting per cgroup as perf stat -G and --for-each-cgroup do: each
 * counter opened on a cgroup directory's fd with PERF_FLAG_PID_CGROUP
 * (cpu-wide, so -a or -C), on the perf_event v1 hierarchy when mounted,
 * else on cgroup v2. The table owns the names and fds.
 */
#ifndef EMBER_STAT_CGROUP_H
#define EMBER_STAT_CGROUP_H

#include <limits.h>
#include <ember/event.h>

struct stat_cgroup {
	char *name;		/* as given: "/" is the root */
	int fd;			/* the cgroup directory, O_RDONLY */
};

/* One -G option: its list and how many -e specs came before it. */
struct stat_cgroup_opt {
	const char *list;
	int nr_specs;
};

struct stat_cgroups {
	struct stat_cgroup *v;
	int nr;
	int nr_assigned;		/* perf's count of -G names so far, empty ones too */
	char mnt[PATH_MAX];		/* the cgroup mount, "" until looked up */
	char path[PATH_MAX + 256];	/* the last cgroup directory tried */
};

/*
 * -G: give the events that existed when the option came (nr_before of
 * them) the cgroups of `list` in turn, an empty name skipping one; a
 * single name goes to all of them. Returns 0, -E2BIG when the list names
 * more cgroups than there are events, -ENOENT when no event came before,
 * or -errno from opening the cgroup (its path: stat_cgroups__path()).
 */
int stat_cgroups__assign(struct stat_cgroups *cg, struct ember_evlist *evlist, const char *list,
			 int nr_before);
/* --for-each-cgroup: every event once per cgroup of `list`, cgroup by cgroup. 0 or -errno. */
int stat_cgroups__expand(struct stat_cgroups *cg, struct ember_evlist *evlist, const char *list);
/* The index in the table of the cgroup an event counts in, or -1. */
int stat_cgroups__idx_of(const struct stat_cgroups *cg, const struct ember_evsel *evsel);
/* The last path tried (for "no access to cgroup PATH"). */
const char *stat_cgroups__path(const struct stat_cgroups *cg);
void stat_cgroups__exit(struct stat_cgroups *cg);

#endif
