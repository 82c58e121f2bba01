// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Feature sections → struct ember_env. Every count read from the file is
 * checked against the bytes left before anything is allocated for it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "data/features.h"
#include "data/format.h"

uint32_t data_attr_from_file(struct perf_event_attr *out, const void *p, uint32_t size)
{
	uint32_t on_file = get_u32((const uint8_t *)p + offsetof(struct perf_event_attr, size));
	uint32_t n;

	/* size 0 in the attr means the first ABI; never read past the container */
	if (on_file == 0)
		on_file = ATTR_SIZE_VER0;
	if (on_file > size)
		on_file = size;
	n = on_file < EMBER_ATTR_SIZE ? on_file : EMBER_ATTR_SIZE;
	memset(out, 0, sizeof(*out));
	memcpy(out, p, n);
	out->size = n;
	return on_file;
}

uint32_t data_attr_write_size(const struct perf_event_attr *attr)
{
	const uint8_t *p = (const uint8_t *)attr;
	uint32_t size = EMBER_ATTR_SIZE < 128 ? EMBER_ATTR_SIZE : 128;

	for (uint32_t i = EMBER_ATTR_SIZE; i > size; i--) {
		if (p[i - 1])
			return ALIGN_UP(i, 8);
	}
	return size;
}

static int strv_read(struct dcur *c, uint32_t nr, char ***out)
{
	char **v;

	/* each string takes at least its u32 length */
	if (nr > dcur_left(c) / 4)
		return -EINVAL;
	v = calloc(nr ? nr : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		v[i] = dcur_str(c);
		if (!v[i]) {
			for (uint32_t j = 0; j < i; j++)
				free(v[j]);
			free(v);
			return c->err ? -EINVAL : -ENOMEM;
		}
	}
	*out = v;
	return 0;
}

static void strv_free(char **v, uint32_t nr)
{
	for (uint32_t i = 0; v && i < nr; i++)
		free(v[i]);
	free(v);
}

static int read_string(struct dcur *c, char **field)
{
	char *s = dcur_str(c);

	if (!s)
		return c->err ? -EINVAL : -ENOMEM;
	free(*field);
	*field = s;
	return 0;
}

static int read_blob(const void *data, size_t size, struct ember_env_blob *blob)
{
	void *copy = malloc(size ? size : 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, size);
	free(blob->data);
	blob->data = copy;
	blob->size = size;
	return 0;
}

static int read_cmdline(struct ember_env *env, struct dcur *c)
{
	uint32_t nr = dcur_u32(c);
	char **v;
	int err;

	err = strv_read(c, nr, &v);
	if (err)
		return err;
	strv_free(env->cmdline, env->nr_cmdline);
	env->cmdline = v;
	env->nr_cmdline = nr;
	return 0;
}

static void events_free(struct ember_env_event *ev, uint32_t nr)
{
	for (uint32_t i = 0; ev && i < nr; i++) {
		free(ev[i].name);
		free(ev[i].ids);
	}
	free(ev);
}

static int read_event_desc(struct ember_env *env, struct dcur *c)
{
	uint32_t nr = dcur_u32(c), sz = dcur_u32(c);
	struct ember_env_event *ev;

	if (c->err || sz < ATTR_SIZE_VER0 || sz > RECORD_MAX_SIZE)
		return -EINVAL;
	if (nr > dcur_left(c) / (sz + 8))
		return -EINVAL;
	ev = calloc(nr ? nr : 1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		const void *a = dcur_skip(c, sz);

		if (!a)
			goto bad;
		data_attr_from_file(&ev[i].attr, a, sz);
		ev[i].nr_ids = dcur_u32(c);
		ev[i].name = dcur_str(c);
		if (!ev[i].name || ev[i].nr_ids > dcur_left(c) / 8)
			goto bad;
		ev[i].ids = calloc(ev[i].nr_ids ? ev[i].nr_ids : 1, sizeof(uint64_t));
		if (!ev[i].ids)
			goto bad;
		dcur_bytes(c, ev[i].ids, ev[i].nr_ids * sizeof(uint64_t));
	}
	if (c->err)
		goto bad;
	events_free(env->events, env->nr_events);
	env->events = ev;
	env->nr_events = nr;
	return 0;
bad:
	events_free(ev, nr);
	return -EINVAL;
}

