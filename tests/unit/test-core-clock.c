// SPDX-License-Identifier: GPL-2.0-only
/* lib/core's clock: monotonic, in ns, and it tracks a real sleep. */
#include <time.h>
#include "core/clock.h"
#include "test.h"

TEST(core_clock_monotonic_ns)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	uint64_t a = clock_now_ns(), b, c;

	b = clock_now_ns();
	CHECK(b >= a);
	nanosleep(&ts, NULL);
	c = clock_now_ns();
	/* slept 20 ms: at least that, and not seconds (a unit error would be) */
	CHECK(c - b >= 20 * 1000 * 1000ULL);
	CHECK(c - b < 5 * 1000 * 1000 * 1000ULL);
}
