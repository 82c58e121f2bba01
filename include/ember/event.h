/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Events: perf's event syntax, cpu and thread maps, opening and reading
 * counters. Objects are opaque; the ember command reaches their fields
 * through the headers in lib/event/, SDK users through the accessors here.
 */
#ifndef EMBER_EVENT_H
#define EMBER_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#ifndef EMBER_API
#define EMBER_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- cpu maps: shared, reference counted (get/put) ---------------------- */

struct ember_cpu_map;

/*
 * Parse a cpu list like "0,2-3"; NULL means every online cpu.
 * Returns a new map with one reference, or NULL with errno set
 * (EINVAL for a malformed list, ENODEV when it names an offline cpu).
 */
EMBER_API struct ember_cpu_map *ember_cpu_map__new(const char *list);
/* A map with the single entry -1: "any cpu", for per-thread events. */
EMBER_API struct ember_cpu_map *ember_cpu_map__new_any(void);
/*
 * A map of exactly these cpus (sorted, duplicates dropped), not checked
 * against the online ones. Returns it with one reference, or NULL (ENOMEM).
 */
EMBER_API struct ember_cpu_map *ember_cpu_map__from_array(const int *cpus, int nr);
EMBER_API struct ember_cpu_map *ember_cpu_map__get(struct ember_cpu_map *map);
EMBER_API void ember_cpu_map__put(struct ember_cpu_map *map);
/* Entries (0 for NULL), and the cpu at idx (-1 out of range). */
EMBER_API int ember_cpu_map__nr(const struct ember_cpu_map *map);
EMBER_API int ember_cpu_map__cpu(const struct ember_cpu_map *map, int idx);
/* The index of `cpu` in the map, or -1 when it is not there. */
EMBER_API int ember_cpu_map__idx(const struct ember_cpu_map *map, int cpu);
/* True for the "any cpu" map {-1} (per-thread events). */
EMBER_API bool ember_cpu_map__is_any(const struct ember_cpu_map *map);

/*
 * Where a cpu sits: its socket (physical package), die, core and NUMA
 * node, as /sys/devices/system/cpu/cpuN/topology and /sys/devices/system/node
 * tell. What perf stat --per-socket, --per-die, --per-core and --per-node
 * aggregate by.
 */
struct ember_cpu_topo {
	int socket;	/* physical_package_id */
	int die;	/* die_id; 0 where the kernel has none */
	int core;	/* core_id */
	int node;	/* the NUMA node holding the cpu; 0 on a kernel without NUMA */
};

/*
 * Read cpu's topology under sysfs_root (NULL: "/sys"; tests pass a
 * directory of their own). Returns 0, or -errno when the cpu has no
 * topology directory (an offline or absent cpu): -ENOENT.
 */
EMBER_API int ember_cpu_topo__read(const char *sysfs_root, int cpu, struct ember_cpu_topo *topo);

/* ---- thread maps: shared, reference counted ----------------------------- */

struct ember_thread_map;

/* A map with the single entry -1: "every thread", for system-wide events. */
EMBER_API struct ember_thread_map *ember_thread_map__new_any(void);
/* Every thread of each process in a list like "1234,5678" (from /proc/PID/task). */
EMBER_API struct ember_thread_map *ember_thread_map__new_pids(const char *pid_list);
/* Exactly the threads in a list like "1234,1240". */
EMBER_API struct ember_thread_map *ember_thread_map__new_tids(const char *tid_list);
/* A single thread or process id. */
EMBER_API struct ember_thread_map *ember_thread_map__new_pid(pid_t pid);
/* Exactly these thread ids, in this order. Returns it, or NULL (ENOMEM). */
EMBER_API struct ember_thread_map *ember_thread_map__from_array(const pid_t *tids, int nr);
EMBER_API struct ember_thread_map *ember_thread_map__get(struct ember_thread_map *map);
EMBER_API void ember_thread_map__put(struct ember_thread_map *map);
/* Entries (0 for NULL), and the pid at idx (-1 out of range). */
EMBER_API int ember_thread_map__nr(const struct ember_thread_map *map);
EMBER_API pid_t ember_thread_map__pid(const struct ember_thread_map *map, int idx);
/* True for the "every thread" map {-1} (cpu-wide events). */
EMBER_API bool ember_thread_map__is_any(const struct ember_thread_map *map);