static int read_cpu_topology(struct ember_env *env, struct dcur *c)
{
	uint32_t nr_sockets, nr_threads, nr_dies = 0, ncpu = env->nr_cpus_avail;
	char **sockets = NULL, **threads = NULL, **dies = NULL;
	struct ember_env_cpu *cpu = NULL;
	bool has_die = false;
	int err;

	nr_sockets = dcur_u32(c);
	err = strv_read(c, nr_sockets, &sockets);
	if (err)
		return err;
	nr_threads = dcur_u32(c);
	err = strv_read(c, nr_threads, &threads);
	if (err)
		goto out;
	/* older perf stops here; newer adds core/socket ids, then dies */
	if (dcur_left(c) && ncpu && ncpu <= dcur_left(c) / 8) {
		cpu = calloc(ncpu, sizeof(*cpu));
		err = -ENOMEM;
		if (!cpu)
			goto out;
		for (uint32_t i = 0; i < ncpu; i++) {
			cpu[i].core_id = dcur_u32(c);
			cpu[i].socket_id = dcur_u32(c);
			cpu[i].die_id = -1;
		}
		if (dcur_left(c)) {
			nr_dies = dcur_u32(c);
			err = strv_read(c, nr_dies, &dies);
			if (err)
				goto out;
			for (uint32_t i = 0; i < ncpu; i++)
				cpu[i].die_id = dcur_u32(c);
			has_die = true;
		}
	} else {
		ncpu = 0;
	}
	err = -EINVAL;
	if (c->err)
		goto out;
	strv_free(env->sibling_sockets, env->nr_sibling_sockets);
	strv_free(env->sibling_threads, env->nr_sibling_threads);
	strv_free(env->sibling_dies, env->nr_sibling_dies);
	free(env->cpu);
	env->sibling_sockets = sockets;
	env->nr_sibling_sockets = nr_sockets;
	env->sibling_threads = threads;
	env->nr_sibling_threads = nr_threads;
	env->sibling_dies = dies;
	env->nr_sibling_dies = nr_dies;
	env->cpu = cpu;
	env->nr_cpu = ncpu;
	env->has_die_ids = has_die;
	return 0;
out:
	strv_free(sockets, nr_sockets);
	strv_free(threads, nr_threads);
	strv_free(dies, nr_dies);
	free(cpu);
	return err;
}

static int read_numa(struct ember_env *env, struct dcur *c)
{
	uint32_t nr = dcur_u32(c);
	struct ember_env_numa_node *n;

	if (nr > dcur_left(c) / 24)
		return -EINVAL;
	n = calloc(nr ? nr : 1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		n[i].node = dcur_u32(c);
		n[i].mem_total = dcur_u64(c);
		n[i].mem_free = dcur_u64(c);
		n[i].cpus = dcur_str(c);
		if (!n[i].cpus) {
			for (uint32_t j = 0; j < i; j++)
				free(n[j].cpus);
			free(n);
			return -EINVAL;
		}
	}
	for (uint32_t i = 0; env->numa_nodes && i < env->nr_numa_nodes; i++)
		free(env->numa_nodes[i].cpus);
	free(env->numa_nodes);
	env->numa_nodes = n;
	env->nr_numa_nodes = nr;
	return 0;
}

static int read_pmu_mappings(struct ember_env *env, struct dcur *c)
{
	uint32_t nr = dcur_u32(c);
	struct ember_env_pmu *p;

	if (nr > dcur_left(c) / 8)
		return -EINVAL;
	p = calloc(nr ? nr : 1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		p[i].type = dcur_u32(c);
		p[i].name = dcur_str(c);
		if (!p[i].name) {
			for (uint32_t j = 0; j < i; j++)
				free(p[j].name);
			free(p);
			return -EINVAL;
		}
	}
	for (uint32_t i = 0; env->pmu_mappings && i < env->nr_pmu_mappings; i++)
		free(env->pmu_mappings[i].name);
	free(env->pmu_mappings);
	env->pmu_mappings = p;
	env->nr_pmu_mappings = nr;
	return 0;
}

