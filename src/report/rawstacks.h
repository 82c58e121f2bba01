/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Samples as recorded (ips, not yet resolved) mapped to the folded stack
 * they resolved to: a profile repeats the same raw stacks, and while the
 * thread's maps are unchanged a repeat resolves the same way.
 */
#ifndef EMBER_REPORT_RAWSTACKS_H
#define EMBER_REPORT_RAWSTACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rep_raw;

struct rep_raw *rep_raw__new(void);
void rep_raw__delete(struct rep_raw *r);
/* Looks the key key[0, n) up: the value stored with it, or -1. */
int64_t rep_raw__find(struct rep_raw *r, const uint64_t *key, size_t n);
/*
 * Whether lookups are still worth their keep: false once half of a
 * stretch of them missed (stacks that rarely repeat whole), and then for
 * good, its memory freed.
 */
bool rep_raw__useful(struct rep_raw *r);
/* Stores key[0, n) (not there yet) with value. 0 or -ENOMEM. */
int rep_raw__add(struct rep_raw *r, const uint64_t *key, size_t n, uint32_t value);

#endif
