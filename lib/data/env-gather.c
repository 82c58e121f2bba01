// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * This machine's description for the feature sections, gathered from
 * uname, /proc and sysfs the way perf record does, so that perf report
 * prints the same header for an ember recording as for its own.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <ember/common.h>
#include <ember/perf-data.h>
#include "data/format.h"

#define SYSFS_CPU "/sys/devices/system/cpu"
#define SYSFS_NODE "/sys/devices/system/node"
#define MAX_CACHE_LEVELS 4

/* The first line of a file, without its newline and trailing blanks; NULL if unreadable. */
static char *read_line(const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	n = getline(&line, &cap, f);
	fclose(f);
	if (n <= 0) {
		free(line);
		return NULL;
	}
	while (n > 0 && isspace((unsigned char)line[n - 1]))
		line[--n] = '\0';
	return line;
}

static int read_int(const char *path, int *v)
{
	char *s = read_line(path);
	char *end;

	if (!s)
		return -ENOENT;
	*v = (int)strtol(s, &end, 0);
	free(s);
	return 0;
}

/* The value after "key" and a colon in /proc/cpuinfo or /proc/meminfo, trimmed. */
static char *proc_value(const char *file, const char *key)
{
	size_t klen = strlen(key), cap = 0;
	char *line = NULL, *val = NULL;
	FILE *f = fopen(file, "re");

	if (!f)
		return NULL;
	while (getline(&line, &cap, f) > 0) {
		char *p;

		if (strncmp(line, key, klen) || !(p = strchr(line + klen, ':')))
			continue;
		/* only blanks may sit between the key and its colon */
		for (char *q = line + klen; q < p; q++) {
			if (!isspace((unsigned char)*q))
				goto next;
		}
		p++;
		while (isspace((unsigned char)*p))
			p++;
		val = strdup(p);
		if (val) {
			size_t n = strlen(val);

			while (n && isspace((unsigned char)val[n - 1]))
				val[--n] = '\0';
		}
		break;
next:;
	}
	free(line);
	fclose(f);
	return val;
}

/* The largest cpu of a list like "0-3,8" plus one (0 if unreadable). */
static uint32_t list_max_plus_one(const char *path)
{
	char *s = read_line(path), *p;
	long max = -1;

	if (!s)
		return 0;
	for (p = s; *p;) {
		long v = strtol(p, &p, 10);

		if (v > max)
			max = v;
		if (*p == '-' || *p == ',')
			p++;
		else if (*p)
			break;
	}
	free(s);
	return max + 1;
}

static bool cpu_in_list(const char *list, long cpu)
{
	const char *p = list;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			return false;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return true;
		if (*end != ',')
			return false;
		p = end + 1;
	}
	return false;
}

/* Append s to a list unless it is already there; takes ownership of s. */
static int strv_add_unique(char ***v, uint32_t *nr, char *s)
{
	char **nv;

	for (uint32_t i = 0; i < *nr; i++) {
		if (!strcmp((*v)[i], s)) {
			free(s);
			return 0;
		}
	}
	nv = realloc(*v, (*nr + 1) * sizeof(*nv));
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	nv[(*nr)++] = s;
	*v = nv;
	return 0;
}

static int topo_list(char ***v, uint32_t *nr, int cpu, const char *name, const char *fallback)
{
	char path[256];
	char *s;

	snprintf(path, sizeof(path), SYSFS_CPU "/cpu%d/topology/%s", cpu, name);
	if (access(path, F_OK) && fallback)
		snprintf(path, sizeof(path), SYSFS_CPU "/cpu%d/topology/%s", cpu, fallback);
	s = read_line(path);
	return s ? strv_add_unique(v, nr, s) : 0;
}

