// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The header as `perf report --header-only` (perf 6.1) prints it, into a caller's FILE. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "data/bpf-prog.h"
#include "data/reader.h"

/* Features perf 6.1 prints only with -I; otherwise "info available". */
static bool full_only(int feat)
{
	return feat == EMBER_FEAT_CPU_TOPOLOGY || feat == EMBER_FEAT_NUMA_TOPOLOGY ||
	       feat == EMBER_FEAT_CACHE || feat == EMBER_FEAT_MEM_TOPOLOGY ||
	       feat == EMBER_FEAT_HYBRID_TOPOLOGY;
}

static void print_cmdline(const struct ember_env *env, FILE *fp)
{
	fprintf(fp, "# cmdline : ");
	for (uint32_t i = 0; i < env->nr_cmdline; i++) {
		/* quotes are escaped, as perf does */
		for (const char *s = env->cmdline[i]; *s; s++) {
			if (*s == '\'')
				fputs("\\'", fp);
			else
				fputc(*s, fp);
		}
		fputc(' ', fp);
	}
	fputc('\n', fp);
}

static void print_event_desc(const struct ember_env *env, FILE *fp)
{
	for (uint32_t i = 0; i < env->nr_events; i++) {
		const struct ember_env_event *ev = &env->events[i];

		fprintf(fp, "# event : name = %s, ", ev->name ? ev->name : "");
		if (ev->nr_ids) {
			fprintf(fp, ", id = {");
			for (uint32_t j = 0; j < ev->nr_ids; j++)
				fprintf(fp, "%s %" PRIu64, j ? "," : "", ev->ids[j]);
			fprintf(fp, " }");
		}
		ember_attr__fprintf(fp, &ev->attr);
		fputc('\n', fp);
	}
}

static void print_cpu_topology(const struct ember_env *env, FILE *fp)
{
	for (uint32_t i = 0; i < env->nr_sibling_sockets; i++)
		fprintf(fp, "# sibling sockets : %s\n", env->sibling_sockets[i]);
	for (uint32_t i = 0; i < env->nr_sibling_dies; i++)
		fprintf(fp, "# sibling dies    : %s\n", env->sibling_dies[i]);
	for (uint32_t i = 0; i < env->nr_sibling_threads; i++)
		fprintf(fp, "# sibling threads : %s\n", env->sibling_threads[i]);
	if (env->nr_sibling_dies) {
		if (!env->cpu)
			fprintf(fp, "# Core ID, Die ID and Socket ID information is not available\n");
		for (uint32_t i = 0; env->cpu && i < env->nr_cpu; i++)
			fprintf(fp, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				env->cpu[i].core_id, env->cpu[i].die_id, env->cpu[i].socket_id);
	} else {
		if (!env->cpu)
			fprintf(fp, "# Core ID and Socket ID information is not available\n");
		for (uint32_t i = 0; env->cpu && i < env->nr_cpu; i++)
			fprintf(fp, "# CPU %u: Core ID %d, Socket ID %d\n", i,
				env->cpu[i].core_id, env->cpu[i].socket_id);
	}
}

static void print_pmu_mappings(const struct ember_env *env, FILE *fp)
{
	if (!env->nr_pmu_mappings) {
		fprintf(fp, "# pmu mappings: not available\n");
		return;
	}
	for (uint32_t i = 0; i < env->nr_pmu_mappings; i++)
		fprintf(fp, "%s%s = %" PRIu32, i ? ", " : "# pmu mappings: ",
			env->pmu_mappings[i].name, env->pmu_mappings[i].type);
	fputc('\n', fp);
}

static const char *attr_name(const struct ember_data_reader *r, uint32_t idx)
{
	const struct ember_data_attr *a = ember_data_reader__attr(r, idx);

	return a && a->name ? a->name : "";
}

