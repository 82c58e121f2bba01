// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Dynamic PMUs from sysfs: type, format terms, event aliases. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/log.h"
#include "event/pmu.h"

/* Read a small sysfs file at dirfd/name into buf, trimmed. Returns length or -errno. */
static ssize_t read_small(int dirfd, const char *name, char *buf, size_t size)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return n;
}

/* Parse "config1:0-7,32-35" into fmt. Returns 0 or -EINVAL. */
static int parse_format(const char *text, struct pmu_format *fmt)
{
	const char *colon = strchr(text, ':');
	const char *p;
	size_t len;

	if (!colon)
		return -EINVAL;
	len = colon - text;
	if (len == 6 && !strncmp(text, "config", 6))
		fmt->config = PMU_CONFIG;
	else if (len == 7 && !strncmp(text, "config1", 7))
		fmt->config = PMU_CONFIG1;
	else if (len == 7 && !strncmp(text, "config2", 7))
		fmt->config = PMU_CONFIG2;
	else
		return -EINVAL;
	fmt->bits = 0;
	for (p = colon + 1; *p;) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return -EINVAL;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1)
				return -EINVAL;
			p = end;
		}
		if (lo > hi || hi > 63)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++)
			fmt->bits |= 1ULL << b;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return fmt->bits ? 0 : -EINVAL;
}

/*
 * Calls fn for each entry of the PMU's subdirectory (format/, events/) with
 * the directory's fd to read it by; a missing directory has no entries.
 * Stops at fn's first non-zero return and returns it.
 */
static int for_each_entry(int pmufd, const char *subdir,
			  int (*fn)(struct pmu *pmu, int dirfd, const char *name), struct pmu *pmu)
{
	int fd = openat(pmufd, subdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0;
	DIR *dir;
	struct dirent *d;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -errno;
	}
	while (!err && (d = readdir(dir)))
		err = fn(pmu, dirfd(dir), d->d_name);
	closedir(dir);
	return err;
}

static int add_format(struct pmu *pmu, int dirfd, const char *name)
{
	struct pmu_format fmt, *grown;
	char text[256];

	if (name[0] == '.' || read_small(dirfd, name, text, sizeof(text)) < 0)
		return 0;
	if (parse_format(text, &fmt)) {
		pr_debug("pmu %s: cannot parse format %s: '%s'\n", pmu->name, name, text);
		return 0;
	}
	grown = realloc(pmu->formats, (pmu->nr_formats + 1) * sizeof(*grown));
	if (grown)
		pmu->formats = grown;
	if (!grown || !(fmt.name = strdup(name)))
		return -ENOMEM;
	pmu->formats[pmu->nr_formats++] = fmt;
	return 0;
}

static int load_formats(int pmufd, struct pmu *pmu)
{
	return for_each_entry(pmufd, "format", add_format, pmu);
}

static int alias_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pmu_alias *)a)->name, ((const struct pmu_alias *)b)->name);
}

static int add_alias(struct pmu *pmu, int dirfd, const char *name)
{
	struct pmu_alias alias, *grown;
	char text[1024];

	/* Skip ".", "..", and the companions "name.scale", "name.unit", ... */
	if (strchr(name, '.') || read_small(dirfd, name, text, sizeof(text)) < 0)
		return 0;
	grown = realloc(pmu->aliases, (pmu->nr_aliases + 1) * sizeof(*grown));
	if (grown)
		pmu->aliases = grown;
	alias.name = strdup(name);
	alias.terms = strdup(text);
	if (!grown || !alias.name || !alias.terms) {
		free(alias.name);
		free(alias.terms);
		return -ENOMEM;
	}
	pmu->aliases[pmu->nr_aliases++] = alias;
	return 0;
}

static int load_aliases(int pmufd, struct pmu *pmu)
{
	int err = for_each_entry(pmufd, "events", add_alias, pmu);

	if (!err && pmu->nr_aliases)
		qsort(pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases), alias_cmp);
	return err;
}

struct pmu *pmu__load(const char *devices_dir, const char *name)
{
	char path[PATH_MAX], text[32], *end;
	struct pmu *pmu;
	int fd, err;

	if (!devices_dir)
		devices_dir = EMBER_PMU_DEVICES;
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") ||
	    snprintf(path, sizeof(path), "%s/%s", devices_dir, name) >= (int)sizeof(path)) {
		errno = ENOENT;
		return NULL;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	pmu = calloc(1, sizeof(*pmu));
	if (!pmu || !(pmu->name = strdup(name))) {
		err = -ENOMEM;
		goto out_err;
	}
	err = read_small(fd, "type", text, sizeof(text));
	if (err < 0)
		goto out_err;
	errno = 0;
	pmu->type = strtoul(text, &end, 10);
	if (errno || end == text) {
		err = -EINVAL;
		goto out_err;
	}
	err = load_formats(fd, pmu);
	if (!err)
		err = load_aliases(fd, pmu);
	if (err)
		goto out_err;
	close(fd);
	return pmu;

out_err:
	close(fd);
	pmu__delete(pmu);
	errno = -err;
	return NULL;
}

