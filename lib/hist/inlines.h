/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The frames perf report shows in place of an unwound user frame: one per
 * inline level at its address (ember_session__inline_frames()), those of
 * inlined functions named "NAME (inlined)" as perf prints them, found
 * once per distinct frame of the stacks.
 */
#ifndef EMBER_HIST_INLINES_H
#define EMBER_HIST_INLINES_H

#include <stdint.h>
#include <ember/session.h>
#include "hist/stacks.h"

struct hist_inlines;

/* An empty cache; NULL on ENOMEM. */
struct hist_inlines *hist_inlines__new(void);
void hist_inlines__delete(struct hist_inlines *c);

/*
 * The frames of the unwound frame whose index in st is base (ip resolved
 * in thread as a user address): their indices, innermost first, at *ids
 * (valid until the next call); returns how many, 0 when base stands as
 * it is, or -ENOMEM.
 */
int hist_inlines__frames(struct hist_inlines *c, struct ember_session *s, struct hist_stacks *st,
			 uint32_t base, struct ember_thread *thread, uint64_t ip,
			 const uint32_t **ids);

#endif
