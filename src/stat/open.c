// SPDX-License-Identifier: GPL-2.0-only
/* Opening counters as perf stat does, closing them in the background. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "stat/events.h"
#include "stat/open.h"

/* Open counters as perf stat does: attrs, unsupported events, the :u fallback, errors. */

static void configure(struct ember_evsel *evsel, const struct stat_open_opts *opts)
{
	struct perf_event_attr *attr = ember_evsel__attr(evsel);
	bool leader = ember_evsel__is_group_leader(evsel);

	attr->read_format = opts->scale ? PERF_FORMAT_TOTAL_TIME_ENABLED |
					  PERF_FORMAT_TOTAL_TIME_RUNNING : 0;
	attr->inherit = opts->inherit;
	attr->sample_period = 0;
	attr->sample_type = 0;
	/* Leaders start disabled; members run whenever their leader does. */
	attr->disabled = leader;
	attr->enable_on_exec = leader && opts->enable_on_exec;
}

/*
 * perf's fallback for a refused event when only user space may be
 * measured: exclude the kernel and hypervisor and say so in the name.
 * Returns true when the evsel changed and is worth another try.
 */
static bool fallback_user_only(struct ember_evsel *evsel, int err, int verbose)
{
	const struct perf_event_attr *attr = ember_evsel__attr(evsel);
	int level;

	if ((err != -EACCES && err != -EPERM) || attr->exclude_kernel || attr->exclude_user)
		return false;
	level = ember_event__paranoid();
	if (level <= 1 || ember_evsel__exclude_kernel(evsel))
		return false;
	stat_evsel__refresh(evsel);
	if (verbose)
		fprintf(stderr, "kernel.perf_event_paranoid=%d, trying to fall back to excluding "
			"kernel and hypervisor samples\n", level);
	return true;
}

/* The errnos perf stat reads as "this machine has no such event". */
static bool is_unsupported(int err)
{
	return err == -EINVAL || err == -ENOSYS || err == -ENOENT || err == -EOPNOTSUPP ||
	       err == -ENXIO || err == -ENODEV;
}

/*
 * --filter: set on every fd here rather than by the library's open, so
 * that a filter the kernel refuses fails the measurement (as perf's does)
 * instead of making the event look unsupported.
 */
static int open_one(struct ember_evsel *evsel)
{
	const char *given = ember_evsel__filter(evsel);
	char *filter = given ? strdup(given) : NULL;
	int err;

	if (given && !filter)
		return -ENOMEM;
	/* the library's open would set it, and a refusal look like a missing event */
	ember_evsel__set_filter(evsel, NULL);
	err = ember_evsel__open(evsel, NULL, NULL);
	ember_evsel__set_filter(evsel, filter);
	if (!err && filter) {
		err = ember_evsel__apply_filter(evsel, filter);
		if (err) {
			fprintf(stderr, "ember stat: cannot set filter \"%s\" on event %s: %s\n",
				filter, ember_evsel__name(evsel), strerror(-err));
			err = -EBADMSG;
		}
	}
	free(filter);
	return err;
}

int stat_open__counters(struct ember_evlist *evlist, const struct stat_open_opts *opts,
			int verbose)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos)
		configure(pos, opts);

	ember_evlist__for_each(evlist, pos) {
		struct stat_evsel *se = stat_evsel(pos);
		char msg[512];
		int err;

		/* duration_time and friends are counted by ember itself. */
		if (se->tool != EMBER_TOOL_NONE)
			continue;
		/* A group whose leader is missing is missing as a whole. */
		if (!ember_evsel__is_group_leader(pos) &&
		    !stat_evsel(ember_evsel__leader(pos))->supported) {
			se->supported = false;
			continue;
		}
		se->supported = true;
		err = open_one(pos);
		if (err == -EBADMSG) {
			/* The filter was refused: already said. */
			ember_evlist__close(evlist);
			return err;
		}
		if (err) {
			struct perf_event_attr attr = *ember_evsel__attr(pos);
			char *name = strdup(ember_evsel__name(pos));
			int first_err = err;

			if (name && fallback_user_only(pos, err, verbose)) {
				err = open_one(pos);
				/* Still refused: report the event as asked for. */
				if (err && !is_unsupported(err)) {
					ember_evsel__set_name(pos, name);
					*ember_evsel__attr(pos) = attr;
					stat_evsel__refresh(pos);
					err = first_err;
				}
			}
			free(name);
		}
		if (!err)
			continue;
		if (is_unsupported(err)) {
			if (verbose)
				fprintf(stderr, "%s event is not supported by the kernel.\n",
					ember_evsel__name(pos));
			se->supported = false;
			continue;
		}
		fprintf(stderr, "ember stat: cannot open event '%s': %s\n", ember_evsel__name(pos),
			ember_evsel__strerror_open(pos, err, msg, sizeof(msg)));
		ember_evlist__close(evlist);
		return err;
	}
	return 0;
}

