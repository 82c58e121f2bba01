/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Samples as recorded (ips, not yet resolved) mapped to the folded stack
 * they resolved to: a profile repeats the same raw stacks, and while the
 * thread's maps are unchanged a repeat resolves the same way.
 */
#ifndef EMBER_HIST_RAWSTACKS_H
#define EMBER_HIST_RAWSTACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hist_raw;

struct hist_raw *hist_raw__new(void);
void hist_raw__delete(struct hist_raw *r);
/* Looks the key key[0, n) up: the value stored with it, or -1. */
int64_t hist_raw__find(struct hist_raw *r, const uint64_t *key, size_t n);
/*
 * Whether lookups are still worth their keep: false once half of a
 * stretch of them missed (stacks that rarely repeat whole), and then for
 * good, its memory freed.
 */
bool hist_raw__useful(struct hist_raw *r);
/* Stores key[0, n) (not there yet) with value. 0 or -ENOMEM. */
int hist_raw__add(struct hist_raw *r, const uint64_t *key, size_t n, uint32_t value);

#endif
