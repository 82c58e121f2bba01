/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The parser's side of the catalog of perf's symbolic events (the public
 * part is in <ember/event.h>): finding names and aliases, hardware-cache
 * spellings, and every name for "did you mean".
 */
#ifndef EMBER_LIB_EVENT_NAMES_H
#define EMBER_LIB_EVENT_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ember/event.h>

/* Find a hardware or software symbol by its name or alias (exact, case-sensitive). */
const struct ember_event_symbol *event_symbol__find(const char *name, size_t len);

/* The tool event called name (len bytes), or EMBER_TOOL_NONE. */
enum ember_tool_event tool_event__find(const char *name, size_t len);

/*
 * Parse a hardware-cache event name with any of perf's aliases
 * ("L1-dcache-loads", "l1d-read-miss", "LLC", "dTLB-store-misses") into
 * its PERF_TYPE_HW_CACHE config. Returns 0, -ENOENT when the text is not
 * a cache event name, -EINVAL when it names an op the cache does not have
 * ("L1-icache-stores").
 */
int hw_cache__parse(const char *name, size_t len, uint64_t *config);

/*
 * Call fn on every name and alias the parser accepts for hardware,
 * software, tool events, and on the canonical hardware-cache names.
 * Stops and returns fn's value when it returns non-zero; else 0.
 */
int event_names__for_each(int (*fn)(const char *name, void *arg), void *arg);

#endif
