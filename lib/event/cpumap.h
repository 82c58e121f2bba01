/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Internal helpers on cpu and thread maps, beyond the public accessors. */
#ifndef EMBER_LIB_CPUMAP_H
#define EMBER_LIB_CPUMAP_H

#include <stdbool.h>
#include <sys/types.h>
#include <ember/event.h>

/* True for the "any cpu" map {-1} (per-thread events). */
bool ember_cpu_map__is_any(const struct ember_cpu_map *map);
/* The index of `cpu` in the map, or -1 when it is not there. */
int ember_cpu_map__idx(const struct ember_cpu_map *map, int cpu);
/* A map of exactly these cpus (sorted, duplicates dropped); NULL with errno set. */
struct ember_cpu_map *ember_cpu_map__from_array(const int *cpus, int nr);

/* A map of exactly these thread ids, in this order; NULL with errno set. */
struct ember_thread_map *ember_thread_map__from_array(const pid_t *tids, int nr);

/* True for the "every thread" map {-1} (cpu-wide events). */
bool ember_thread_map__is_any(const struct ember_thread_map *map);

#endif
