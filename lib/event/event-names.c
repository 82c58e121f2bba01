// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* perf's symbolic event names: tables, lookups both ways, and the support probe. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include "event/event-names.h"
#include "event/evsel.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct ember_event_symbol hw_symbols[] = {
	{ "cpu-cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", "branches", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", "idle-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

static const struct ember_event_symbol sw_symbols[] = {
	{ "cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "bpf-output", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES },
};

/* What evsel__name() prints for an unnamed legacy event (differs from the symbols). */
static const char *const hw_print_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};

static const char *const tool_names[EMBER_TOOL_MAX] = {
	[EMBER_TOOL_DURATION_TIME] = "duration_time",
	[EMBER_TOOL_USER_TIME] = "user_time",
	[EMBER_TOOL_SYSTEM_TIME] = "system_time",
};

/*
 * Hardware-cache aliases, as perf's lexer accepts them (case-sensitive).
 * Index 0 is the canonical name. "branches" is left out of the BPU row:
 * alone it is the hardware event, and perf rejects "branches-loads".
 */
#define MAX_ALIASES 6
static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][MAX_ALIASES] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "bpu", "btb", "bpc" },
	{ "node" },
};

static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][MAX_ALIASES] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][MAX_ALIASES] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

#define OPS(r, w, p) ((r) << PERF_COUNT_HW_CACHE_OP_READ | (w) << PERF_COUNT_HW_CACHE_OP_WRITE | \
		      (p) << PERF_COUNT_HW_CACHE_OP_PREFETCH)
static const unsigned int cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_L1I] = OPS(1, 0, 1),
	[PERF_COUNT_HW_CACHE_LL] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_DTLB] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_ITLB] = OPS(1, 0, 0),
	[PERF_COUNT_HW_CACHE_BPU] = OPS(1, 0, 0),
	[PERF_COUNT_HW_CACHE_NODE] = OPS(1, 1, 1),
};

const struct ember_event_symbol *ember_event_symbols(uint32_t type, size_t *nr)
{
	if (type == PERF_TYPE_HARDWARE) {
		*nr = ARRAY_SIZE(hw_symbols);
		return hw_symbols;
	}
	if (type == PERF_TYPE_SOFTWARE) {
		*nr = ARRAY_SIZE(sw_symbols);
		return sw_symbols;
	}
	*nr = 0;
	return NULL;
}

static bool same(const char *s, const char *name, size_t len)
{
	return s && strlen(s) == len && !memcmp(s, name, len);
}

const struct ember_event_symbol *event_symbol__find(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(hw_symbols); i++)
		if (same(hw_symbols[i].name, name, len) || same(hw_symbols[i].alias, name, len))
			return &hw_symbols[i];
	for (size_t i = 0; i < ARRAY_SIZE(sw_symbols); i++)
		if (same(sw_symbols[i].name, name, len) || same(sw_symbols[i].alias, name, len))
			return &sw_symbols[i];
	return NULL;
}

const char *ember_tool_event__name(enum ember_tool_event tool)
{
	if (tool <= EMBER_TOOL_NONE || tool >= EMBER_TOOL_MAX)
		return NULL;
	return tool_names[tool];
}

enum ember_tool_event tool_event__find(const char *name, size_t len)
{
	for (int i = EMBER_TOOL_NONE + 1; i < EMBER_TOOL_MAX; i++)
		if (same(tool_names[i], name, len))
			return i;
	return EMBER_TOOL_NONE;
}

enum ember_tool_event ember_tool_event__from_evsel(const struct ember_evsel *evsel)
{
	const char *name = evsel->name;

	if (!evsel->pmu_name || strcmp(evsel->pmu_name, EMBER_TOOL_PMU) || !name)
		return EMBER_TOOL_NONE;
	/* The evsel's name is the event text: the tool name, maybe ":mods" after it. */
	return tool_event__find(name, strcspn(name, ":"));
}

bool ember_hw_cache__op_valid(unsigned int cache, unsigned int op)
{
	return cache < PERF_COUNT_HW_CACHE_MAX && op < PERF_COUNT_HW_CACHE_OP_MAX &&
	       (cache_valid_ops[cache] & (1U << op));
}

