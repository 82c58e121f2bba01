/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The clock of deadlines, timeouts and progress: CLOCK_MONOTONIC, which no one can set. */
#ifndef EMBER_CORE_CLOCK_H
#define EMBER_CORE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns. */
static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif
