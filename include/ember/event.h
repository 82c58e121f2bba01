/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Events: perf's event syntax, cpu and thread maps, opening and reading
 * counters, their ring buffers, and the catalog of events this machine
 * has. Objects are opaque: programs, the ember command among them, use
 * the accessors here.
 */
#ifndef EMBER_EVENT_H
#define EMBER_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include <ember/common.h>

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

/*
 * A cpu's time split, in clock ticks (USER_HZ) since boot, as one "cpuN"
 * line of /proc/stat counts it: what sar, top and mpstat difference
 * between two reads to get each cpu's user, system and iowait shares.
 */
struct ember_cpu_time {
	int cpu;
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

/* Every tick of t (guest time is already in user and nice, so not added twice). */
static inline uint64_t ember_cpu_time__total(const struct ember_cpu_time *t)
{
	return t->user + t->nice + t->system + t->idle + t->iowait + t->irq + t->softirq +
	       t->steal;
}

/*
 * Parse /proc/stat text (len bytes) into t[0..max): one entry per "cpuN"
 * line, in the file's order (an offline cpu has no line). Returns how many
 * were filled, or -EINVAL when a cpu line is malformed.
 */
EMBER_API int ember_cpu_times__parse(const char *text, size_t len, struct ember_cpu_time *t,
				     int max);

/*
 * Read /proc/stat (fd: an open /proc/stat, re-read from its start, so one
 * open serves every read; -1: open it for this read) and parse it as
 * ember_cpu_times__parse(). Returns the count, or -errno.
 */
EMBER_API int ember_cpu_times__read(int fd, struct ember_cpu_time *t, int max);

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
struct ember_mmap;

/*
 * One counter reading: value, time enabled, time running (ns), and the
 * samples the kernel could not write (read_format PERF_FORMAT_LOST,
 * Linux 6.0+; 0 otherwise).
 */
struct ember_counts {
	uint64_t val;
	uint64_t ena;
	uint64_t run;
	uint64_t lost;
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

/* ---- event lists -------------------------------------------------------- */

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

/* Options of ember_evlist__parse_events_opts(); zero-initialise, set sz. */
struct ember_parse_opts {
	size_t sz;		/* sizeof(struct ember_parse_opts) */
	const char *tracefs;	/* tracing dir holding events/; NULL: find (mount) it */
	const char *pmu_dir;	/* PMU devices dir; NULL: /sys/bus/event_source/devices */
	bool counting;		/* for counting (perf stat): sampling-only terms are errors */
};

/*
 * ember_evlist__parse_events() with opts (may be NULL). Events are added
 * only when the whole spec parses; on failure the evlist is unchanged.
 * Returns 0, -EINVAL for a bad spec, or -errno (EACCES/EPERM when tracefs
 * cannot be read, ENOMEM); *err (may be NULL) is filled on every failure.
 */
EMBER_API int ember_evlist__parse_events_opts(struct ember_evlist *evlist, const char *spec,
					      struct ember_parse_error *err,
					      const struct ember_parse_opts *opts);

/*
 * Render a parse error as perf does, for a terminal `width` columns wide
 * (0: 80):
 *   event syntax error: 'cpu-clok'
 *                        \___ unknown event 'cpu-clok'
 *
 *   did you mean 'cpu-clock'?
 * The spec is cut with ".." when long. Every line ends in '\n'.
 * Returns what snprintf returns.
 */
EMBER_API int ember_parse_error__snprintf(const struct ember_parse_error *err, int width,
					  char *buf, size_t size);

/* Append one event built from an attr; name may be NULL. Returns it or NULL. */
EMBER_API struct ember_evsel *ember_evlist__add_attr(struct ember_evlist *evlist,
						     const struct perf_event_attr *attr,
						     const char *name);
/* Link an evsel (one from ember_evsel__clone()) at the end; the list takes ownership. */
EMBER_API void ember_evlist__add(struct ember_evlist *evlist, struct ember_evsel *evsel);

EMBER_API int ember_evlist__nr_entries(const struct ember_evlist *evlist);
/* Iterate: pass NULL for the first; returns NULL after the last. */
EMBER_API struct ember_evsel *ember_evlist__next(const struct ember_evlist *evlist,
						 const struct ember_evsel *prev);

#define ember_evlist__for_each(evlist, pos)                                                        \
	for ((pos) = ember_evlist__next((evlist), NULL); (pos);                                    \
	     (pos) = ember_evlist__next((evlist), (pos)))

/*
 * Make the leader and every evsel after it one group: call right after
 * adding them. The group opens, enables and reads as one.
 */
EMBER_API void ember_evlist__make_group(struct ember_evlist *evlist, struct ember_evsel *leader);
/* How many groups of two or more the list holds ("{a,b}", make_group). */
EMBER_API int ember_evlist__nr_groups(const struct ember_evlist *evlist);

/* Set the cpus and threads every evsel opens on; takes its own references. */
EMBER_API void ember_evlist__set_maps(struct ember_evlist *evlist, struct ember_cpu_map *cpus,
				      struct ember_thread_map *threads);

/*
 * Open every evsel on the list's maps. Stops at the first failure and
 * returns its -errno; ember_evlist__failed() then names the evsel. The
 * evsels opened before stay open: after a fix to the failed one (a
 * fallback), another call carries on.
 */
EMBER_API int ember_evlist__open(struct ember_evlist *evlist);
EMBER_API struct ember_evsel *ember_evlist__failed(const struct ember_evlist *evlist);
/* Unmap the ring buffers and close every evsel. Accepts NULL. */
EMBER_API void ember_evlist__close(struct ember_evlist *evlist);
/* Enable (disable) every open event, a group through its leader. 0 or the first -errno. */
EMBER_API int ember_evlist__enable(struct ember_evlist *evlist);
EMBER_API int ember_evlist__disable(struct ember_evlist *evlist);

/*
 * Map a ring buffer of `pages` data pages (a power of two) for each cpu
 * (each thread for per-thread events) that an open evsel writing records
 * is open on: samples or side-band records (mmap, comm, task...). The
 * first fd at a cpu owns the buffer, the others are redirected into it
 * (PERF_EVENT_IOC_SET_OUTPUT). Backward evsels (attr.write_backward) are
 * left out: the kernel refuses them a forward buffer. Buffers come in the
 * order of the first such evsel's cpus (threads). Returns 0 or -errno,
 * with nothing mapped. Unmapped by ember_evlist__munmap() or __close().
 */
EMBER_API int ember_evlist__mmap(struct ember_evlist *evlist, size_t pages);
EMBER_API void ember_evlist__munmap(struct ember_evlist *evlist);
/* The ring buffers: how many, and buffer idx (NULL out of range); owned by the list. */
EMBER_API int ember_evlist__nr_mmaps(const struct ember_evlist *evlist);
EMBER_API struct ember_mmap *ember_evlist__mmap_at(const struct ember_evlist *evlist, int idx);
/* poll() every ring buffer's fd for POLLIN. Returns poll's result, or -errno (-EINTR). */
EMBER_API int ember_evlist__poll(struct ember_evlist *evlist, int timeout_ms);

/* ---- event selectors ---------------------------------------------------- */

/*
 * The evsel's attr: owned by the evsel, which callers may adjust before
 * the open (the pointer is the evsel's own, also from a const evsel).
 */
EMBER_API struct perf_event_attr *ember_evsel__attr(const struct ember_evsel *evsel);
/* Its name as perf prints it ("cpu-clock", "cycles:u", "sched:sched_switch"). */
EMBER_API const char *ember_evsel__name(const struct ember_evsel *evsel);
/* Rename it (a copy is kept). Returns 0 or -ENOMEM. */
EMBER_API int ember_evsel__set_name(struct ember_evsel *evsel, const char *name);
/* Its position in its list, from 0. */
EMBER_API int ember_evsel__idx(const struct ember_evsel *evsel);

/*
 * A copy of the evsel's configuration (attr, name, filter, terms, cgroup),
 * not of its open state or its priv. Add it to a list (which then owns
 * it) with ember_evlist__add(). NULL with errno set.
 */
EMBER_API struct ember_evsel *ember_evsel__clone(const struct ember_evsel *evsel);

/* Groups: the leader (the evsel itself outside a group) and a leader's size, itself included. */
EMBER_API struct ember_evsel *ember_evsel__leader(const struct ember_evsel *evsel);
EMBER_API bool ember_evsel__is_group_leader(const struct ember_evsel *evsel);
EMBER_API int ember_evsel__nr_members(const struct ember_evsel *evsel);

/* A tracepoint's system and name ("sched", "sched_switch"): true, or false for other events. */
EMBER_API bool ember_evsel__tracepoint(const struct ember_evsel *evsel, const char **sys,
				       const char **name);

/*
 * The tracepoint filter ("prev_pid > 0") the open sets on every fd,
 * NULL for none; set_filter keeps a copy (NULL clears it): 0 or -ENOMEM.
 */
EMBER_API const char *ember_evsel__filter(const struct ember_evsel *evsel);
EMBER_API int ember_evsel__set_filter(struct ember_evsel *evsel, const char *filter);
/*
 * Set a filter on every open fd now (PERF_EVENT_IOC_SET_FILTER), whatever
 * ember_evsel__filter() says. Returns 0 or the kernel's -errno (-EINVAL
 * for a filter it refuses).
 */
EMBER_API int ember_evsel__apply_filter(struct ember_evsel *evsel, const char *filter);

/*
 * Open at the highest precise_ip level the PMU takes, stepping down on
 * refusals (perf's ":P" and its default cycles event).
 */
EMBER_API void ember_evsel__set_precise_max(struct ember_evsel *evsel, bool on);

/* perf's per-event terms given in the spec, which ember_evsel__terms() hands over. */
enum ember_evsel_term {
	EMBER_TERM_PERIOD		= 1u << 0,
	EMBER_TERM_FREQ			= 1u << 1,
	EMBER_TERM_TIME			= 1u << 2,
	EMBER_TERM_CALLGRAPH		= 1u << 3,
	EMBER_TERM_STACK_SIZE		= 1u << 4,
	EMBER_TERM_MAX_STACK		= 1u << 5,
	EMBER_TERM_INHERIT		= 1u << 6,
	EMBER_TERM_OVERWRITE		= 1u << 7,
	EMBER_TERM_PERCORE		= 1u << 8,
	EMBER_TERM_AUX_OUTPUT		= 1u << 9,
	EMBER_TERM_AUX_SAMPLE_SIZE	= 1u << 10,
	EMBER_TERM_BRANCH_TYPE		= 1u << 11,
	EMBER_TERM_DRV_CFG		= 1u << 12,
	EMBER_TERM_NR			= 1u << 13,
	EMBER_TERM_METRIC_ID		= 1u << 14,
};

/* The terms usable when counting (perf stat): the rest are for sampling only. */
#define EMBER_TERMS_COUNTING (EMBER_TERM_PERIOD | EMBER_TERM_PERCORE | EMBER_TERM_METRIC_ID)

/*
 * The terms that are not attr bits the parser can set alone:
 * "cpu-clock/period=1000,call-graph=dwarf,stack-size=4096,no-inherit/".
 * A command applies them over its own options, as perf's
 * evsel__apply_config_terms() does after evsel__config(), so a term wins
 * over -F, -c, -g, -i and --overwrite for its event.
 */
struct ember_evsel_terms {
	unsigned int set;		/* enum ember_evsel_term bits */
	uint64_t period;		/* period= */
	uint64_t freq;			/* freq= */
	bool time;			/* time[=0|1] */
	bool inherit;			/* inherit / no-inherit */
	bool overwrite;			/* overwrite / no-overwrite */
	bool percore;			/* percore[=0|1] */
	bool aux_output;		/* aux-output[=0|1] */
	uint32_t stack_size;		/* stack-size=, bytes */
	uint32_t max_stack;		/* max-stack= */
	uint32_t aux_sample_size;	/* aux-sample-size= */
	uint64_t nr;			/* nr=: perf's max events */
	char *callgraph;		/* call-graph=: "fp", "dwarf", "lbr" or "no" */
	char *branch_type;		/* branch_type= */
	char *drv_cfg;			/* driver-config= */
	char *metric_id;		/* metric-id= */
};

/* The terms its spec gave ("cpu-clock/period=1000/"), NULL when none; owned by the evsel. */
EMBER_API const struct ember_evsel_terms *ember_evsel__terms(const struct ember_evsel *evsel);

/*
 * perf's fallback for an event refused because the kernel may not be
 * measured (perf_event_paranoid > 1): exclude the kernel and the
 * hypervisor, and say so in the name: "cycles" becomes "cycles:u",
 * "cycles:p" and "cpu/cycles/" get a bare "u". Returns 0, or -ENOMEM
 * with the evsel unchanged.
 */
EMBER_API int ember_evsel__exclude_kernel(struct ember_evsel *evsel);

/* Count only inside a cgroup: cgroup_fd is its directory (open, kept by the caller). */
EMBER_API int ember_evsel__set_cgroup(struct ember_evsel *evsel, int cgroup_fd);
/* The cgroup directory fd given to ember_evsel__set_cgroup(), or -1. */
EMBER_API int ember_evsel__cgroup_fd(const struct ember_evsel *evsel);

/* The caller's per-evsel data (NULL at first; the evsel never frees it). */
EMBER_API void *ember_evsel__priv(const struct ember_evsel *evsel);
EMBER_API void ember_evsel__set_priv(struct ember_evsel *evsel, void *priv);

/*
 * Open one evsel on the given maps (the list's when NULL).
 * Returns 0 or -errno; the fds stay owned by the evsel.
 */
EMBER_API int ember_evsel__open(struct ember_evsel *evsel, struct ember_cpu_map *cpus,
				struct ember_thread_map *threads);
EMBER_API void ember_evsel__close(struct ember_evsel *evsel);

/*
 * Its open state: fds at (cpu index, thread index) over the maps it is
 * open on, nr_cpus() x nr_threads() of them (0 x 0 when not open). The
 * maps are the evsel's references, valid while it stays open.
 */
EMBER_API int ember_evsel__nr_cpus(const struct ember_evsel *evsel);
EMBER_API int ember_evsel__nr_threads(const struct ember_evsel *evsel);
EMBER_API struct ember_cpu_map *ember_evsel__cpus(const struct ember_evsel *evsel);
EMBER_API struct ember_thread_map *ember_evsel__threads(const struct ember_evsel *evsel);
/* The file descriptor at (cpu index, thread index), or -1 (not open there). */
EMBER_API int ember_evsel__fd(const struct ember_evsel *evsel, int cpu_idx, int thread_idx);
/* The sample id of that fd (PERF_EVENT_IOC_ID), 0 when there is none. */
EMBER_API uint64_t ember_evsel__id(const struct ember_evsel *evsel, int cpu_idx, int thread_idx);
/*
 * Take the fd at (cpu index, thread index) out of the evsel: the caller
 * owns (and closes) it, the evsel forgets it. Returns it, or -1.
 */
EMBER_API int ember_evsel__take_fd(struct ember_evsel *evsel, int cpu_idx, int thread_idx);

/* Enable (disable) every fd of this evsel alone. Returns 0 or the first -errno. */
EMBER_API int ember_evsel__enable(struct ember_evsel *evsel);
EMBER_API int ember_evsel__disable(struct ember_evsel *evsel);

/*
 * Read the counter at (cpu index, thread index) as attr.read_format lays
 * it out (a group read is picked apart for this evsel). Returns 0 or -errno.
 */
EMBER_API int ember_evsel__read(struct ember_evsel *evsel, int cpu_idx, int thread_idx,
				struct ember_counts *counts);

/* ---- the catalog: what events exist, their names ------------------------ */

/* A named hardware or software event: "cpu-cycles", alias "cycles". */
struct ember_event_symbol {
	const char *name;
	const char *alias;	/* NULL when there is none */
	uint32_t type;		/* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
};

/*
 * The symbol table of a type (PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE),
 * indexed by config; *nr gets its length. Static storage; NULL for other types.
 */
EMBER_API const struct ember_event_symbol *ember_event_symbols(uint32_t type, size_t *nr);

/* perf's "tool" events: counted by the tool itself, opened as a software dummy. */
enum ember_tool_event {
	EMBER_TOOL_NONE,
	EMBER_TOOL_DURATION_TIME,
	EMBER_TOOL_USER_TIME,
	EMBER_TOOL_SYSTEM_TIME,
	EMBER_TOOL_MAX,
};

/* The PMU name of the tool events ("tool/duration_time/"). */
#define EMBER_TOOL_PMU "tool"

/* "duration_time", "user_time", "system_time"; NULL for NONE or out of range. */
EMBER_API const char *ember_tool_event__name(enum ember_tool_event tool);
/* The tool event a parsed evsel stands for, or EMBER_TOOL_NONE. */
EMBER_API enum ember_tool_event ember_tool_event__from_evsel(const struct ember_evsel *evsel);

/* Whether perf considers (cache, op) a valid hardware-cache pair (e.g. no iTLB stores). */
EMBER_API bool ember_hw_cache__op_valid(unsigned int cache, unsigned int op);
/*
 * The name perf prints for a cache config ("L1-dcache-load-misses",
 * "LLC-stores"). Returns what snprintf returns, or -EINVAL ("invalid-cache"
 * is written) for a config out of range.
 */
EMBER_API int ember_hw_cache__name(uint64_t config, char *buf, size_t size);

/*
 * The name perf derives from an attr alone, modifiers included, as
 * evsel__name() does for an unnamed evsel: "cycles", "cpu-clock:u",
 * "L1-dcache-loads", "r1a8:k", "mem:0x1000:rw". Tracepoints and dynamic
 * PMUs get "unknown tracepoint" / "unknown attr type: N". Returns the
 * length written (as snprintf).
 */
EMBER_API int ember_event_names__attr_name(const struct perf_event_attr *attr, char *buf,
					   size_t size);

/*
 * Whether the kernel opens this event for the calling thread, tried as
 * perf list does: as is, then with exclude_kernel, then exclude_guest.
 */
EMBER_API bool ember_event__is_supported(uint32_t type, uint64_t config);

/*
 * kernel.perf_event_paranoid: -1 no limits, 0 cpu-wide events, 1 the
 * kernel, 2 user space only (for users without CAP_PERFMON). 2, as perf
 * assumes, when it cannot be read.
 */
EMBER_API int ember_event__paranoid(void);

/* Called per PMU event alias; core: the CPU's core PMU (its events go by bare names). */
typedef int (*ember_pmu_event_fn)(const char *pmu, const char *event, bool core, void *arg);

/*
 * Walk the events/ aliases of every PMU under devices_dir (NULL:
 * /sys/bus/event_source/devices), PMUs by name, each one's aliases by
 * name. Returns 0, fn's non-zero value, or -errno when the directory
 * cannot be listed.
 */
EMBER_API int ember_pmu__for_each_event(const char *devices_dir, ember_pmu_event_fn fn,
					void *arg);

/*
 * Find the tracing directory (the one holding events/): a mounted tracefs,
 * else debugfs's tracing/, else mount tracefs on /sys/kernel/tracing.
 * Writes it into buf. Returns 0, or -errno: -EACCES when it is there but
 * not readable by us (buf still names it), -EPERM when mounting is not
 * allowed, -ENOENT when the kernel has no tracefs.
 */
EMBER_API int ember_tracefs__find(char *buf, size_t size);

/* Called per tracepoint; a non-zero return stops the walk and is returned. */
typedef int (*ember_tracefs_event_fn)(const char *sys, const char *name, uint64_t id, void *arg);

/* Flags for ember_tracefs__for_each_event(): pass the id (else 0, only checked to exist). */
#define EMBER_TRACEFS_READ_ID	(1 << 0)

/*
 * Walk the tracepoints whose system matches sys_glob and whose name
 * matches evt_glob (NULL matches all) under root (from ember_tracefs__find()),
 * in directory order, as perf expands globs. Only events with an id file
 * are visited. Returns 0, fn's non-zero value, or -errno when
 * <root>/events cannot be read.
 */
EMBER_API int ember_tracefs__for_each_event(const char *root, const char *sys_glob,
					    const char *evt_glob, int flags,
					    ember_tracefs_event_fn fn, void *arg);

/* Called per cached SDT event; path is the binary's (may be NULL). Non-zero stops. */
typedef int (*ember_sdt_fn)(const char *group, const char *event, const char *build_id,
			    const char *path, void *arg);

/*
 * The SDT (USDT) events perf has cached (perf record, perf buildid-cache):
 * walk those under dir (NULL: $PERF_BUILDID_DIR, else $HOME/.debug),
 * build-id by build-id, in directory order. Returns 0, fn's non-zero
 * value, or -errno when dir has no .build-id directory.
 */
EMBER_API int ember_sdt_cache__for_each(const char *dir, ember_sdt_fn fn, void *arg);

/* Glob matching as perf's strglobmatch(): '*', '?', '[...]', '\' escapes. */
EMBER_API bool ember_glob_match(const char *pattern, const char *str);
EMBER_API bool ember_glob_match_nocase(const char *pattern, const char *str);

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
