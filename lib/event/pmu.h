/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Dynamic PMUs, as the kernel describes them under
 * /sys/bus/event_source/devices/<pmu>/: the type number for
 * perf_event_attr.type, format/<term> files saying which config bits a
 * term fills ("config:0-7,32-35"), and events/<alias> files naming term
 * lists ("event=0x3c,umask=0x00"). The parser's view; programs walk the
 * aliases with ember_pmu__for_each_event() (<ember/event.h>).
 */
#ifndef EMBER_LIB_PMU_H
#define EMBER_LIB_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <ember/event.h>

#define EMBER_PMU_DEVICES "/sys/bus/event_source/devices"

/* Which attr word a format term lands in. */
enum ember_pmu_config {
	EMBER_PMU_CONFIG,
	EMBER_PMU_CONFIG1,
	EMBER_PMU_CONFIG2,
};

struct ember_pmu_format {
	char *name;
	enum ember_pmu_config config;
	uint64_t bits;		/* the bits of that word the value fills, low to high */
};

struct ember_pmu_alias {
	char *name;
	char *terms;		/* the events/<name> file, trimmed */
};

struct ember_pmu {
	char *name;
	uint32_t type;
	struct ember_pmu_format *formats;
	int nr_formats;
	struct ember_pmu_alias *aliases;	/* sorted by name */
	int nr_aliases;
};

/*
 * Load the PMU called name from devices_dir (NULL: the sysfs default).
 * Returns it (free with ember_pmu__delete()), or NULL with errno set:
 * ENOENT when there is no such PMU.
 */
struct ember_pmu *ember_pmu__load(const char *devices_dir, const char *name);
void ember_pmu__delete(struct ember_pmu *pmu);

/* The format term or alias called name (len bytes), or NULL. */
const struct ember_pmu_format *ember_pmu__format(const struct ember_pmu *pmu, const char *name,
						  size_t len);
const struct ember_pmu_alias *ember_pmu__alias(const struct ember_pmu *pmu, const char *name,
						size_t len);

/* The largest value a format term holds. */
uint64_t ember_pmu_format__max(const struct ember_pmu_format *fmt);

/*
 * Scatter value over the format's bits of the attr word, replacing what
 * was there. Returns 0, or -ERANGE when value does not fit.
 */
int ember_pmu_format__encode(const struct ember_pmu_format *fmt, uint64_t value,
			     struct perf_event_attr *attr);

/* Whether this is the CPU's core PMU ("cpu", "cpu_core", "cpu_atom"). */
bool ember_pmu__is_core(const struct ember_pmu *pmu);

/*
 * The names of every PMU under devices_dir (NULL: the sysfs default),
 * sorted. Returns how many and sets *names (free with
 * ember_pmu__free_names()), or -errno.
 */
int ember_pmu__names(const char *devices_dir, char ***names);
void ember_pmu__free_names(char **names, int nr);

#endif
