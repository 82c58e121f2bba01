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
static int uid_pids(struct record *rec)
{
	struct record_opts *o = &rec->opts;
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
	o->uid_pids = list;
	o->pid = list;
	return 0;
}

int record_target__init(struct record *rec)
{
	struct record_opts *o = &rec->opts;

	if (o->uid && !o->pid && !o->tid) {
		int err = uid_pids(rec);

		if (err)
			return err;
	}
	rec->forks = rec->argc > 0;
	rec->target_none = rec->forks && !o->pid && !o->tid && !o->system_wide && !o->cpu_list;
	return 0;
}

int record_target__prepare_workload(struct record *rec)
{
	int err;

	if (!rec->forks)
		return 0;
	err = ember_workload__prepare(&rec->wl, rec->argv);
	if (err) {
		record_err("cannot start '%s': %s", rec->argv[0], strerror(-err));
		return 1;
	}
	rec->wl_prepared = true;
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

int record_target__maps(struct record *rec)
{
	const struct record_opts *o = &rec->opts;
	bool cpu_wide = o->system_wide || o->cpu_list;

	rec->cpus = o->per_thread ? ember_cpu_map__new_any() :
				    ember_cpu_map__new(cpu_wide ? o->cpu_list : NULL);
	if (!rec->cpus)
		return cpu_map_error(cpu_wide ? o->cpu_list : NULL, errno);

	errno = 0;
	if (o->pid) {
		rec->threads = ember_thread_map__new_pids(o->pid);
		/*
		 * -u: one of the user's processes may exit between the listing
		 * and here (perf's thread_map__new_by_uid() skips it): list again.
		 */
		for (int tries = 0; !rec->threads && errno == ESRCH && o->uid_pids && tries < 10;
		     tries++) {
			int ret;

			free(rec->opts.uid_pids);
			rec->opts.uid_pids = NULL;
			rec->opts.pid = NULL;
			ret = uid_pids(rec);
			if (ret)
				return ret;
			errno = 0;
			rec->threads = ember_thread_map__new_pids(o->pid);
		}
	} else if (o->tid)
		rec->threads = ember_thread_map__new_tids(o->tid);
	else if (cpu_wide)
		rec->threads = ember_thread_map__new_any();
	else
		rec->threads = ember_thread_map__new_pid(rec->wl.pid);
	if (!rec->threads || ember_thread_map__nr(rec->threads) == 0) {
		int err = errno ? errno : ESRCH;

		ember_thread_map__put(rec->threads);
		rec->threads = NULL;
		if (o->pid)
			return thread_map_error("process", o->pid, err);
		if (o->tid)
			return thread_map_error("thread", o->tid, err);
		record_err("out of memory");
		return 1;
	}
	ember_evlist__set_maps(rec->evlist, rec->cpus, rec->threads);
	return 0;
}

void record_target__exit(struct record *rec)
{
	ember_cpu_map__put(rec->cpus);
	ember_thread_map__put(rec->threads);
	rec->cpus = NULL;
	rec->threads = NULL;
	free(rec->opts.uid_pids);
	rec->opts.uid_pids = NULL;
}
