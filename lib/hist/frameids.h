/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A sample's addresses as frame indices of the folded stacks (stacks.h),
 * resolved once per address and maps generation: a system-wide profile
 * has tens of thousands of distinct stacks but far fewer distinct
 * addresses, each in many stacks.
 */
#ifndef EMBER_HIST_FRAMEIDS_H
#define EMBER_HIST_FRAMEIDS_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/session.h>
#include <ember/hist.h>
#include "hist/stacks.h"

struct hist_frameids;

/* An empty cache; NULL on ENOMEM. */
struct hist_frameids *hist_frameids__new(void);
void hist_frameids__delete(struct hist_frameids *c);

/*
 * The index in s of ip resolved in thread's maps for cpumode, as
 * hist_stacks__frame() of ember_hist_frame__from_al() of
 * ember_thread__resolve() would give it; or -ENOMEM.
 */
int64_t hist_frameids__ip(struct hist_frameids *c, struct hist_stacks *s,
			  struct ember_thread *thread, uint8_t cpumode, uint64_t ip);

/*
 * A new sample of thread comes: the maps may have changed since the last
 * one's lookups. Their generation is asked for once a sample (and after
 * each lookup that resolved an address), not for each address.
 */
void hist_frameids__sample(struct hist_frameids *c, const struct ember_thread *thread);

#endif
