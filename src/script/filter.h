/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which samples perf script shows: --comms, --pid, --tid, --dsos,
 * -S/--symbols (perf applies them while resolving a sample), -C/--cpu and
 * --time.
 */
#ifndef EMBER_SCRIPT_FILTER_H
#define EMBER_SCRIPT_FILTER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <ember/machine.h>
#include "util/perf-time.h"

/* A comma-separated list, split once. */
struct str_list {
	char *buf;
	char **items;
	size_t nr;
};

int str_list__parse(struct str_list *l, const char *s);
void str_list__exit(struct str_list *l);

struct script_filter {
	struct str_list comms, dsos, syms;
	int *pids, *tids;
	size_t nr_pids, nr_tids;
	bool has_pids, has_tids;
	uint8_t *cpus;			/* -C bitmap, NULL: all */
	uint32_t nr_cpu_bits;
	struct time_range *ranges;	/* --time */
	size_t nr_ranges;
};

/* Lists from the options (any may be NULL). 0, or -EINVAL after a message on err. */
int script_filter__init(struct script_filter *f, const char *comms, const char *pids,
			const char *tids, const char *dsos, const char *syms, FILE *err);
void script_filter__exit(struct script_filter *f);

/*
 * -C: cpus in "0-3,6" form, checked against the number of cpus the file
 * was recorded on, as perf does. 0 or -EINVAL (message on err).
 */
int script_filter__set_cpus(struct script_filter *f, const char *list, uint32_t nr_cpus,
			    FILE *err);

/*
 * --time: "start,stop" in seconds (either side may be empty), or percent
 * slices of [first, last] ("10%/2", "0%-10%,30%-40%"). first/last are the
 * recording's first and last sample times (0 when unknown: percents then
 * fail). With reltime, absolute times count from `first`. 0 or -EINVAL.
 */
int script_filter__set_time(struct script_filter *f, const char *str, uint64_t first,
			    uint64_t last, bool reltime);
/* Parse one "sec[.fraction]" time into ns; -EINVAL on garbage. */
static inline int script_time__parse(const char *s, uint64_t *ns)
{
	return perf_time__parse_secs(s, ns);
}

/* The sample at cpu is filtered out by -C. */
static inline bool script_filter__skip_cpu(const struct script_filter *f, uint32_t cpu)
{
	if (!f->cpus || cpu == (uint32_t)-1)
		return false;
	return cpu >= f->nr_cpu_bits || !(f->cpus[cpu / 8] & (1 << (cpu % 8)));
}

bool script_filter__skip_time(const struct script_filter *f, uint64_t time);

/* The sample resolved to al (thread pid/tid, comm, dso, symbol) is filtered out. */
bool script_filter__skip_sample(const struct script_filter *f, const struct ember_addr_location *al);

#endif