static int read_group_desc(struct ember_env *env, struct dcur *c)
{
	uint32_t nr = dcur_u32(c);
	struct ember_env_group *g;

	if (nr > dcur_left(c) / 12)
		return -EINVAL;
	g = calloc(nr ? nr : 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		g[i].name = dcur_str(c);
		g[i].leader_idx = dcur_u32(c);
		g[i].nr_members = dcur_u32(c);
		if (!g[i].name || c->err) {
			for (uint32_t j = 0; j <= i; j++)
				free(g[j].name);
			free(g);
			return -EINVAL;
		}
	}
	for (uint32_t i = 0; env->groups && i < env->nr_groups; i++)
		free(env->groups[i].name);
	free(env->groups);
	env->groups = g;
	env->nr_groups = nr;
	return 0;
}

static void caches_free(struct ember_env_cache *cc, uint32_t nr)
{
	for (uint32_t i = 0; cc && i < nr; i++) {
		free(cc[i].type);
		free(cc[i].size);
		free(cc[i].map);
	}
	free(cc);
}

static int read_cache(struct ember_env *env, struct dcur *c)
{
	uint32_t version = dcur_u32(c), nr = dcur_u32(c);
	struct ember_env_cache *cc;

	if (version != 1 || nr > dcur_left(c) / 28)
		return -EINVAL;
	cc = calloc(nr ? nr : 1, sizeof(*cc));
	if (!cc)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		cc[i].level = dcur_u32(c);
		cc[i].line_size = dcur_u32(c);
		cc[i].sets = dcur_u32(c);
		cc[i].ways = dcur_u32(c);
		cc[i].type = dcur_str(c);
		cc[i].size = dcur_str(c);
		cc[i].map = dcur_str(c);
		if (!cc[i].type || !cc[i].size || !cc[i].map) {
			caches_free(cc, nr);
			return -EINVAL;
		}
	}
	caches_free(env->caches, env->nr_caches);
	env->caches = cc;
	env->nr_caches = nr;
	return 0;
}

static int read_mem_topology(struct ember_env *env, struct dcur *c)
{
	uint64_t version = dcur_u64(c), bsize = dcur_u64(c), nr = dcur_u64(c);
	struct ember_env_mem_node *n;

	if (version != 1 || nr > dcur_left(c) / 24)
		return -EINVAL;
	n = calloc(nr ? nr : 1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t bits, words;

		n[i].node = dcur_u64(c);
		dcur_u64(c);	/* size again, before the bitmap: u64 bits, then the words */
		bits = dcur_u64(c);
		/* not (bits + 63) / 64: that wraps to 0 for a huge count */
		words = bits / 64 + !!(bits % 64);
		if (c->err || words > dcur_left(c) / 8)
			goto bad;
		n[i].size = bits;
		n[i].set = calloc(words ? words : 1, 8);
		if (!n[i].set)
			goto bad;
		dcur_bytes(c, n[i].set, words * 8);
	}
	for (uint64_t i = 0; env->memory_nodes && i < env->nr_memory_nodes; i++)
		free(env->memory_nodes[i].set);
	free(env->memory_nodes);
	env->memory_bsize = bsize;
	env->memory_nodes = n;
	env->nr_memory_nodes = nr;
	return 0;
bad:
	for (uint64_t i = 0; i < nr; i++)
		free(n[i].set);
	free(n);
	return -EINVAL;
}

static int read_caps(struct dcur *c, uint32_t *nr_out, char ***out)
{
	uint32_t nr = dcur_u32(c);
	char **v;

	if (nr > dcur_left(c) / 8)
		return -EINVAL;
	v = calloc(nr ? nr : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		char *name = dcur_str(c), *value = dcur_str(c);

		if (name && value && asprintf(&v[i], "%s=%s", name, value) < 0)
			v[i] = NULL;
		free(name);
		free(value);
		if (!v[i]) {
			strv_free(v, i);
			return -EINVAL;
		}
	}
	*nr_out = nr;
	*out = v;
	return 0;
}

static int read_pmu_caps(struct ember_env *env, struct dcur *c)
{
	uint32_t nr = dcur_u32(c);
	struct ember_env_pmu_caps *p;
	int err = 0;

	if (nr > dcur_left(c) / 8)
		return -EINVAL;
	p = calloc(nr ? nr : 1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr && !err; i++) {
		err = read_caps(c, &p[i].nr_caps, &p[i].caps);
		if (!err) {
			p[i].pmu_name = dcur_str(c);
			if (!p[i].pmu_name)
				err = -EINVAL;
		}
	}
	if (err) {
		for (uint32_t i = 0; i < nr; i++) {
			free(p[i].pmu_name);
			strv_free(p[i].caps, p[i].nr_caps);
		}
		free(p);
		return err;
	}
	for (uint32_t i = 0; env->pmu_caps && i < env->nr_pmus_with_caps; i++) {
		free(env->pmu_caps[i].pmu_name);
		strv_free(env->pmu_caps[i].caps, env->pmu_caps[i].nr_caps);
	}
	free(env->pmu_caps);
	env->pmu_caps = p;
	env->nr_pmus_with_caps = nr;
	return 0;
}