static int gather_topology(struct ember_env *env)
{
	char *online = read_line(SYSFS_CPU "/online");
	char path[256];
	bool dies;
	int err = 0;

	if (!online)
		return 0;
	snprintf(path, sizeof(path), SYSFS_CPU "/cpu0/topology/die_cpus_list");
	dies = !access(path, F_OK);
	for (uint32_t cpu = 0; cpu < env->nr_cpus_avail && !err; cpu++) {
		if (!cpu_in_list(online, cpu))
			continue;
		err = topo_list(&env->sibling_sockets, &env->nr_sibling_sockets, cpu,
				"package_cpus_list", "core_siblings_list");
		if (!err && dies)
			err = topo_list(&env->sibling_dies, &env->nr_sibling_dies, cpu,
					"die_cpus_list", NULL);
		if (!err)
			err = topo_list(&env->sibling_threads, &env->nr_sibling_threads, cpu,
					"core_cpus_list", "thread_siblings_list");
	}
	free(online);
	if (err)
		return err;
	env->cpu = calloc(env->nr_cpus_avail ? env->nr_cpus_avail : 1, sizeof(*env->cpu));
	if (!env->cpu)
		return -ENOMEM;
	env->nr_cpu = env->nr_cpus_avail;
	for (uint32_t cpu = 0; cpu < env->nr_cpu; cpu++) {
		struct ember_env_cpu *c = &env->cpu[cpu];
		int v;

		snprintf(path, sizeof(path), SYSFS_CPU "/cpu%u/topology/core_id", cpu);
		c->core_id = read_int(path, &v) ? -1 : v;
		snprintf(path, sizeof(path), SYSFS_CPU "/cpu%u/topology/physical_package_id", cpu);
		c->socket_id = read_int(path, &v) ? -1 : v;
		snprintf(path, sizeof(path), SYSFS_CPU "/cpu%u/topology/die_id", cpu);
		c->die_id = read_int(path, &v) ? -1 : v;
	}
	env->has_die_ids = dies && env->nr_sibling_dies;
	ember_env__set_feat(env, EMBER_FEAT_CPU_TOPOLOGY, true);
	return 0;
}

static int gather_numa(struct ember_env *env)
{
	char *online = read_line(SYSFS_NODE "/online");
	uint32_t max = list_max_plus_one(SYSFS_NODE "/online");

	if (!online)
		return 0;
	env->numa_nodes = calloc(max ? max : 1, sizeof(*env->numa_nodes));
	if (!env->numa_nodes) {
		free(online);
		return -ENOMEM;
	}
	for (uint32_t node = 0; node < max; node++) {
		struct ember_env_numa_node *n = &env->numa_nodes[env->nr_numa_nodes];
		char path[256], *line = NULL;
		size_t cap = 0;
		FILE *f;

		if (!cpu_in_list(online, node))
			continue;
		n->node = node;
		snprintf(path, sizeof(path), SYSFS_NODE "/node%u/meminfo", node);
		f = fopen(path, "re");
		while (f && getline(&line, &cap, f) > 0) {
			char field[32];
			uint64_t v;

			if (sscanf(line, "%*s %*d %31s %" SCNu64, field, &v) != 2)
				continue;
			if (!strcmp(field, "MemTotal:"))
				n->mem_total = v;
			else if (!strcmp(field, "MemFree:"))
				n->mem_free = v;
		}
		free(line);
		if (f)
			fclose(f);
		snprintf(path, sizeof(path), SYSFS_NODE "/node%u/cpulist", node);
		n->cpus = read_line(path);
		if (!n->cpus)
			n->cpus = strdup("");
		if (!n->cpus) {
			free(online);
			return -ENOMEM;
		}
		env->nr_numa_nodes++;
	}
	free(online);
	ember_env__set_feat(env, EMBER_FEAT_NUMA_TOPOLOGY, true);
	return 0;
}

static int gather_pmus(struct ember_env *env)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *de;
	int err = 0;

	if (!d)
		return 0;
	/* directory order, as perf lists them */
	while ((de = readdir(d)) && !err) {
		struct ember_env_pmu *p;
		char path[512];
		int type;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", de->d_name);
		if (read_int(path, &type))
			continue;
		p = realloc(env->pmu_mappings, (env->nr_pmu_mappings + 1) * sizeof(*p));
		if (!p) {
			err = -ENOMEM;
			break;
		}
		env->pmu_mappings = p;
		p += env->nr_pmu_mappings;
		p->type = type;
		p->name = strdup(de->d_name);
		if (!p->name)
			err = -ENOMEM;
		else
			env->nr_pmu_mappings++;
	}
	closedir(d);
	if (!err)
		ember_env__set_feat(env, EMBER_FEAT_PMU_MAPPINGS, true);
	return err;
}

