// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* struct ember_env → feature sections, laid out as perf 6.1 writes them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "data/features.h"
#include "data/format.h"

static int write_str(struct dbuf *b, const char *s)
{
	if (!s)
		return -ENOENT;
	dbuf_add_str(b, s);
	return 0;
}

static void write_strv(struct dbuf *b, char *const *v, uint32_t nr)
{
	dbuf_add_u32(b, nr);
	for (uint32_t i = 0; i < nr; i++)
		dbuf_add_str(b, v[i]);
}

static int write_blob(struct dbuf *b, const struct ember_env_blob *blob)
{
	if (!blob->data)
		return -ENOENT;
	dbuf_add(b, blob->data, blob->size);
	return 0;
}

static int write_cpu_topology(const struct ember_env *env, struct dbuf *b)
{
	write_strv(b, env->sibling_sockets, env->nr_sibling_sockets);
	write_strv(b, env->sibling_threads, env->nr_sibling_threads);
	if (!env->cpu || !env->nr_cpu)
		return 0;
	for (uint32_t i = 0; i < env->nr_cpu; i++) {
		dbuf_add_u32(b, env->cpu[i].core_id);
		dbuf_add_u32(b, env->cpu[i].socket_id);
	}
	/* perf 6.1 adds the die part only when there are die lists */
	if (!env->has_die_ids || !env->nr_sibling_dies)
		return 0;
	write_strv(b, env->sibling_dies, env->nr_sibling_dies);
	for (uint32_t i = 0; i < env->nr_cpu; i++)
		dbuf_add_u32(b, env->cpu[i].die_id);
	return 0;
}

static void write_caps(struct dbuf *b, char *const *caps, uint32_t nr)
{
	dbuf_add_u32(b, nr);
	for (uint32_t i = 0; i < nr; i++) {
		const char *eq = strchr(caps[i], '=');
		char *name = strndup(caps[i], eq ? (size_t)(eq - caps[i]) : strlen(caps[i]));

		if (!name) {
			b->err = -ENOMEM;
			return;
		}
		dbuf_add_str(b, name);
		dbuf_add_str(b, eq ? eq + 1 : "");
		free(name);
	}
}

static void write_build_ids(const struct ember_env *env, struct dbuf *b)
{
	for (uint32_t i = 0; i < env->nr_build_ids; i++) {
		const struct ember_env_build_id *e = &env->build_ids[i];
		size_t n = strlen(e->filename ? e->filename : "") + 1;
		/* filename padded to 64, as perf's build-id table does */
		size_t len = ALIGN_UP(n, PERF_NAME_ALIGN);
		struct ember_record_build_id r;

		memset(&r, 0, sizeof(r));
		r.header.type = EMBER_RECORD_HEADER_BUILD_ID;
		r.header.misc = e->misc | EMBER_RECORD_MISC_BUILD_ID_SIZE;
		r.header.size = sizeof(r) + len;
		r.pid = e->pid;
		memcpy(r.data, e->build_id, sizeof(r.data));
		r.size = e->size;
		dbuf_add(b, &r, sizeof(r));
		dbuf_add(b, e->filename ? e->filename : "", n);
		dbuf_add_zeros(b, len - n);
	}
}

