// SPDX-License-Identifier: GPL-2.0-only
/* An event's name as perf report prints it, in its header lines and in -D's closing counts. */
#include <stdio.h>
#include <linux/perf_event.h>
#include <ember/trace.h>
#include <ember/event.h>
#include "report/run.h"

void report_event_name(struct ember_session *s, const struct ember_data_attr *a, char *buf,
		       size_t size)
{
	struct ember_trace *t;
	const char *sys, *name;

	if (a->name) {
		snprintf(buf, size, "%s", a->name);
		return;
	}
	if (a->attr.type == PERF_TYPE_TRACEPOINT && (t = ember_session__trace(s)) &&
	    !ember_trace__event_name(t, (int)a->attr.config, &sys, &name)) {
		snprintf(buf, size, "%s:%s", sys, name);
		return;
	}
	ember_event_names__attr_name(&a->attr, buf, size);
}