/* ---- event selectors ---------------------------------------------------- */

struct ember_evsel;
struct ember_evlist;

/* One counter reading: value, time enabled, time running (ns). */
struct ember_counts {
	uint64_t val;
	uint64_t ena;
	uint64_t run;
};

/*
 * Where a spec failed to parse. `pos` is the byte offset into the spec
 * string, `msg` the reason, `hint` (may be NULL) a suggestion such as
 * "did you mean 'cpu-clock'?". Owned by the struct; free with
 * ember_parse_error__exit().
 */
struct ember_parse_error {
	int pos;
	char *str;
	char *msg;
	char *hint;
};

EMBER_API void ember_parse_error__exit(struct ember_parse_error *err);

/* A new, empty event list. Free with ember_evlist__delete(). */
EMBER_API struct ember_evlist *ember_evlist__new(void);
/* Closes, unmaps and frees the list and its evsels. Accepts NULL. */
EMBER_API void ember_evlist__delete(struct ember_evlist *evlist);

/*
 * Parse perf's event syntax (what follows -e: "cycles:u,cpu-clock",
 * "{a,b}", "sched:*", "cpu/event=0x3c/", "r1a8") and append the events.
 * Tracepoint globs expand against tracefs (mounted on demand).
 * Returns 0, or -EINVAL with *err filled (err may be NULL), or -errno.
 */
EMBER_API int ember_evlist__parse_events(struct ember_evlist *evlist, const char *spec,
					 struct ember_parse_error *err);

/* Append one event built from an attr; name may be NULL. Returns it or NULL. */
EMBER_API struct ember_evsel *ember_evlist__add_attr(struct ember_evlist *evlist,
						     const struct perf_event_attr *attr,
						     const char *name);

EMBER_API int ember_evlist__nr_entries(const struct ember_evlist *evlist);
/* Iterate: pass NULL for the first; returns NULL after the last. */
EMBER_API struct ember_evsel *ember_evlist__next(const struct ember_evlist *evlist,
						 const struct ember_evsel *prev);

/* Set the cpus and threads every evsel opens on; takes its own references. */
EMBER_API void ember_evlist__set_maps(struct ember_evlist *evlist, struct ember_cpu_map *cpus,
				      struct ember_thread_map *threads);

/*
 * Open every evsel on the list's maps. Stops at the first failure and
 * returns its -errno; ember_evlist__failed() then names the evsel.
 */
EMBER_API int ember_evlist__open(struct ember_evlist *evlist);
EMBER_API struct ember_evsel *ember_evlist__failed(const struct ember_evlist *evlist);
EMBER_API void ember_evlist__close(struct ember_evlist *evlist);
EMBER_API int ember_evlist__enable(struct ember_evlist *evlist);
EMBER_API int ember_evlist__disable(struct ember_evlist *evlist);

/* The evsel's attr (owned by the evsel; callers may adjust it before open). */
EMBER_API struct perf_event_attr *ember_evsel__attr(struct ember_evsel *evsel);
/* Its name as perf prints it ("cpu-clock", "cycles:u", "sched:sched_switch"). */
EMBER_API const char *ember_evsel__name(const struct ember_evsel *evsel);

/*
 * Open one evsel on the given maps (the list's when NULL).
 * Returns 0 or -errno; the fds stay owned by the evsel.
 */
EMBER_API int ember_evsel__open(struct ember_evsel *evsel, struct ember_cpu_map *cpus,
				struct ember_thread_map *threads);
EMBER_API void ember_evsel__close(struct ember_evsel *evsel);

/* Read the counter at (cpu index, thread index). Returns 0 or -errno. */
EMBER_API int ember_evsel__read(struct ember_evsel *evsel, int cpu_idx, int thread_idx,
				struct ember_counts *counts);
/* The file descriptor at (cpu index, thread index), or -1. */
EMBER_API int ember_evsel__fd(const struct ember_evsel *evsel, int cpu_idx, int thread_idx);

/*
 * Explain an open failure for a person, in one line: what failed, why,
 * and what to do ("...perf_event_paranoid is 2; as root run
 * 'sysctl kernel.perf_event_paranoid=-1'"). Writes into buf, returns buf.
 */
EMBER_API const char *ember_evsel__strerror_open(const struct ember_evsel *evsel, int err,
						 char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
