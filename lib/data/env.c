// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* struct ember_env: release and small setters. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/perf-data.h>

static void free_strv(char **v, uint32_t n)
{
	if (!v)
		return;
	for (uint32_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void ember_env__exit(struct ember_env *env)
{
	if (!env)
		return;
	free(env->hostname);
	free(env->os_release);
	free(env->version);
	free(env->arch);
	free(env->cpu_desc);
	free(env->cpuid);
	free_strv(env->cmdline, env->nr_cmdline);
	for (uint32_t i = 0; env->events && i < env->nr_events; i++) {
		free(env->events[i].name);
		free(env->events[i].ids);
	}
	free(env->events);
	free_strv(env->sibling_sockets, env->nr_sibling_sockets);
	free_strv(env->sibling_dies, env->nr_sibling_dies);
	free_strv(env->sibling_threads, env->nr_sibling_threads);
	free(env->cpu);
	for (uint32_t i = 0; env->numa_nodes && i < env->nr_numa_nodes; i++)
		free(env->numa_nodes[i].cpus);
	free(env->numa_nodes);
	for (uint32_t i = 0; env->pmu_mappings && i < env->nr_pmu_mappings; i++)
		free(env->pmu_mappings[i].name);
	free(env->pmu_mappings);
	for (uint32_t i = 0; env->groups && i < env->nr_groups; i++)
		free(env->groups[i].name);
	free(env->groups);
	for (uint32_t i = 0; env->caches && i < env->nr_caches; i++) {
		free(env->caches[i].type);
		free(env->caches[i].size);
		free(env->caches[i].map);
	}
	free(env->caches);
	for (uint64_t i = 0; env->memory_nodes && i < env->nr_memory_nodes; i++)
		free(env->memory_nodes[i].set);
	free(env->memory_nodes);
	free_strv(env->cpu_pmu_caps, env->nr_cpu_pmu_caps);
	for (uint32_t i = 0; env->pmu_caps && i < env->nr_pmus_with_caps; i++) {
		free(env->pmu_caps[i].pmu_name);
		free_strv(env->pmu_caps[i].caps, env->pmu_caps[i].nr_caps);
	}
	free(env->pmu_caps);
	for (uint32_t i = 0; env->hybrid_nodes && i < env->nr_hybrid_nodes; i++) {
		free(env->hybrid_nodes[i].pmu_name);
		free(env->hybrid_nodes[i].cpus);
	}
	free(env->hybrid_nodes);
	for (uint32_t i = 0; env->build_ids && i < env->nr_build_ids; i++)
		free(env->build_ids[i].filename);
	free(env->build_ids);
	free(env->tracing_data.data);
	free(env->auxtrace.data);
	free(env->bpf_prog_info.data);
	free(env->bpf_btf.data);
	memset(env, 0, sizeof(*env));
}

int ember_env__set_str(char **field, const char *s)
{
	char *copy = strdup(s ? s : "");

	if (!copy)
		return -ENOMEM;
	free(*field);
	*field = copy;
	return 0;
}

int ember_env__set_cmdline(struct ember_env *env, int argc, const char *const *argv)
{
	char exe[PATH_MAX];
	ssize_t n;
	char **v;

	if (argc < 0)
		return -EINVAL;
	v = calloc(argc + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		n = 0;
	exe[n] = '\0';
	v[0] = strdup(exe);
	for (int i = 0; i < argc; i++)
		v[i + 1] = strdup(argv[i] ? argv[i] : "");
	for (int i = 0; i <= argc; i++) {
		if (!v[i]) {
			for (int j = 0; j <= argc; j++)
				free(v[j]);
			free(v);
			return -ENOMEM;
		}
	}
	for (uint32_t i = 0; env->cmdline && i < env->nr_cmdline; i++)
		free(env->cmdline[i]);
	free(env->cmdline);
	env->cmdline = v;
	env->nr_cmdline = argc + 1;
	ember_env__set_feat(env, EMBER_FEAT_CMDLINE, true);
	return 0;
}
