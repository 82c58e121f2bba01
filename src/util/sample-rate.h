/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EMBER_UTIL_SAMPLE_RATE_H
#define EMBER_UTIL_SAMPLE_RATE_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

/*
 * How often an event samples, by perf's evsel__config() rule (record and
 * top alike): a period its spec gave (a tracepoint's 1) holds unless -F
 * or -c was given; -c sets that period, otherwise the event samples freq
 * times a second, the period of each sample recorded.
 */
void sample_rate__config(struct perf_event_attr *a, bool period_given, uint64_t period,
			 bool freq_given, unsigned int freq);

#endif
