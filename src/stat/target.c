// SPDX-License-Identifier: GPL-2.0-only
/* What ember stat counts on, and the cpus' topology slots. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/event.h>
#include "stat/target.h"

/* ember stat's target: cpu and thread maps, thread names, and the header's wording. */

/* The text after "Performance counter stats for ", as perf 6.1 words it. */
static char *describe(const struct stat_config *config, int argc, const char **argv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (config->system_wide) {
		fprintf(f, "'system wide'");
	} else if (config->cpu_list) {
		fprintf(f, "'CPU(s) %s'", config->cpu_list);
	} else if (config->pid) {
		fprintf(f, "process id '%s'", config->pid);
	} else if (config->tid) {
		fprintf(f, "thread id '%s'", config->tid);
	} else {
		fprintf(f, "'%s", argc ? argv[0] : "pipe");
		for (int i = 1; i < argc; i++)
			fprintf(f, " %s", argv[i]);
		fprintf(f, "'");
	}
	if (fclose(f))
		return NULL;
	return buf;
}

static void read_comm(pid_t tid, char **out)
{
	char path[64], comm[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	*out = strdup(comm);
}

static int read_comms(struct stat_target *t)
{
	int nr = ember_thread_map__nr(t->threads);

	t->comms = calloc(nr ? nr : 1, sizeof(*t->comms));
	if (!t->comms)
		return -ENOMEM;
	t->nr_comms = nr;
	for (int i = 0; i < nr; i++) {
		pid_t tid = ember_thread_map__pid(t->threads, i);

		if (tid > 0)
			read_comm(tid, &t->comms[i]);
	}
	return 0;
}

static int bad_task(const char *kind, const char *list, int err)
{
	if (err == ESRCH || err == ENOENT)
		fprintf(stderr, "ember stat: no such %s: %s (it has exited, or never existed)\n",
			kind, list);
	else if (err == EINVAL)
		fprintf(stderr, "ember stat: invalid %s list '%s': expected numbers like 42,43\n",
			kind, list);
	else
		fprintf(stderr, "ember stat: cannot read the threads of %s %s: %s\n", kind, list,
			strerror(err));
	return -err;
}

static int is_number(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/*
 * -a --per-thread: every thread of the system now, from /proc. Threads
 * that end before their counters open are skipped by the open.
 */
static struct ember_thread_map *all_threads(void)
{
	struct ember_thread_map *map = NULL;
	DIR *proc = opendir("/proc");
	struct dirent *de;
	pid_t *tids = NULL;
	int nr = 0, alloc = 0;

	if (!proc)
		return NULL;
	while ((de = readdir(proc))) {
		char path[300];
		struct dirent *te;
		DIR *task;

		if (!is_number(de->d_name))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", de->d_name);
		task = opendir(path);
		if (!task)
			continue;	/* gone meanwhile */
		while ((te = readdir(task))) {
			if (!is_number(te->d_name))
				continue;
			if (nr == alloc) {
				pid_t *v = realloc(tids, (alloc = alloc ? alloc * 2 : 256) *
							       sizeof(*v));

				if (!v) {
					closedir(task);
					goto out;
				}
				tids = v;
			}
			tids[nr++] = (pid_t)atoi(te->d_name);
		}
		closedir(task);
	}
	map = ember_thread_map__from_array(tids, nr);
out:
	closedir(proc);
	free(tids);
	return map;
}

int stat_target__init(struct stat_target *t, const struct stat_config *config, int argc,
		      const char **argv)
{
	memset(t, 0, sizeof(*t));
	t->cpu_wide = config->system_wide || config->cpu_list;
	t->has_task = config->pid || config->tid;
	t->what = describe(config, argc, argv);
	if (!t->what)
		return -ENOMEM;

	if (config->system_wide && config->aggr_mode == STAT_AGGR_THREAD) {
		/* perf's system-wide --per-thread: every thread, counted wherever it runs. */
		t->cpus = ember_cpu_map__new_any();
		t->threads = all_threads();
		if (!t->cpus || !t->threads) {
			fprintf(stderr, "ember stat: cannot list the threads in /proc: %s\n",
				strerror(errno));
			return -errno;
		}
		t->all_threads = true;
		return read_comms(t);
	}
	if (t->cpu_wide) {
		t->cpus = ember_cpu_map__new(config->cpu_list);
		if (!t->cpus) {
			int err = errno;

			if (err == ENODEV)
				fprintf(stderr, "ember stat: cpu list '%s' names a cpu that is not "
					"online (see /sys/devices/system/cpu/online)\n",
					config->cpu_list);
			else
				fprintf(stderr, "ember stat: invalid cpu list '%s': expected "
					"numbers and ranges like 0,2-3\n",
					config->cpu_list ? config->cpu_list : "");
			return -err;
		}
	} else {
		t->cpus = ember_cpu_map__new_any();
		if (!t->cpus)
			return -ENOMEM;
	}

	if (config->pid) {
		t->threads = ember_thread_map__new_pids(config->pid);
		if (!t->threads)
			return bad_task("process", config->pid, errno);
	} else if (config->tid) {
		t->threads = ember_thread_map__new_tids(config->tid);
		if (!t->threads)
			return bad_task("thread", config->tid, errno);
	} else if (t->cpu_wide) {
		t->threads = ember_thread_map__new_any();
		if (!t->threads)
			return -ENOMEM;
	}
	if (stat_aggr__is_topology(config->aggr_mode)) {
		int err = stat_aggr_map__build(&t->aggr, config->aggr_mode, t->cpus, NULL);

		if (err) {
			fprintf(stderr, "ember stat: cannot read the cpu topology from "
				"/sys/devices/system/cpu: %s\n", strerror(-err));
			return err;
		}
	}
	if (t->threads && config->aggr_mode == STAT_AGGR_THREAD)
		return read_comms(t);
	return 0;
}

int stat_target__set_workload(struct stat_target *t, pid_t pid)
{
	struct ember_thread_map *threads;

	/* -a/-C with a command: the command only bounds the time; the cpus are counted. */
	if (t->cpu_wide || t->has_task)
		return 0;
	threads = ember_thread_map__new_pid(pid);
	if (!threads)
		return -errno;
	ember_thread_map__put(t->threads);
	t->threads = threads;
	return 0;
}

const char *stat_target__comm(const struct stat_target *t, int idx)
{
	if (idx < 0 || idx >= t->nr_comms || !t->comms[idx])
		return "";
	return t->comms[idx];
}

void stat_target__exit(struct stat_target *t)
{
	for (int i = 0; i < t->nr_comms; i++)
		free(t->comms[i]);
	free(t->comms);
	free(t->what);
	ember_cpu_map__put(t->cpus);
	ember_thread_map__put(t->threads);
	stat_aggr_map__exit(&t->aggr);
	memset(t, 0, sizeof(*t));
}

/* Grouping counted cpus by socket, die, core or node, in perf's order. */

/* The id of a cpu for the mode: the fields the mode does not group by are -1. */
static struct stat_aggr_id id_of(enum stat_aggr_mode mode, const struct ember_cpu_topo *t)
{
	struct stat_aggr_id id = { -1, -1, -1, -1 };

	switch (mode) {
	case STAT_AGGR_CORE:
		id.core = t->core;
		/* fall through */
	case STAT_AGGR_DIE:
		id.die = t->die;
		/* fall through */
	case STAT_AGGR_SOCKET:
		id.socket = t->socket;
		break;
	case STAT_AGGR_NODE:
		id.node = t->node;
		break;
	default:
		break;
	}
	return id;
}

static int cmp_id(const struct stat_aggr_id *a, const struct stat_aggr_id *b)
{
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->socket != b->socket)
		return a->socket < b->socket ? -1 : 1;
	if (a->die != b->die)
		return a->die < b->die ? -1 : 1;
	if (a->core != b->core)
		return a->core < b->core ? -1 : 1;
	return 0;
}

static int cmp_id_qsort(const void *a, const void *b)
{
	return cmp_id(a, b);
}

int stat_aggr_map__build(struct stat_aggr_map *m, enum stat_aggr_mode mode,
			 const struct ember_cpu_map *cpus, const char *sysfs_root)
{
	int nr = ember_cpu_map__nr(cpus);
	struct stat_aggr_id *cpu_ids;
	int err = 0;

	memset(m, 0, sizeof(*m));
	cpu_ids = calloc(nr ? nr : 1, sizeof(*cpu_ids));
	m->ids = calloc(nr ? nr : 1, sizeof(*m->ids));
	m->nr_cpus = calloc(nr ? nr : 1, sizeof(*m->nr_cpus));
	m->cpu_slot = calloc(nr ? nr : 1, sizeof(*m->cpu_slot));
	if (!cpu_ids || !m->ids || !m->nr_cpus || !m->cpu_slot) {
		err = -ENOMEM;
		goto out;
	}
	m->nr_map_cpus = nr;
	for (int i = 0; i < nr; i++) {
		struct ember_cpu_topo topo;

		err = ember_cpu_topo__read(sysfs_root, ember_cpu_map__cpu(cpus, i), &topo);
		if (err)
			goto out;
		cpu_ids[i] = id_of(mode, &topo);
	}
	/* The distinct ids, sorted: that is the order perf prints the slots in. */
	memcpy(m->ids, cpu_ids, nr * sizeof(*cpu_ids));
	qsort(m->ids, nr, sizeof(*m->ids), cmp_id_qsort);
	for (int i = 0; i < nr; i++)
		if (!m->nr || cmp_id(&m->ids[m->nr - 1], &m->ids[i]))
			m->ids[m->nr++] = m->ids[i];
	for (int i = 0; i < nr; i++) {
		for (int s = 0; s < m->nr; s++) {
			if (!cmp_id(&m->ids[s], &cpu_ids[i])) {
				m->cpu_slot[i] = s;
				m->nr_cpus[s]++;
				break;
			}
		}
	}
out:
	free(cpu_ids);
	if (err)
		stat_aggr_map__exit(m);
	return err;
}

void stat_aggr_map__exit(struct stat_aggr_map *m)
{
	free(m->ids);
	free(m->nr_cpus);
	free(m->cpu_slot);
	memset(m, 0, sizeof(*m));
}

void stat_aggr__label(enum stat_aggr_mode mode, const struct stat_aggr_id *id, char *buf,
		      size_t size)
{
	switch (mode) {
	case STAT_AGGR_SOCKET:
		snprintf(buf, size, "S%d", id->socket);
		break;
	case STAT_AGGR_DIE:
		snprintf(buf, size, "S%d-D%d", id->socket, id->die);
		break;
	case STAT_AGGR_CORE:
		snprintf(buf, size, "S%d-D%d-C%d", id->socket, id->die, id->core);
		break;
	case STAT_AGGR_NODE:
		snprintf(buf, size, "N%d", id->node);
		break;
	default:
		snprintf(buf, size, "?");
		break;
	}
}
