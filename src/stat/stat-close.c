// SPDX-License-Identifier: GPL-2.0-only
/* Releasing tracepoint counters in a detached process, so ember exits without the RCU waits. */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include "stat/stat-close.h"

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
