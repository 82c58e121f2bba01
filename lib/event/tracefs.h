/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * tracefs, the library's side (finding it and walking its events are in
 * <ember/event.h>): tracepoint ids and systems. Glob expansion reads one
 * directory per matching system and one `id` file per matching event,
 * nothing else, so "syscalls:sys_enter_*" costs milliseconds.
 */
#ifndef EMBER_LIB_TRACEFS_H
#define EMBER_LIB_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ember/event.h>

/* Read <root>/events/<sys>/<name>/id. Returns 0 and *id, or -errno. */
int tracefs__event_id(const char *root, const char *sys, const char *name, uint64_t *id);

/* Walk the system directories matching sys_glob (NULL: all); fn gets name=NULL, id=0. */
int tracefs__for_each_system(const char *root, const char *sys_glob, ember_tracefs_event_fn fn,
			     void *arg);

/* Whether s (len bytes) holds glob characters. */
bool is_glob(const char *s, size_t len);

#endif
