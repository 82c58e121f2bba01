/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* How far apart two names are, for the "did you mean" of every parser. */
#ifndef EMBER_CORE_EDIT_DISTANCE_H
#define EMBER_CORE_EDIT_DISTANCE_H

#include <stddef.h>

/*
 * The optimal-string-alignment distance of a (la bytes) and b (lb bytes):
 * insertions, deletions, substitutions and swaps of neighbours, one each.
 * limit + 1 when farther than limit (or either is longer than 128 bytes).
 */
int edit_distance(const char *a, size_t la, const char *b, size_t lb, int limit);

#endif