/*
 * Match one alias of a row in table at the start of s (len bytes): on
 * success return the row and set *used to the alias length. The longest
 * alias wins, so "speculative-read" is not taken for a prefix.
 */
static int match_alias(const char *const table[][MAX_ALIASES], int rows, const char *s,
		       size_t len, bool whole, size_t *used)
{
	int best = -1;
	size_t best_len = 0;

	for (int i = 0; i < rows; i++) {
		for (int j = 0; j < MAX_ALIASES && table[i][j]; j++) {
			size_t n = strlen(table[i][j]);

			if (n > len || memcmp(s, table[i][j], n) || n <= best_len)
				continue;
			if (whole ? n != len : (n != len && s[n] != '-'))
				continue;
			best = i;
			best_len = n;
		}
	}
	*used = best_len;
	return best;
}

/* An op or a result word: returns 0 for op, 1 for result, -1 for neither. */
static int match_op_result(const char *s, size_t len, bool whole, size_t *used, int *idx)
{
	size_t u_op, u_res;
	int op = match_alias(cache_ops, PERF_COUNT_HW_CACHE_OP_MAX, s, len, whole, &u_op);
	int res = match_alias(cache_results, PERF_COUNT_HW_CACHE_RESULT_MAX, s, len, whole,
			      &u_res);

	if (op >= 0 && (res < 0 || u_op >= u_res)) {
		*used = u_op;
		*idx = op;
		return 0;
	}
	if (res >= 0) {
		*used = u_res;
		*idx = res;
		return 1;
	}
	return -1;
}

int hw_cache__parse(const char *name, size_t len, uint64_t *config)
{
	int cache, op = -1, result = -1;
	size_t used, pos;

	cache = match_alias(cache_names, PERF_COUNT_HW_CACHE_MAX, name, len, false, &used);
	if (cache < 0)
		return -ENOENT;
	pos = used;
	/* Up to two words follow: an op and a result, in either order. */
	for (int word = 0; word < 2 && pos < len; word++) {
		int idx, kind;

		if (name[pos] != '-')
			return -ENOENT;
		pos++;
		kind = match_op_result(name + pos, len - pos, word == 1, &used, &idx);
		if (kind < 0)
			return -ENOENT;
		pos += used;
		/* As perf: the first op and the first result count, repeats are ignored. */
		if (kind == 0 && op < 0) {
			if (!ember_hw_cache__op_valid(cache, idx))
				return -EINVAL;
			op = idx;
		} else if (kind == 1 && result < 0) {
			result = idx;
		}
	}
	if (pos != len)
		return -ENOENT;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	*config = (uint64_t)cache | (uint64_t)op << 8 | (uint64_t)result << 16;
	return 0;
}

static int cache_name(unsigned int cache, unsigned int op, unsigned int result, char *buf,
		      size_t size)
{
	/* As perf: "L1-dcache-loads" for accesses, "L1-dcache-load-misses" for misses. */
	if (result == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
		return snprintf(buf, size, "%s-%s", cache_names[cache][0], cache_ops[op][1]);
	return snprintf(buf, size, "%s-%s-%s", cache_names[cache][0], cache_ops[op][0],
			cache_results[result][0]);
}

int ember_hw_cache__name(uint64_t config, char *buf, size_t size)
{
	unsigned int cache = config & 0xff, op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;

	if ((config >> 24) || cache >= PERF_COUNT_HW_CACHE_MAX ||
	    op >= PERF_COUNT_HW_CACHE_OP_MAX || result >= PERF_COUNT_HW_CACHE_RESULT_MAX ||
	    !ember_hw_cache__op_valid(cache, op)) {
		snprintf(buf, size, "invalid-cache");
		return -EINVAL;
	}
	return cache_name(cache, op, result, buf, size);
}

/* Append ":ukh..." as perf's evsel__add_modifiers() derives it from the attr. */
static int add_modifiers(const struct perf_event_attr *attr, char *buf, size_t size)
{
	size_t r = 0;
	bool colon = false, guest_default = false;
	char mods[16];

#define MOD(excluded, c)                      \
	do {                                  \
		if (!(excluded))              \
			mods[r++] = (c);      \
	} while (0)

	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		MOD(attr->exclude_kernel, 'k');
		MOD(attr->exclude_user, 'u');
		MOD(attr->exclude_hv, 'h');
		guest_default = true;
	}
	for (unsigned int i = 0; i < attr->precise_ip && i < 3; i++)
		mods[r++] = 'p';
	if (attr->precise_ip)
		guest_default = true;
	if (attr->exclude_host || attr->exclude_guest == guest_default) {
		MOD(attr->exclude_host, 'H');
		MOD(attr->exclude_guest, 'G');
	}
#undef MOD
	mods[r] = '\0';
	colon = r > 0;
	return colon ? snprintf(buf, size, ":%s", mods) : 0;
}