static void print_group_desc(const struct ember_data_reader *r, const struct ember_env *env,
			     FILE *fp)
{
	uint32_t nr_attrs = ember_data_reader__nr_attrs(r);

	for (uint32_t i = 0; i < env->nr_groups; i++) {
		const struct ember_env_group *g = &env->groups[i];
		bool anon = !g->name || !strcmp(g->name, "{anon_group}");

		if (g->nr_members < 2)
			continue;
		fprintf(fp, "# group: %s{%s", anon ? "" : g->name, attr_name(r, g->leader_idx));
		/* members are the attrs after the leader: a corrupt count stops at the last one */
		for (uint64_t m = 1; m < g->nr_members && (uint64_t)g->leader_idx + m < nr_attrs; m++)
			fprintf(fp, ",%s", attr_name(r, g->leader_idx + m));
		fprintf(fp, "}\n");
	}
}

static void print_time(FILE *fp, const char *what, uint64_t t)
{
	fprintf(fp, "# %s : %" PRIu64 ".%06" PRIu64 "\n", what, t / 1000000000,
		t % 1000000000 / 1000);
}

/* perf's unit_number__scnprintf: divide by 1024 while more than one unit remains. */
static void unit_number(char *buf, size_t sz, uint64_t n)
{
	static const char unit[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, sz, "%" PRIu64 "%c", n, unit[i]);
}

/* Set bits as "0-23,32-199", at most sz - 1 characters. */
static void bitmap_list(char *buf, size_t sz, const uint64_t *set, uint64_t bits)
{
	size_t len = 0;

	buf[0] = '\0';
	for (uint64_t i = 0; i < bits; i++) {
		uint64_t j = i;
		int n;

		if (!((set[i / 64] >> (i % 64)) & 1))
			continue;
		while (j + 1 < bits && ((set[(j + 1) / 64] >> ((j + 1) % 64)) & 1))
			j++;
		if (j == i)
			n = snprintf(buf + len, sz - len, "%s%" PRIu64, len ? "," : "", i);
		else
			n = snprintf(buf + len, sz - len, "%s%" PRIu64 "-%" PRIu64, len ? "," : "",
				     i, j);
		if (n < 0 || (size_t)n >= sz - len)
			return;
		len += n;
		i = j;
	}
}

static void print_mem_topology(const struct ember_env *env, FILE *fp)
{
	fprintf(fp, "# memory nodes (nr %d, block size 0x%llx):\n", (int)env->nr_memory_nodes,
		(unsigned long long)env->memory_bsize);
	for (uint64_t i = 0; i < env->nr_memory_nodes; i++) {
		const struct ember_env_mem_node *n = &env->memory_nodes[i];
		char size[50], map[100];
		uint64_t weight = 0;

		for (uint64_t w = 0; w < (n->size + 63) / 64; w++)
			weight += __builtin_popcountll(n->set[w]);
		unit_number(size, sizeof(size), env->memory_bsize * weight);
		bitmap_list(map, sizeof(map), n->set, n->size);
		fprintf(fp, "#  %3" PRIu64 " [%s]: %s\n", n->node, size, map);
	}
}

static void print_caps(FILE *fp, const char *pmu, char *const *caps, uint32_t nr)
{
	if (!nr) {
		fprintf(fp, "# %s pmu capabilities: not available\n", pmu);
		return;
	}
	fprintf(fp, "# %s pmu capabilities: ", pmu);
	for (uint32_t i = 0; i < nr; i++)
		fprintf(fp, "%s%s", i ? ", " : "", caps[i]);
	fputc('\n', fp);
}

static const char *clockid_name(uint32_t id)
{
	switch (id) {
	case CLOCK_MONOTONIC:
		return "monotonic";
	case CLOCK_MONOTONIC_RAW:
		return "monotonic_raw";
	case CLOCK_REALTIME:
		return "realtime";
	case CLOCK_BOOTTIME:
		return "boottime";
	case CLOCK_TAI:
		return "tai";
	default:
		return "(not found)";
	}
}

