// SPDX-License-Identifier: GPL-2.0-only
/* Counter reads: every (cpu, thread) fd into the raw readings of its stat_counter. */
#include "stat/stat-evsel.h"
#include "stat/stat-read.h"

/* Tool events read as perf's do: enabled = running = value, so 0 is <not counted>. */
static void read_tool(struct stat_counter *c, enum ember_tool_event tool,
		      const struct stat_tool_times *t)
{
	uint64_t val = 0;

	switch (tool) {
	case EMBER_TOOL_DURATION_TIME:
		val = t->duration_ns;
		break;
	case EMBER_TOOL_USER_TIME:
		val = t->user_ns;
		break;
	case EMBER_TOOL_SYSTEM_TIME:
		val = t->system_ns;
		break;
	default:
		break;
	}
	c->raw[0].val = c->raw[0].ena = c->raw[0].run = val;
}

int stat_read__counters(struct ember_evlist *evlist, const struct stat_tool_times *tools)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos) {
		struct stat_evsel *se = stat_evsel(pos);
		struct stat_counter *c = se->counter;

		if (se->tool != EMBER_TOOL_NONE) {
			read_tool(c, se->tool, tools);
			continue;
		}
		for (int cpu = 0; cpu < c->nr_cpus && cpu < ember_evsel__nr_cpus(pos); cpu++) {
			for (int t = 0; t < c->nr_threads && t < ember_evsel__nr_threads(pos); t++) {
				struct ember_counts *raw = &c->raw[cpu * c->nr_threads + t];

				if (ember_evsel__read(pos, cpu, t, raw))
					*raw = (struct ember_counts){ 0 };
			}
		}
	}
	return 0;
}
