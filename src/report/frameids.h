/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A sample's addresses as frame indices of the folded stacks (stacks.h),
 * resolved once per address and maps generation: a system-wide profile
 * has tens of thousands of distinct stacks but far fewer distinct
 * addresses, each in many stacks.
 */
#ifndef EMBER_REPORT_FRAMEIDS_H
#define EMBER_REPORT_FRAMEIDS_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/session.h>
#include "report/report.h"
#include "report/stacks.h"

struct rep_frameids;

/* An empty cache; NULL on ENOMEM. */
struct rep_frameids *rep_frameids__new(void);
void rep_frameids__delete(struct rep_frameids *c);

/*
 * The report's frame of a resolved address; need_end: the symbol's end
 * is looked up (else sym_end = sym_start, a frame's identity ignores it).
 */
void rep_frame__from_al(struct rep_frame *f, const struct ember_addr_location *al, bool need_end);

/*
 * The index in s of ip resolved in thread's maps for cpumode, as
 * rep_stacks__frame() of rep_frame__from_al() of ember_thread__resolve()
 * would give it; or -ENOMEM.
 */
int64_t rep_frameids__ip(struct rep_frameids *c, struct rep_stacks *s, struct ember_thread *thread,
			 uint8_t cpumode, uint64_t ip, bool need_end);

/*
 * A new sample of thread comes: the maps may have changed since the last
 * one's lookups. Their generation is asked for once a sample (and after
 * each lookup that resolved an address), not for each address.
 */
void rep_frameids__sample(struct rep_frameids *c, const struct ember_thread *thread);

#endif
