/* SPDX-License-Identifier: GPL-2.0-only */
/* A histogram of synthetic samples, for the tests of what report prints and browses. */
#ifndef EMBER_UNIT_HIST_FIXTURE_H
#define EMBER_UNIT_HIST_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/hist.h>

struct hist_fixture {
	struct ember_hist_layout layout;
	struct ember_hist *h;
};

/*
 * An empty histogram sorted by sort (NULL: comm,dso,sym), callchains in
 * mode, cumulated with children (then from the callers). 0 or -1.
 */
int hist_fixture__setup(struct hist_fixture *fx, bool children, enum ember_callchain_mode mode,
			const char *sort);
/* times samples of period 100 in chain[0], chain (n frames, leaf first), of thread "prog". */
void hist_fixture__add(struct hist_fixture *fx, const struct ember_hist_frame *const *chain,
		       uint32_t n, int times);

#endif