/* "name=value" for each file of a pmu's caps directory; 0 entries when it has none. */
static int read_caps(const char *pmu, char ***caps, uint32_t *nr)
{
	char dir[512];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/bus/event_source/devices/%s/caps", pmu);
	d = opendir(dir);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		char path[1024], *v, *s, **nv;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		v = read_line(path);
		if (!v)
			continue;
		if (asprintf(&s, "%s=%s", de->d_name, v) < 0)
			s = NULL;
		free(v);
		nv = s ? realloc(*caps, (*nr + 1) * sizeof(*nv)) : NULL;
		if (!nv) {
			free(s);
			closedir(d);
			return -ENOMEM;
		}
		nv[(*nr)++] = s;
		*caps = nv;
	}
	closedir(d);
	return 0;
}

static int gather_pmu_caps(struct ember_env *env)
{
	int err;

	for (uint32_t i = 0; i < env->nr_pmu_mappings; i++) {
		const char *name = env->pmu_mappings[i].name;
		struct ember_env_pmu_caps *pc, c = { 0 };

		if (!strcmp(name, "cpu")) {
			err = read_caps(name, &env->cpu_pmu_caps, &env->nr_cpu_pmu_caps);
			if (err == -ENOMEM)
				return err;
			ember_env__set_feat(env, EMBER_FEAT_CPU_PMU_CAPS, true);
			continue;
		}
		err = read_caps(name, &c.caps, &c.nr_caps);
		if (err == -ENOMEM)
			return err;
		if (err || !c.nr_caps) {
			free(c.caps);
			continue;
		}
		c.pmu_name = strdup(name);
		pc = c.pmu_name ? realloc(env->pmu_caps, (env->nr_pmus_with_caps + 1) *
					  sizeof(*pc)) : NULL;
		if (!pc) {
			for (uint32_t j = 0; j < c.nr_caps; j++)
				free(c.caps[j]);
			free(c.caps);
			free(c.pmu_name);
			return -ENOMEM;
		}
		env->pmu_caps = pc;
		env->pmu_caps[env->nr_pmus_with_caps++] = c;
	}
	ember_env__set_feat(env, EMBER_FEAT_PMU_CAPS, true);
	return 0;
}

static bool same_cache(const struct ember_env_cache *a, const struct ember_env_cache *b)
{
	return a->level == b->level && a->line_size == b->line_size && a->sets == b->sets &&
	       a->ways == b->ways && !strcmp(a->type, b->type) && !strcmp(a->size, b->size) &&
	       !strcmp(a->map, b->map);
}

static int read_cache(struct ember_env_cache *c, uint32_t cpu, int idx)
{
	char path[256];
	int v;

#define CACHE_FILE(name) \
	snprintf(path, sizeof(path), SYSFS_CPU "/cpu%u/cache/index%d/" name, cpu, idx)
	CACHE_FILE("level");
	if (read_int(path, &v))
		return -ENOENT;
	c->level = v;
	CACHE_FILE("coherency_line_size");
	c->line_size = read_int(path, &v) ? 0 : v;
	CACHE_FILE("number_of_sets");
	c->sets = read_int(path, &v) ? 0 : v;
	CACHE_FILE("ways_of_associativity");
	c->ways = read_int(path, &v) ? 0 : v;
	CACHE_FILE("type");
	c->type = read_line(path);
	CACHE_FILE("size");
	c->size = read_line(path);
	CACHE_FILE("shared_cpu_list");
	c->map = read_line(path);
#undef CACHE_FILE
	if (!c->type || !c->size || !c->map) {
		free(c->type);
		free(c->size);
		free(c->map);
		return -ENOENT;
	}
	return 0;
}

