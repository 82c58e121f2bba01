// SPDX-License-Identifier: GPL-2.0-only
/*
 * The four ways perf records: a command it starts (events on the command's
 * pid, one ring buffer per cpu, enabled at its exec), processes or threads
 * that already run (-p/-t), the whole system or some cpus (-a/-C), and any
 * of the last three for the duration of a command.
 */
#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <ember/event.h>
#include "record/err.h"
#include "record/target.h"

/* The uid -u names: a user name or a number. Returns 0 or -ENOENT. */
static int lookup_uid(const char *user, uid_t *uid)
{
	struct passwd *pw = getpwnam(user);
	char *end;
	unsigned long v;

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	errno = 0;
	v = strtoul(user, &end, 10);
	if (errno || end == user || *end)
		return -ENOENT;
	*uid = (uid_t)v;
	return 0;
}

/*
 * perf's -u: every process the user owns when recording starts (but
 * ember itself), as a -p list. Returns 0 or an exit code (message printed).
 */
static int uid_pids(struct record_target *t, struct record_target_opts *o)
{
	size_t len = 0, cap = 0;
	char *list = NULL;
	struct dirent *d;
	uid_t uid;
	DIR *dir;

	if (lookup_uid(o->uid, &uid)) {
		record_err("Invalid User: %s", o->uid);
		return 2;
	}
	dir = opendir("/proc");
	if (!dir) {
		record_err("cannot list the processes in /proc: %s", strerror(errno));
		return 1;
	}
	while ((d = readdir(dir)) != NULL) {
		char path[64];
		struct stat st;
		pid_t pid = (pid_t)atoi(d->d_name);

		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d", (int)pid);
		if (stat(path, &st) || st.st_uid != uid)
			continue;
		if (len + 16 > cap) {
			char *grown = realloc(list, cap = cap ? cap * 2 : 4096);

			if (!grown) {
				closedir(dir);
				free(list);
				record_err("out of memory");
				return 1;
			}
			list = grown;
		}
		len += (size_t)sprintf(list + len, "%s%d", len ? "," : "", (int)pid);
	}
	closedir(dir);
	if (!list) {
		record_err("user %s has no processes to record", o->uid);
		return 1;
	}
	t->uid_pids = list;
	o->pid = list;
	return 0;
}

int record_target__init(struct record_target *t, struct record_target_opts *o, int argc,
			const char **argv)
{
	t->argc = argc;
	t->argv = argv;
	if (o->uid && !o->pid && !o->tid) {
		int err = uid_pids(t, o);

		if (err)
			return err;
	}
	t->forks = argc > 0;
	t->target_none = t->forks && !o->pid && !o->tid && !o->system_wide && !o->cpu_list;
	return 0;
}

int record_target__prepare_workload(struct record_target *t)
{
	int err;

	if (!t->forks)
		return 0;
	err = ember_workload__prepare(&t->wl, t->argv);
	if (err) {
		record_err("cannot start '%s': %s", t->argv[0], strerror(-err));
		return 1;
	}
	t->wl_prepared = true;
	return 0;
}

static int cpu_map_error(const char *list, int err)
{
	if (err == ENODEV)
		record_err("cpu list '%s' names a cpu that is offline or absent", list);
	else if (err == EINVAL)
		record_err("invalid cpu list '%s' (expected a list such as 0,2-3)", list);
	else
		record_err("cannot read the online cpus: %s", strerror(err));
	return err == ENOMEM || !list ? 1 : 2;
}

static int thread_map_error(const char *what, const char *list, int err)
{
	if (err == ESRCH || err == ENOENT)
		record_err("no such %s: %s", what, list);
	else if (err == EINVAL)
		record_err("invalid %s list '%s' (expected numbers such as 1234,5678)", what, list);
	else
		record_err("cannot list the threads of %s %s: %s", what, list, strerror(err));
	return err == EINVAL ? 2 : 1;
}

int record_target__maps(struct record_target *t, struct record_target_opts *o,
			struct ember_evlist *evlist)
{
	bool cpu_wide = o->system_wide || o->cpu_list;

	t->cpus = o->per_thread ? ember_cpu_map__new_any() :
				    ember_cpu_map__new(cpu_wide ? o->cpu_list : NULL);
	if (!t->cpus)
		return cpu_map_error(cpu_wide ? o->cpu_list : NULL, errno);

	errno = 0;
	if (o->pid) {
		t->threads = ember_thread_map__new_pids(o->pid);
		/*
		 * -u: one of the user's processes may exit between the listing
		 * and here (perf's thread_map__new_by_uid() skips it): list again.
		 */
		for (int tries = 0; !t->threads && errno == ESRCH && t->uid_pids && tries < 10;
		     tries++) {
			int ret;

			free(t->uid_pids);
			t->uid_pids = NULL;
			o->pid = NULL;
			ret = uid_pids(t, o);
			if (ret)
				return ret;
			errno = 0;
			t->threads = ember_thread_map__new_pids(o->pid);
		}
	} else if (o->tid)
		t->threads = ember_thread_map__new_tids(o->tid);
	else if (cpu_wide)
		t->threads = ember_thread_map__new_any();
	else
		t->threads = ember_thread_map__new_pid(t->wl.pid);
	if (!t->threads || ember_thread_map__nr(t->threads) == 0) {
		int err = errno ? errno : ESRCH;

		ember_thread_map__put(t->threads);
		t->threads = NULL;
		if (o->pid)
			return thread_map_error("process", o->pid, err);
		if (o->tid)
			return thread_map_error("thread", o->tid, err);
		record_err("out of memory");
		return 1;
	}
	ember_evlist__set_maps(evlist, t->cpus, t->threads);
	return 0;
}

void record_target__exit(struct record_target *t)
{
	ember_cpu_map__put(t->cpus);
	ember_thread_map__put(t->threads);
	t->cpus = NULL;
	t->threads = NULL;
	free(t->uid_pids);
	t->uid_pids = NULL;
}
