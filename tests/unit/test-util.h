/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by several unit tests. */
#ifndef EMBER_UNIT_TEST_UTIL_H
#define EMBER_UNIT_TEST_UTIL_H

/* The id of tracepoint sys:name from tracefs (mounted if needed), or -1. */
long test_tracepoint_id(const char *sys, const char *name);

/*
 * A scratch tracefs under /tmp: test_tracefs__new() makes the root (NULL on
 * failure); __syscall() writes events/syscalls/sys_enter_NAME/format with
 * the fields given ("int dfd", "const char * filename", ..., NULL), as the
 * kernel writes them; __delete() removes it all and frees root.
 */
char *test_tracefs__new(void);
int test_tracefs__syscall(const char *root, const char *name, ...);
int test_tracefs__write(const char *root, const char *name, const char *format);
void test_tracefs__delete(char *root);

#endif