static int gather_caches(struct ember_env *env)
{
	uint32_t ncpu = list_max_plus_one(SYSFS_CPU "/possible");

	for (uint32_t cpu = 0; cpu < ncpu; cpu++) {
		for (int idx = 0; idx < MAX_CACHE_LEVELS; idx++) {
			struct ember_env_cache c = { 0 }, *nc;
			bool dup = false;

			if (read_cache(&c, cpu, idx))
				break;
			for (uint32_t i = 0; i < env->nr_caches && !dup; i++)
				dup = same_cache(&c, &env->caches[i]);
			nc = dup ? NULL : realloc(env->caches, (env->nr_caches + 1) * sizeof(*nc));
			if (!nc) {
				free(c.type);
				free(c.size);
				free(c.map);
				if (dup)
					continue;
				return -ENOMEM;
			}
			env->caches = nc;
			env->caches[env->nr_caches++] = c;
		}
	}
	if (!env->nr_caches)
		return 0;
	/* stable sort by level: insertion sort keeps the discovery order within a level */
	for (uint32_t i = 1; i < env->nr_caches; i++) {
		struct ember_env_cache c = env->caches[i];
		uint32_t j = i;

		for (; j > 0 && env->caches[j - 1].level > c.level; j--)
			env->caches[j] = env->caches[j - 1];
		env->caches[j] = c;
	}
	ember_env__set_feat(env, EMBER_FEAT_CACHE, true);
	return 0;
}

static int gather_memory(struct ember_env *env)
{
	char *bs = read_line("/sys/devices/system/memory/block_size_bytes");
	DIR *d;
	struct dirent *de;

	if (!bs)
		return 0;
	env->memory_bsize = strtoull(bs, NULL, 16);
	free(bs);
	d = opendir(SYSFS_NODE);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct ember_env_mem_node *n;
		unsigned int node, mem, max = 0;
		struct dirent *me;
		char path[512];
		DIR *nd;

		if (sscanf(de->d_name, "node%u", &node) != 1)
			continue;
		snprintf(path, sizeof(path), SYSFS_NODE "/%s", de->d_name);
		nd = opendir(path);
		if (!nd)
			continue;
		while ((me = readdir(nd))) {
			if (sscanf(me->d_name, "memory%u", &mem) == 1 && mem > max)
				max = mem;
		}
		n = realloc(env->memory_nodes, (env->nr_memory_nodes + 1) * sizeof(*n));
		if (!n) {
			closedir(nd);
			closedir(d);
			return -ENOMEM;
		}
		env->memory_nodes = n;
		n += env->nr_memory_nodes;
		n->node = node;
		n->size = (uint64_t)max + 1;
		n->set = calloc((n->size + 63) / 64, 8);
		if (!n->set) {
			closedir(nd);
			closedir(d);
			return -ENOMEM;
		}
		env->nr_memory_nodes++;
		rewinddir(nd);
		while ((me = readdir(nd))) {
			if (sscanf(me->d_name, "memory%u", &mem) == 1)
				n->set[mem / 64] |= 1ULL << (mem % 64);
		}
		closedir(nd);
	}
	closedir(d);
	/* by node number */
	for (uint64_t i = 1; i < env->nr_memory_nodes; i++) {
		struct ember_env_mem_node n = env->memory_nodes[i];
		uint64_t j = i;

		for (; j > 0 && env->memory_nodes[j - 1].node > n.node; j--)
			env->memory_nodes[j] = env->memory_nodes[j - 1];
		env->memory_nodes[j] = n;
	}
	ember_env__set_feat(env, EMBER_FEAT_MEM_TOPOLOGY, true);
	return 0;
}

