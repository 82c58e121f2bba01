// SPDX-License-Identifier: GPL-2.0-only
/* perf's choice between a sampling period and a frequency (see sample-rate.h). */
#include "util/sample-rate.h"

void sample_rate__config(struct perf_event_attr *a, bool period_given, uint64_t period,
			 bool freq_given, unsigned int freq)
{
	if (a->sample_period && !freq_given && !period_given)
		return;
	if (period_given) {
		a->freq = 0;
		a->sample_period = period;
	} else {
		a->freq = 1;
		a->sample_freq = freq;
		a->sample_type |= PERF_SAMPLE_PERIOD;
	}
}
