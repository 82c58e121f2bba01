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
enum pmu_config {
	PMU_CONFIG,
	PMU_CONFIG1,
	PMU_CONFIG2,
};

struct pmu_format {
	char *name;
	enum pmu_config config;
	uint64_t bits;		/* the bits of that word the value fills, low to high */
};

struct pmu_alias {
	char *name;
	char *terms;		/* the events/<name> file, trimmed */
};

struct pmu {
	char *name;
	uint32_t type;
	struct pmu_format *formats;
	int nr_formats;
	struct pmu_alias *aliases;	/* sorted by name */
	int nr_aliases;
};

/*
 * Load the PMU called name from devices_dir (NULL: the sysfs default).
 * Returns it (free with pmu__delete()), or NULL with errno set:
 * ENOENT when there is no such PMU.
 */
struct pmu *pmu__load(const char *devices_dir, const char *name);
void pmu__delete(struct pmu *pmu);

/* The format term or alias called name (len bytes), or NULL. */
const struct pmu_format *pmu__format(const struct pmu *pmu, const char *name, size_t len);
const struct pmu_alias *pmu__alias(const struct pmu *pmu, const char *name, size_t len);

/* The largest value a format term holds. */
uint64_t pmu_format__max(const struct pmu_format *fmt);

/*
 * Scatter value over the format's bits of the attr word, replacing what
 * was there. Returns 0, or -ERANGE when value does not fit.
 */
int pmu_format__encode(const struct pmu_format *fmt, uint64_t value, struct perf_event_attr *attr);

/* Whether this is the CPU's core PMU ("cpu", "cpu_core", "cpu_atom"). */
bool pmu__is_core(const struct pmu *pmu);

/*
 * The names of every PMU under devices_dir (NULL: the sysfs default),
 * sorted. Returns how many and sets *names (free with
 * pmu__free_names()), or -errno.
 */
int pmu__names(const char *devices_dir, char ***names);
void pmu__free_names(char **names, int nr);

#endif