int data_feat_write(const struct ember_env *env, int feat, struct dbuf *b)
{
	switch (feat) {
	case EMBER_FEAT_TRACING_DATA:
		return write_blob(b, &env->tracing_data);
	case EMBER_FEAT_BUILD_ID:
		write_build_ids(env, b);
		return 0;
	case EMBER_FEAT_HOSTNAME:
		return write_str(b, env->hostname);
	case EMBER_FEAT_OSRELEASE:
		return write_str(b, env->os_release);
	case EMBER_FEAT_VERSION:
		return write_str(b, env->version);
	case EMBER_FEAT_ARCH:
		return write_str(b, env->arch);
	case EMBER_FEAT_CPUDESC:
		return write_str(b, env->cpu_desc);
	case EMBER_FEAT_CPUID:
		return write_str(b, env->cpuid);
	case EMBER_FEAT_NRCPUS:
		dbuf_add_u32(b, env->nr_cpus_avail);
		dbuf_add_u32(b, env->nr_cpus_online);
		return 0;
	case EMBER_FEAT_TOTAL_MEM:
		dbuf_add_u64(b, env->total_mem);
		return 0;
	case EMBER_FEAT_CMDLINE:
		if (!env->cmdline)
			return -ENOENT;
		write_strv(b, env->cmdline, env->nr_cmdline);
		return 0;
	case EMBER_FEAT_CPU_TOPOLOGY:
		return write_cpu_topology(env, b);
	case EMBER_FEAT_NUMA_TOPOLOGY:
		dbuf_add_u32(b, env->nr_numa_nodes);
		for (uint32_t i = 0; i < env->nr_numa_nodes; i++) {
			dbuf_add_u32(b, env->numa_nodes[i].node);
			dbuf_add_u64(b, env->numa_nodes[i].mem_total);
			dbuf_add_u64(b, env->numa_nodes[i].mem_free);
			dbuf_add_str(b, env->numa_nodes[i].cpus);
		}
		return 0;
	case EMBER_FEAT_PMU_MAPPINGS:
		dbuf_add_u32(b, env->nr_pmu_mappings);
		for (uint32_t i = 0; i < env->nr_pmu_mappings; i++) {
			dbuf_add_u32(b, env->pmu_mappings[i].type);
			dbuf_add_str(b, env->pmu_mappings[i].name);
		}
		return 0;
	case EMBER_FEAT_GROUP_DESC:
		dbuf_add_u32(b, env->nr_groups);
		for (uint32_t i = 0; i < env->nr_groups; i++) {
			dbuf_add_str(b, env->groups[i].name ? env->groups[i].name : "{anon_group}");
			dbuf_add_u32(b, env->groups[i].leader_idx);
			dbuf_add_u32(b, env->groups[i].nr_members);
		}
		return 0;
	case EMBER_FEAT_AUXTRACE:
		return write_blob(b, &env->auxtrace);
	case EMBER_FEAT_CACHE:
		dbuf_add_u32(b, 1);
		dbuf_add_u32(b, env->nr_caches);
		for (uint32_t i = 0; i < env->nr_caches; i++) {
			const struct ember_env_cache *c = &env->caches[i];

			dbuf_add_u32(b, c->level);
			dbuf_add_u32(b, c->line_size);
			dbuf_add_u32(b, c->sets);
			dbuf_add_u32(b, c->ways);
			dbuf_add_str(b, c->type);
			dbuf_add_str(b, c->size);
			dbuf_add_str(b, c->map);
		}
		return 0;
	case EMBER_FEAT_SAMPLE_TIME:
		dbuf_add_u64(b, env->first_sample_time);
		dbuf_add_u64(b, env->last_sample_time);
		return 0;
	case EMBER_FEAT_MEM_TOPOLOGY:
		dbuf_add_u64(b, 1);
		dbuf_add_u64(b, env->memory_bsize);
		dbuf_add_u64(b, env->nr_memory_nodes);
		for (uint64_t i = 0; i < env->nr_memory_nodes; i++) {
			const struct ember_env_mem_node *n = &env->memory_nodes[i];

			dbuf_add_u64(b, n->node);
			dbuf_add_u64(b, n->size);
			dbuf_add_u64(b, n->size);
			dbuf_add(b, n->set, (n->size + 63) / 64 * 8);
		}
		return 0;
	case EMBER_FEAT_CLOCKID:
		dbuf_add_u64(b, env->clockid_res_ns);
		return 0;
	case EMBER_FEAT_DIR_FORMAT:
		dbuf_add_u64(b, env->dir_version);
		return 0;
	case EMBER_FEAT_BPF_PROG_INFO:
		return write_blob(b, &env->bpf_prog_info);
	case EMBER_FEAT_BPF_BTF:
		return write_blob(b, &env->bpf_btf);
	case EMBER_FEAT_COMPRESSED:
		dbuf_add_u32(b, env->comp_ver);
		dbuf_add_u32(b, env->comp_type);
		dbuf_add_u32(b, env->comp_level);
		dbuf_add_u32(b, env->comp_ratio);
		dbuf_add_u32(b, env->comp_mmap_len);
		return 0;
	case EMBER_FEAT_CPU_PMU_CAPS:
		write_caps(b, env->cpu_pmu_caps, env->nr_cpu_pmu_caps);
		return 0;
	case EMBER_FEAT_CLOCK_DATA:
		dbuf_add_u32(b, 1);
		dbuf_add_u32(b, env->clockid);
		dbuf_add_u64(b, env->clock_tod_ns);
		dbuf_add_u64(b, env->clock_clockid_ns);
		return 0;
	case EMBER_FEAT_HYBRID_TOPOLOGY:
		dbuf_add_u32(b, env->nr_hybrid_nodes);
		for (uint32_t i = 0; i < env->nr_hybrid_nodes; i++) {
			dbuf_add_str(b, env->hybrid_nodes[i].pmu_name);
			dbuf_add_str(b, env->hybrid_nodes[i].cpus);
		}
		return 0;
	case EMBER_FEAT_PMU_CAPS:
		dbuf_add_u32(b, env->nr_pmus_with_caps);
		for (uint32_t i = 0; i < env->nr_pmus_with_caps; i++) {
			write_caps(b, env->pmu_caps[i].caps, env->pmu_caps[i].nr_caps);
			dbuf_add_str(b, env->pmu_caps[i].pmu_name);
		}
		return 0;
	case EMBER_FEAT_BRANCH_STACK:
	case EMBER_FEAT_STAT:
		return 0;	/* flags: an empty section */
	default:
		return -ENOENT;
	}
}

void data_feat_write_event_desc(struct dbuf *b, const struct data_feat_event *ev, uint32_t nr,
			   uint32_t attr_size)
{
	dbuf_add_u32(b, nr);
	dbuf_add_u32(b, attr_size);
	for (uint32_t i = 0; i < nr; i++) {
		struct perf_event_attr a = *ev[i].attr;
		uint32_t n = attr_size < EMBER_ATTR_SIZE ? attr_size : EMBER_ATTR_SIZE;

		a.size = attr_size;
		dbuf_add(b, &a, n);
		dbuf_add_zeros(b, attr_size - n);
		dbuf_add_u32(b, ev[i].nr_ids);
		dbuf_add_str(b, ev[i].name ? ev[i].name : "");
		dbuf_add(b, ev[i].ids, ev[i].nr_ids * sizeof(uint64_t));
	}
}
