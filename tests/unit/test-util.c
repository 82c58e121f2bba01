// SPDX-License-Identifier: GPL-2.0-only
#include <limits.h>
#include <stdint.h>
#include "test-util.h"
#include "event/tracefs.h"

long test_tracepoint_id(const char *sys, const char *name)
{
	char root[PATH_MAX];
	uint64_t id;

	if (ember_tracefs__find(root, sizeof(root)) < 0 ||
	    tracefs__event_id(root, sys, name, &id) < 0)
		return -1;
	return (long)id;
}