/* "model name" with runs of blanks squashed, as perf's write_cpudesc. */
static void gather_cpudesc(struct ember_env *env)
{
	char *s = proc_value("/proc/cpuinfo", "model name");
	char *w = s;

	if (!s)
		return;
	for (char *p = s; *p; p++) {
		if (isspace((unsigned char)*p)) {
			if (w > s && w[-1] == ' ')
				continue;
			*w++ = ' ';
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
	env->cpu_desc = s;
	ember_env__set_feat(env, EMBER_FEAT_CPUDESC, true);
}

/* x86: "vendor,family,model,stepping"; arm64: the MIDR. */
static int gather_cpuid(struct ember_env *env)
{
	char *vendor = proc_value("/proc/cpuinfo", "vendor_id");
	char *family = proc_value("/proc/cpuinfo", "cpu family");
	char *model = proc_value("/proc/cpuinfo", "model");
	char *step = proc_value("/proc/cpuinfo", "stepping");
	int err = 0;

	if (vendor && family && model && step) {
		if (asprintf(&env->cpuid, "%s,%s,%s,%s", vendor, family, model, step) < 0) {
			env->cpuid = NULL;
			err = -ENOMEM;
		}
	} else {
		env->cpuid = read_line(SYSFS_CPU "/cpu0/regs/identification/midr_el1");
	}
	if (env->cpuid)
		ember_env__set_feat(env, EMBER_FEAT_CPUID, true);
	free(vendor);
	free(family);
	free(model);
	free(step);
	return err;
}

static int set_blob_u32_zero(struct ember_env_blob *b)
{
	b->data = calloc(1, 4);
	if (!b->data)
		return -ENOMEM;
	b->size = 4;
	return 0;
}

int ember_env__gather(struct ember_env *env)
{
	struct utsname uts;
	char *mem;
	int err = -ENOMEM;
	long online;

	memset(env, 0, sizeof(*env));
	if (!uname(&uts)) {
		if (ember_env__set_str(&env->hostname, uts.nodename) ||
		    ember_env__set_str(&env->os_release, uts.release) ||
		    ember_env__set_str(&env->arch, uts.machine))
			goto fail;
		ember_env__set_feat(env, EMBER_FEAT_HOSTNAME, true);
		ember_env__set_feat(env, EMBER_FEAT_OSRELEASE, true);
		ember_env__set_feat(env, EMBER_FEAT_ARCH, true);
	}
	/*
	 * Readers parse a perf version there: hotspot's perfparser takes the
	 * leading numbers (QVersionNumber::fromString) and, from 3.17 on,
	 * trusts FINISHED_ROUND to sort events; "ember 0.1.0" parsed as none.
	 * So the perf release whose format we write comes first, then ember's.
	 */
	if (asprintf(&env->version, PERF_FORMAT_VERSION "-ember-%s", ember_version()) < 0) {
		env->version = NULL;
		goto fail;
	}
	ember_env__set_feat(env, EMBER_FEAT_VERSION, true);

	env->nr_cpus_avail = list_max_plus_one(SYSFS_CPU "/present");
	online = sysconf(_SC_NPROCESSORS_ONLN);
	env->nr_cpus_online = online > 0 ? online : 0;
	if (!env->nr_cpus_avail)
		env->nr_cpus_avail = env->nr_cpus_online;
	ember_env__set_feat(env, EMBER_FEAT_NRCPUS, true);

	gather_cpudesc(env);
	if (gather_cpuid(env))
		goto fail;
	mem = proc_value("/proc/meminfo", "MemTotal");
	if (mem) {
		env->total_mem = strtoull(mem, NULL, 10);
		free(mem);
		ember_env__set_feat(env, EMBER_FEAT_TOTAL_MEM, true);
	}
	if (gather_topology(env) || gather_numa(env) || gather_pmus(env) ||
	    gather_pmu_caps(env) || gather_caches(env) || gather_memory(env))
		goto fail;
	/* perf writes these as empty lists when no BPF program was seen */
	if (set_blob_u32_zero(&env->bpf_prog_info) || set_blob_u32_zero(&env->bpf_btf))
		goto fail;
	ember_env__set_feat(env, EMBER_FEAT_BPF_PROG_INFO, true);
	ember_env__set_feat(env, EMBER_FEAT_BPF_BTF, true);
	return 0;
fail:
	ember_env__exit(env);
	return err;
}