static int read_hybrid(struct ember_env *env, struct dcur *c)
{
	uint32_t nr = dcur_u32(c);
	struct ember_env_hybrid_node *h;

	if (nr > dcur_left(c) / 8)
		return -EINVAL;
	h = calloc(nr ? nr : 1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		h[i].pmu_name = dcur_str(c);
		h[i].cpus = dcur_str(c);
		if (!h[i].pmu_name || !h[i].cpus) {
			for (uint32_t j = 0; j <= i; j++) {
				free(h[j].pmu_name);
				free(h[j].cpus);
			}
			free(h);
			return -EINVAL;
		}
	}
	for (uint32_t i = 0; env->hybrid_nodes && i < env->nr_hybrid_nodes; i++) {
		free(env->hybrid_nodes[i].pmu_name);
		free(env->hybrid_nodes[i].cpus);
	}
	free(env->hybrid_nodes);
	env->hybrid_nodes = h;
	env->nr_hybrid_nodes = nr;
	return 0;
}

int data_env_add_build_ids(struct ember_env *env, const void *data, size_t size)
{
	const size_t fixed = sizeof(struct ember_record_build_id);
	struct dcur c = dcur_init(data, size);
	struct ember_env_build_id *b = env->build_ids;
	uint32_t nr = env->nr_build_ids, cap = nr;

	while (dcur_left(&c) >= fixed) {
		const uint8_t *p = c.p;
		uint16_t rsize = get_u16(p + 6);
		struct ember_env_build_id *e;

		if (rsize < fixed || rsize > dcur_left(&c))
			goto bad;
		if (nr == cap) {
			cap = cap ? cap * 2 : 16;
			e = realloc(b, cap * sizeof(*b));
			if (!e)
				goto bad;
			b = e;
		}
		e = &b[nr];
		memset(e, 0, sizeof(*e));
		e->misc = get_u16(p + 4);
		e->pid = (int32_t)get_u32(p + 8);
		memcpy(e->build_id, p + 12, 20);
		e->size = (e->misc & EMBER_RECORD_MISC_BUILD_ID_SIZE) ? p[32] : 20;
		if (e->size > 20)
			e->size = 20;
		e->filename = strndup((const char *)p + fixed, rsize - fixed);
		if (!e->filename)
			goto bad;
		nr++;
		dcur_skip(&c, rsize);
	}
	env->build_ids = b;
	env->nr_build_ids = nr;
	return 0;
bad:
	/* keep the entries that were already there */
	for (uint32_t i = env->nr_build_ids; i < nr; i++)
		free(b[i].filename);
	env->build_ids = b;
	return -EINVAL;
}

static int read_build_ids(struct ember_env *env, const void *data, size_t size)
{
	for (uint32_t i = 0; env->build_ids && i < env->nr_build_ids; i++)
		free(env->build_ids[i].filename);
	free(env->build_ids);
	env->build_ids = NULL;
	env->nr_build_ids = 0;
	return data_env_add_build_ids(env, data, size);
}