int ember_event_names__attr_name(const struct perf_event_attr *attr, char *buf, size_t size)
{
	int n;

	if (!size)
		return 0;
	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		n = snprintf(buf, size, "%s",
			     attr->config < ARRAY_SIZE(hw_print_names) ?
				     hw_print_names[attr->config] : "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		n = snprintf(buf, size, "%s",
			     attr->config < ARRAY_SIZE(sw_symbols) ?
				     sw_symbols[attr->config].name : "unknown-software");
		break;
	case PERF_TYPE_HW_CACHE:
		n = ember_hw_cache__name(attr->config, buf, size);
		if (n < 0)
			n = strlen(buf);
		break;
	case PERF_TYPE_RAW:
		n = snprintf(buf, size, "raw 0x%" PRIx64, (uint64_t)attr->config);
		break;
	case PERF_TYPE_BREAKPOINT:
		n = snprintf(buf, size, "mem:0x%" PRIx64 ":%s%s%s", (uint64_t)attr->bp_addr,
			     attr->bp_type & HW_BREAKPOINT_R ? "r" : "",
			     attr->bp_type & HW_BREAKPOINT_W ? "w" : "",
			     attr->bp_type & HW_BREAKPOINT_X ? "x" : "");
		break;
	case PERF_TYPE_TRACEPOINT:
		return snprintf(buf, size, "unknown tracepoint");
	default:
		return snprintf(buf, size, "unknown attr type: %u", attr->type);
	}
	if (n < 0 || (size_t)n >= size)
		return n;
	return n + add_modifiers(attr, buf + n, size - n);
}

int event_names__for_each(int (*fn)(const char *name, void *arg), void *arg)
{
	char name[64];
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(hw_symbols); i++) {
		if ((ret = fn(hw_symbols[i].name, arg)))
			return ret;
		if (hw_symbols[i].alias && (ret = fn(hw_symbols[i].alias, arg)))
			return ret;
	}
	for (size_t i = 0; i < ARRAY_SIZE(sw_symbols); i++) {
		if ((ret = fn(sw_symbols[i].name, arg)))
			return ret;
		if (sw_symbols[i].alias && (ret = fn(sw_symbols[i].alias, arg)))
			return ret;
	}
	for (int i = EMBER_TOOL_NONE + 1; i < EMBER_TOOL_MAX; i++)
		if ((ret = fn(tool_names[i], arg)))
			return ret;
	for (unsigned int c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		for (unsigned int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!ember_hw_cache__op_valid(c, op))
				continue;
			for (unsigned int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				cache_name(c, op, r, name, sizeof(name));
				if ((ret = fn(name, arg)))
					return ret;
			}
		}
	}
	return 0;
}

int ember_event__paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int level = 2;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return level;
}

static bool try_open(struct perf_event_attr *attr)
{
	int fd = syscall(SYS_perf_event_open, attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

bool ember_event__is_supported(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.config = config,
		.disabled = 1,
	};

	if (try_open(&attr))
		return true;
	/* perf_event_paranoid 2 refuses kernel counting to users. */
	attr.exclude_kernel = 1;
	if (try_open(&attr))
		return true;
	/* Some PMUs insist on exclude_guest. */
	attr.exclude_guest = 1;
	return try_open(&attr);
}