void pmu__delete(struct pmu *pmu)
{
	if (!pmu)
		return;
	for (int i = 0; i < pmu->nr_formats; i++)
		free(pmu->formats[i].name);
	for (int i = 0; i < pmu->nr_aliases; i++) {
		free(pmu->aliases[i].name);
		free(pmu->aliases[i].terms);
	}
	free(pmu->formats);
	free(pmu->aliases);
	free(pmu->name);
	free(pmu);
}

const struct pmu_format *pmu__format(const struct pmu *pmu, const char *name, size_t len)
{
	for (int i = 0; i < pmu->nr_formats; i++)
		if (strlen(pmu->formats[i].name) == len && !memcmp(pmu->formats[i].name, name, len))
			return &pmu->formats[i];
	return NULL;
}

const struct pmu_alias *pmu__alias(const struct pmu *pmu, const char *name, size_t len)
{
	for (int i = 0; i < pmu->nr_aliases; i++)
		if (strlen(pmu->aliases[i].name) == len && !memcmp(pmu->aliases[i].name, name, len))
			return &pmu->aliases[i];
	return NULL;
}

uint64_t pmu_format__max(const struct pmu_format *fmt)
{
	int nbits = __builtin_popcountll(fmt->bits);

	return nbits >= 64 ? UINT64_MAX : (1ULL << nbits) - 1;
}

static uint64_t *config_word(struct perf_event_attr *attr, enum pmu_config config)
{
	switch (config) {
	case PMU_CONFIG1:
		return (uint64_t *)&attr->config1;
	case PMU_CONFIG2:
		return (uint64_t *)&attr->config2;
	default:
		return (uint64_t *)&attr->config;
	}
}

int pmu_format__encode(const struct pmu_format *fmt, uint64_t value, struct perf_event_attr *attr)
{
	uint64_t *word = config_word(attr, fmt->config);
	uint64_t out = 0;
	int vbit = 0;

	if (value > pmu_format__max(fmt))
		return -ERANGE;
	for (int b = 0; b < 64; b++) {
		if (!(fmt->bits & (1ULL << b)))
			continue;
		if (value & (1ULL << vbit))
			out |= 1ULL << b;
		vbit++;
	}
	*word = (*word & ~fmt->bits) | out;
	return 0;
}

bool pmu__is_core(const struct pmu *pmu)
{
	return !strcmp(pmu->name, "cpu") || !strcmp(pmu->name, "cpu_core") ||
	       !strcmp(pmu->name, "cpu_atom");
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pmu__names(const char *devices_dir, char ***names)
{
	DIR *dir = opendir(devices_dir ? devices_dir : EMBER_PMU_DEVICES);
	struct dirent *d;
	char **list = NULL;
	int nr = 0;

	*names = NULL;
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		char **grown;

		if (d->d_name[0] == '.')
			continue;
		grown = realloc(list, (nr + 1) * sizeof(*list));
		if (grown)
			list = grown;
		if (!grown || !(list[nr] = strdup(d->d_name))) {
			closedir(dir);
			pmu__free_names(list, nr);
			return -ENOMEM;
		}
		nr++;
	}
	closedir(dir);
	if (nr)
		qsort(list, nr, sizeof(*list), name_cmp);
	*names = list;
	return nr;
}

void pmu__free_names(char **names, int nr)
{
	if (!names)
		return;
	for (int i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

int ember_pmu__for_each_event(const char *devices_dir, ember_pmu_event_fn fn, void *arg)
{
	char **pmus;
	int nr = pmu__names(devices_dir, &pmus), ret = 0;

	if (nr < 0)
		return nr;
	for (int i = 0; i < nr && !ret; i++) {
		/* a PMU whose directory cannot be read has nothing to list */
		struct pmu *pmu = pmu__load(devices_dir, pmus[i]);
		bool core;

		if (!pmu)
			continue;
		core = pmu__is_core(pmu);
		for (int j = 0; j < pmu->nr_aliases && !ret; j++)
			ret = fn(pmu->name, pmu->aliases[j].name, core, arg);
		pmu__delete(pmu);
	}
	pmu__free_names(pmus, nr);
	return ret;
}
