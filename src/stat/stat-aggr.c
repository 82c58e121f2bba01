// SPDX-License-Identifier: GPL-2.0-only
/* Grouping counted cpus by socket, die, core or node, in perf's order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/event.h>
#include "stat/stat-aggr.h"

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
