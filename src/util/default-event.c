// SPDX-License-Identifier: GPL-2.0-only
/* perf's default event (see default-event.h). */
#include <errno.h>
#include <unistd.h>
#include "util/default-event.h"

int default_event__add(struct ember_evlist *evlist)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.exclude_kernel = geteuid() != 0 && ember_event__paranoid() > 1,
	};
	struct ember_evsel *evsel;

	evsel = ember_evlist__add_attr(evlist, &attr, attr.exclude_kernel ? "cycles:u" : "cycles");
	if (!evsel)
		return -ENOMEM;
	ember_evsel__set_precise_max(evsel, true);
	return 0;
}
