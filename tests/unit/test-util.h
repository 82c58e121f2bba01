/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by several unit tests. */
#ifndef EMBER_UNIT_TEST_UTIL_H
#define EMBER_UNIT_TEST_UTIL_H

/* The id of tracepoint sys:name from tracefs (mounted if needed), or -1. */
long test_tracepoint_id(const char *sys, const char *name);

#endif