static void print_clock_data(const struct ember_env *env, FILE *fp)
{
	time_t sec = env->clock_tod_ns / 1000000000;
	int usec = env->clock_tod_ns % 1000000000 / 1000;
	char date[64], tstr[96];
	struct tm tm;

	if (!localtime_r(&sec, &tm)) {
		snprintf(tstr, sizeof(tstr), "<error>");
	} else {
		strftime(date, sizeof(date), "%F %T", &tm);
		snprintf(tstr, sizeof(tstr), "%s.%06d", date, usec);
	}
	fprintf(fp, "# clockid: %s (%u)\n", clockid_name(env->clockid), env->clockid);
	fprintf(fp, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tstr, (long)sec,
		usec, (long)(env->clock_clockid_ns / 1000000000),
		(long)(env->clock_clockid_ns % 1000000000), clockid_name(env->clockid));
}

static void print_feature(const struct ember_data_reader *r, int feat, FILE *fp)
{
	const struct ember_env *env = &r->env;

	switch (feat) {
	case EMBER_FEAT_HOSTNAME:
		fprintf(fp, "# hostname : %s\n", env->hostname);
		break;
	case EMBER_FEAT_OSRELEASE:
		fprintf(fp, "# os release : %s\n", env->os_release);
		break;
	case EMBER_FEAT_VERSION:
		fprintf(fp, "# perf version : %s\n", env->version);
		break;
	case EMBER_FEAT_ARCH:
		fprintf(fp, "# arch : %s\n", env->arch);
		break;
	case EMBER_FEAT_NRCPUS:
		fprintf(fp, "# nrcpus online : %u\n", env->nr_cpus_online);
		fprintf(fp, "# nrcpus avail : %u\n", env->nr_cpus_avail);
		break;
	case EMBER_FEAT_CPUDESC:
		fprintf(fp, "# cpudesc : %s\n", env->cpu_desc);
		break;
	case EMBER_FEAT_CPUID:
		fprintf(fp, "# cpuid : %s\n", env->cpuid);
		break;
	case EMBER_FEAT_TOTAL_MEM:
		fprintf(fp, "# total memory : %" PRIu64 " kB\n", env->total_mem);
		break;
	case EMBER_FEAT_CMDLINE:
		print_cmdline(env, fp);
		break;
	case EMBER_FEAT_EVENT_DESC:
		print_event_desc(env, fp);
		break;
	case EMBER_FEAT_CPU_TOPOLOGY:
		print_cpu_topology(env, fp);
		break;
	case EMBER_FEAT_NUMA_TOPOLOGY:
		for (uint32_t i = 0; i < env->nr_numa_nodes; i++) {
			const struct ember_env_numa_node *n = &env->numa_nodes[i];

			fprintf(fp, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
				" kB\n", n->node, n->mem_total, n->mem_free);
			fprintf(fp, "# node%u cpu list : %s\n", n->node, n->cpus);
		}
		break;
	case EMBER_FEAT_BRANCH_STACK:
		fprintf(fp, "# contains samples with branch stack\n");
		break;
	case EMBER_FEAT_PMU_MAPPINGS:
		print_pmu_mappings(env, fp);
		break;
	case EMBER_FEAT_GROUP_DESC:
		print_group_desc(r, env, fp);
		break;
	case EMBER_FEAT_AUXTRACE:
		fprintf(fp, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case EMBER_FEAT_STAT:
		fprintf(fp, "# contains stat data\n");
		break;
	case EMBER_FEAT_CACHE:
		fprintf(fp, "# CPU cache info:\n");
		for (uint32_t i = 0; i < env->nr_caches; i++)
			fprintf(fp, "#  L%d %-15s %8s [%s]\n", env->caches[i].level,
				env->caches[i].type, env->caches[i].size, env->caches[i].map);
		break;
	case EMBER_FEAT_SAMPLE_TIME:
		print_time(fp, "time of first sample", env->first_sample_time);
		print_time(fp, "time of last sample", env->last_sample_time);
		fprintf(fp, "# sample duration : %10.3f ms\n",
			(double)(env->last_sample_time - env->first_sample_time) / 1e6);
		break;
	case EMBER_FEAT_MEM_TOPOLOGY:
		print_mem_topology(env, fp);
		break;
	case EMBER_FEAT_CLOCKID:
		/* perf 6.1 prints the resolution in ns times 1000 as "MHz"; so do we */
		fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", env->clockid_res_ns * 1000);
		break;
	case EMBER_FEAT_DIR_FORMAT:
		fprintf(fp, "# directory data version : %" PRIu64 "\n", env->dir_version);
		break;
	case EMBER_FEAT_BPF_PROG_INFO:
		bpf_prog_info__print(env, fp);
		break;
	case EMBER_FEAT_BPF_BTF:
		bpf_btf__print(env, fp);
		break;
	case EMBER_FEAT_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
			env->comp_type == EMBER_COMP_ZSTD ? "Zstd" : "Unknown", env->comp_level,
			env->comp_ratio);
		break;
	case EMBER_FEAT_CPU_PMU_CAPS:
		print_caps(fp, "cpu", env->cpu_pmu_caps, env->nr_cpu_pmu_caps);
		break;
	case EMBER_FEAT_CLOCK_DATA:
		print_clock_data(env, fp);
		break;
	case EMBER_FEAT_HYBRID_TOPOLOGY:
		fprintf(fp, "# hybrid cpu system:\n");
		for (uint32_t i = 0; i < env->nr_hybrid_nodes; i++)
			fprintf(fp, "# %s cpu list : %s\n", env->hybrid_nodes[i].pmu_name,
				env->hybrid_nodes[i].cpus);
		break;
	case EMBER_FEAT_PMU_CAPS:
		for (uint32_t i = 0; i < env->nr_pmus_with_caps; i++)
			print_caps(fp, env->pmu_caps[i].pmu_name, env->pmu_caps[i].caps,
				   env->pmu_caps[i].nr_caps);
		break;
	default:
		/* TRACING_DATA, BUILD_ID: perf prints nothing for them */
		break;
	}
}

