/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The catalog of perf's symbolic events: hardware, software, tool and
 * hardware-cache names, their aliases, and the way back from an attr to
 * the name perf prints.
 */
#ifndef EMBER_LIB_EVENT_NAMES_H
#define EMBER_LIB_EVENT_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct ember_evsel;

/* A named hardware or software event: "cpu-cycles", alias "cycles". */
struct ember_event_symbol {
	const char *name;
	const char *alias;	/* NULL when there is none */
	uint32_t type;		/* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
};

/* perf's "tool" events: counted by the tool, opened as a software dummy. */
enum ember_tool_event {
	EMBER_TOOL_NONE,
	EMBER_TOOL_DURATION_TIME,
	EMBER_TOOL_USER_TIME,
	EMBER_TOOL_SYSTEM_TIME,
	EMBER_TOOL_MAX,
};

/* The pmu_name the parser gives tool evsels. */
#define EMBER_TOOL_PMU "tool"

/*
 * The symbol table of a type (PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE),
 * indexed by config; *nr gets its length. Static storage; NULL for other types.
 */
const struct ember_event_symbol *ember_event_symbols(uint32_t type, size_t *nr);

/* Find a hardware or software symbol by its name or alias (exact, case-sensitive). */
const struct ember_event_symbol *ember_event_symbol__find(const char *name, size_t len);

/* "duration_time", "user_time", "system_time"; NULL for NONE or out of range. */
const char *ember_tool_event__name(enum ember_tool_event tool);
/* The tool event called name (len bytes), or EMBER_TOOL_NONE. */
enum ember_tool_event ember_tool_event__find(const char *name, size_t len);
/* The tool event an evsel from the parser stands for, or EMBER_TOOL_NONE. */
enum ember_tool_event ember_tool_event__from_evsel(const struct ember_evsel *evsel);

/*
 * Parse a hardware-cache event name with any of perf's aliases
 * ("L1-dcache-loads", "l1d-read-miss", "LLC", "dTLB-store-misses") into
 * its PERF_TYPE_HW_CACHE config. Returns 0, -ENOENT when the text is not
 * a cache event name, -EINVAL when it names an op the cache does not have
 * ("L1-icache-stores").
 */
int ember_hw_cache__parse(const char *name, size_t len, uint64_t *config);

/* Whether perf considers (cache, op) a valid pair (e.g. no iTLB stores). */
bool ember_hw_cache__op_valid(unsigned int cache, unsigned int op);

/*
 * The name perf prints for a cache config ("L1-dcache-load-misses",
 * "LLC-stores"). Returns what snprintf returns, or -EINVAL ("invalid-cache"
 * is written) for a config out of range.
 */
int ember_hw_cache__name(uint64_t config, char *buf, size_t size);

/*
 * The name perf derives from an attr alone, modifiers included, as
 * evsel__name() does for an unnamed evsel: "cycles", "cpu-clock:u",
 * "L1-dcache-loads", "r1a8:k", "mem:0x1000:rw". Tracepoints and
 * dynamic PMUs get "unknown tracepoint" / "unknown attr type: N".
 * Returns the length written (as snprintf).
 */
int ember_event_names__attr_name(const struct perf_event_attr *attr, char *buf, size_t size);

/*
 * Call fn on every name and alias the parser accepts for hardware,
 * software, tool events, and on the canonical hardware-cache names.
 * Stops and returns fn's value when it returns non-zero; else 0.
 */
int ember_event_names__for_each(int (*fn)(const char *name, void *arg), void *arg);

/*
 * Whether the kernel opens this event for the calling thread, tried as
 * perf list does: as is, then with exclude_kernel, then exclude_guest.
 */
bool ember_event__is_supported(uint32_t type, uint64_t config);

#endif
