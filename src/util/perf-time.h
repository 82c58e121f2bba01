/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf's --time strings, shared by the commands that take one (script,
 * flamegraph): "start,stop" in seconds as perf prints times (either side
 * may be empty), or percent slices of the recording ("10%/2": the second
 * tenth; "0%-10%,30%-40%": those spans), as perf's perf_time__parse_str
 * and perf_time__percent_parse_str read them.
 */
#ifndef EMBER_UTIL_PERF_TIME_H
#define EMBER_UTIL_PERF_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct time_range {
	uint64_t start, end;		/* ns; 0: open */
};

/* One "sec[.fraction]" time (at most 9 fraction digits) into ns; -EINVAL on garbage. */
int perf_time__parse_secs(const char *s, uint64_t *ns);

/*
 * Appends the ranges of str to *ranges (realloc'd; the caller frees).
 * first/last are the recording's first and last sample times (perf.data's
 * SAMPLE_TIME feature; 0 when unknown: percents then fail). With reltime,
 * absolute times count from first. 0, -EINVAL or -ENOMEM.
 */
int perf_time__parse_ranges(const char *str, uint64_t first, uint64_t last, bool reltime,
			    struct time_range **ranges, size_t *nr);

/* True when str is in the percent form (it needs first and last). */
bool perf_time__is_percent(const char *str);

/* True when time is in none of the ranges (none at all: nothing is skipped). */
bool perf_time__skip(const struct time_range *ranges, size_t nr, uint64_t time);

#endif
