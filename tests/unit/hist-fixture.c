// SPDX-License-Identifier: GPL-2.0-only
/* A histogram of synthetic samples (see hist-fixture.h). */
#include "hist-fixture.h"

int hist_fixture__setup(struct hist_fixture *fx, bool children, enum ember_callchain_mode mode,
			const char *sort)
{
	struct ember_hist_layout_opts lo = {
		.sz = sizeof(lo),
		.sort_order = sort,
		.children = children,
	};
	struct ember_hist_opts ho = {
		.sz = sizeof(ho),
		.layout = &fx->layout,
		.chain =
		{
			.mode = mode,
			.order = children ? EMBER_CALLCHAIN_CALLER : EMBER_CALLCHAIN_CALLEE,
			.min_percent = 0.5,
		},
		.use_callchain = mode != EMBER_CALLCHAIN_NONE,
		.children = children,
	};
	char bad[32];

	if (ember_hist_layout__setup(&fx->layout, &lo, bad, sizeof(bad)))
		return -1;
	fx->h = ember_hist__new(&ho);
	return fx->h ? 0 : -1;
}

void hist_fixture__add(struct hist_fixture *fx, const struct ember_hist_frame *const *chain,
		       uint32_t n, int times)
{
	for (int k = 0; k < times; k++) {
		struct ember_hist_sample s = {
			.sz = sizeof(s),
			.self = chain[0],
			.chain = chain,
			.nr_chain = n,
			.period = 100,
			.nr_samples = 1,
			.pid = 42,
			.tid = 42,
			.cpu = 0,
			.comm = "prog",
			.thread = fx,
		};

		ember_hist__add(fx->h, &s);
	}
}