static void print_features(const struct ember_data_reader *r, FILE *fp, bool full)
{
	for (int feat = 1; feat < EMBER_FEAT_LAST; feat++) {
		if (!ember_env__has_feat(&r->env, feat))
			continue;
		if (full_only(feat) && !full)
			fprintf(fp, "# %s info available, use -I to display\n", ember_feat__name(feat));
		else
			print_feature(r, feat, fp);
	}
}

int ember_data_reader__fprintf_header(const struct ember_data_reader *r, FILE *fp, bool full)
{
	struct ember_data_header_info info;
	char when[64];
	time_t mtime;

	ember_data_reader__header_info(r, &info);
	mtime = info.mtime;
	if (!ctime_r(&mtime, when))
		snprintf(when, sizeof(when), "?\n");
	fprintf(fp, "# ========\n");
	fprintf(fp, "# captured on    : %s", when);
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %" PRIu64 "\n", info.data_offset);
	fprintf(fp, "# data size      : %" PRIu64 "\n", info.data_size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", info.feat_offset);
	if (r->pipe) {
		/* perf prints pipe features after the banner, as their records arrive */
		fprintf(fp, "# ========\n#\n");
		print_features(r, fp, full);
		return 0;
	}
	print_features(r, fp, full);
	fprintf(fp, "# missing features: ");
	for (int feat = 1; feat < EMBER_FEAT_LAST; feat++) {
		if (!ember_env__has_feat(&r->env, feat))
			fprintf(fp, "%s ", ember_feat__name(feat));
	}
	fprintf(fp, "\n# ========\n#\n");
	return 0;
}
