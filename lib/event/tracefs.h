/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * tracefs: where it is (mounting it the way perf does when it is not),
 * its systems and events, and tracepoint ids. Glob expansion reads one
 * directory per matching system and one `id` file per matching event,
 * nothing else, so "syscalls:sys_enter_*" costs milliseconds.
 */
#ifndef EMBER_LIB_TRACEFS_H
#define EMBER_LIB_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Find the tracing directory (the one holding events/): a mounted tracefs,
 * else debugfs's tracing/, else mount tracefs on /sys/kernel/tracing.
 * Writes it into buf. Returns 0, or -errno: -EACCES when it is there but
 * not readable by us (buf still names it), -EPERM when mounting is not
 * allowed, -ENOENT when the kernel has no tracefs.
 */
int ember_tracefs__find(char *buf, size_t size);

/* Read <root>/events/<sys>/<name>/id. Returns 0 and *id, or -errno. */
int ember_tracefs__event_id(const char *root, const char *sys, const char *name, uint64_t *id);

/* Called per event; a non-zero return stops the walk and is returned. */
typedef int (*ember_tracefs_event_fn)(const char *sys, const char *name, uint64_t id, void *arg);

/* Flags for ember_tracefs__for_each_event(). */
#define EMBER_TRACEFS_READ_ID	(1 << 0)	/* pass the id (else 0, only checked to exist) */

/*
 * Walk the events whose system matches sys_glob and whose name matches
 * evt_glob (NULL matches all), in directory order, as perf expands globs.
 * Only events with an id file are visited. Returns 0, fn's non-zero
 * value, or -errno when <root>/events cannot be read.
 */
int ember_tracefs__for_each_event(const char *root, const char *sys_glob, const char *evt_glob,
				  int flags, ember_tracefs_event_fn fn, void *arg);

/* Walk the system directories matching sys_glob (NULL: all); fn gets name=NULL, id=0. */
int ember_tracefs__for_each_system(const char *root, const char *sys_glob,
				   ember_tracefs_event_fn fn, void *arg);

/* Glob matching as perf's strglobmatch(): '*', '?', '[...]', '\' escapes. */
bool ember_glob_match(const char *pattern, const char *str);
bool ember_glob_match_nocase(const char *pattern, const char *str);
/* Whether s (len bytes) holds glob characters. */
bool ember_is_glob(const char *s, size_t len);

#endif