/* Releasing tracepoint counters in a detached process, so ember exits without the RCU waits. */

static int bury_fd(struct stat_graveyard *g, int fd)
{
	if (g->nr == g->alloc) {
		int alloc = g->alloc ? g->alloc * 2 : 256;
		int *fds = realloc(g->fds, alloc * sizeof(*fds));

		if (!fds)
			return -1;
		g->fds = fds;
		g->alloc = alloc;
	}
	g->fds[g->nr++] = fd;
	return 0;
}

void stat_graveyard__bury(struct stat_graveyard *g, struct ember_evlist *evlist)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos) {
		if (ember_evsel__attr(pos)->type != PERF_TYPE_TRACEPOINT)
			continue;
		ember_evsel__disable(pos);
		for (int c = 0; c < ember_evsel__nr_cpus(pos); c++) {
			for (int t = 0; t < ember_evsel__nr_threads(pos); t++) {
				int fd = ember_evsel__fd(pos, c, t);

				/* Taken out of the evsel, so its close below leaves it open. */
				if (fd >= 0 && bury_fd(g, fd) == 0)
					ember_evsel__take_fd(pos, c, t);
			}
		}
	}
	ember_evlist__close(evlist);
}

static bool is_buried(const struct stat_graveyard *g, int fd)
{
	for (int i = 0; i < g->nr; i++)
		if (g->fds[i] == fd)
			return true;
	return false;
}

/* In the detached child: keep only the buried fds and the pipe, so no caller waits on us. */
static void keep_only(const struct stat_graveyard *g, int keep)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	int *fds = malloc(sizeof(int) * 65536), nr = 0;
	struct dirent *d;
	DIR *dir;

	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	dir = opendir("/proc/self/fd");
	if (!dir || !fds) {
		free(fds);
		if (dir)
			closedir(dir);
		return;
	}
	while ((d = readdir(dir)) != NULL && nr < 65536) {
		int fd = atoi(d->d_name);

		if (d->d_name[0] != '.' && fd > 2 && fd != dirfd(dir))
			fds[nr++] = fd;
	}
	closedir(dir);
	for (int i = 0; i < nr; i++)
		if (fds[i] != keep && !is_buried(g, fds[i]))
			close(fds[i]);
	free(fds);
}

static void __attribute__((noreturn)) closer(const struct stat_graveyard *g, int go[2])
{
	char c;

	/* Detach: the intermediate child exits, init (or a subreaper) reaps us. */
	if (fork() != 0)
		_exit(0);
	setsid();
	close(go[1]);
	keep_only(g, go[0]);
	/* Wait until ember dropped its references, so ours are the last, slow ones. */
	while (read(go[0], &c, 1) > 0)
		;
	for (int i = 0; i < g->nr; i++)
		close(g->fds[i]);
	_exit(0);
}

void stat_graveyard__release(struct stat_graveyard *g)
{
	int go[2] = { -1, -1 };

	if (g->nr && pipe2(go, O_CLOEXEC) == 0) {
		pid_t pid = fork();

		if (pid == 0)
			closer(g, go);
		close(go[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	} else {
		go[1] = -1;
	}
	for (int i = 0; i < g->nr; i++)
		close(g->fds[i]);
	if (go[1] >= 0)
		close(go[1]);
	free(g->fds);
	g->fds = NULL;
	g->nr = g->alloc = 0;
}