int data_feat_parse(struct ember_env *env, int feat, const void *data, size_t size)
{
	struct dcur c = dcur_init(data, size);
	int err = 0;

	switch (feat) {
	case EMBER_FEAT_TRACING_DATA:
		err = read_blob(data, size, &env->tracing_data);
		break;
	case EMBER_FEAT_BUILD_ID:
		err = read_build_ids(env, data, size);
		break;
	case EMBER_FEAT_HOSTNAME:
		err = read_string(&c, &env->hostname);
		break;
	case EMBER_FEAT_OSRELEASE:
		err = read_string(&c, &env->os_release);
		break;
	case EMBER_FEAT_VERSION:
		err = read_string(&c, &env->version);
		break;
	case EMBER_FEAT_ARCH:
		err = read_string(&c, &env->arch);
		break;
	case EMBER_FEAT_CPUDESC:
		err = read_string(&c, &env->cpu_desc);
		break;
	case EMBER_FEAT_CPUID:
		err = read_string(&c, &env->cpuid);
		break;
	case EMBER_FEAT_NRCPUS: {
		/* perf writes "available" (max present cpu + 1) first, then online */
		uint32_t avail = dcur_u32(&c), online = dcur_u32(&c);

		if (c.err)
			return -EINVAL;
		env->nr_cpus_avail = avail;
		env->nr_cpus_online = online;
		break;
	}
	case EMBER_FEAT_TOTAL_MEM:
		env->total_mem = dcur_u64(&c);
		break;
	case EMBER_FEAT_CMDLINE:
		err = read_cmdline(env, &c);
		break;
	case EMBER_FEAT_EVENT_DESC:
		err = read_event_desc(env, &c);
		break;
	case EMBER_FEAT_CPU_TOPOLOGY:
		err = read_cpu_topology(env, &c);
		break;
	case EMBER_FEAT_NUMA_TOPOLOGY:
		err = read_numa(env, &c);
		break;
	case EMBER_FEAT_PMU_MAPPINGS:
		err = read_pmu_mappings(env, &c);
		break;
	case EMBER_FEAT_GROUP_DESC:
		err = read_group_desc(env, &c);
		break;
	case EMBER_FEAT_AUXTRACE:
		err = read_blob(data, size, &env->auxtrace);
		break;
	case EMBER_FEAT_CACHE:
		err = read_cache(env, &c);
		break;
	case EMBER_FEAT_SAMPLE_TIME: {
		uint64_t first = dcur_u64(&c), last = dcur_u64(&c);

		if (c.err)
			return -EINVAL;
		env->first_sample_time = first;
		env->last_sample_time = last;
		break;
	}
	case EMBER_FEAT_MEM_TOPOLOGY:
		err = read_mem_topology(env, &c);
		break;
	case EMBER_FEAT_CLOCKID:
		env->clockid_res_ns = dcur_u64(&c);
		break;
	case EMBER_FEAT_DIR_FORMAT:
		env->dir_version = dcur_u64(&c);
		break;
	case EMBER_FEAT_BPF_PROG_INFO:
		err = read_blob(data, size, &env->bpf_prog_info);
		break;
	case EMBER_FEAT_BPF_BTF:
		err = read_blob(data, size, &env->bpf_btf);
		break;
	case EMBER_FEAT_COMPRESSED: {
		uint32_t v[5];

		for (int i = 0; i < 5; i++)
			v[i] = dcur_u32(&c);
		if (c.err)
			return -EINVAL;
		env->comp_ver = v[0];
		env->comp_type = v[1];
		env->comp_level = v[2];
		env->comp_ratio = v[3];
		env->comp_mmap_len = v[4];
		break;
	}
	case EMBER_FEAT_CPU_PMU_CAPS: {
		uint32_t nr;
		char **caps;

		err = read_caps(&c, &nr, &caps);
		if (!err) {
			strv_free(env->cpu_pmu_caps, env->nr_cpu_pmu_caps);
			env->cpu_pmu_caps = caps;
			env->nr_cpu_pmu_caps = nr;
		}
		break;
	}
	case EMBER_FEAT_CLOCK_DATA: {
		uint32_t version = dcur_u32(&c), clockid = dcur_u32(&c);
		uint64_t tod = dcur_u64(&c), ref = dcur_u64(&c);

		if (c.err || version != 1)
			return -EINVAL;
		env->clockid = clockid;
		env->clock_tod_ns = tod;
		env->clock_clockid_ns = ref;
		break;
	}
	case EMBER_FEAT_HYBRID_TOPOLOGY:
		err = read_hybrid(env, &c);
		break;
	case EMBER_FEAT_PMU_CAPS:
		err = read_pmu_caps(env, &c);
		break;
	case EMBER_FEAT_BRANCH_STACK:
	case EMBER_FEAT_STAT:
		break;	/* flags without content */
	default:
		pr_debug("perf.data: unknown feature %d, skipped\n", feat);
		return 0;
	}
	if (!err && c.err)
		err = -EINVAL;
	if (err) {
		pr_debug("perf.data: cannot parse feature %s (%d)\n",
			 ember_feat__name(feat) ?: "?", err);
		return err;
	}
	ember_env__set_feat(env, feat, true);
	return 0;
}
