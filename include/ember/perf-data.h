/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * perf.data: the file (and pipe) format of Linux perf, read and written.
 *
 * Reading:
 *
 *	struct ember_data_reader *r = ember_data_reader__open("perf.data", NULL);
 *	struct ember_data_record rec;
 *	struct ember_sample s;
 *
 *	while (ember_data_reader__next(r, &rec) > 0) {
 *		if (rec.hdr->type == PERF_RECORD_SAMPLE &&
 *		    ember_data_reader__parse_sample(r, rec.hdr, &s) == 0)
 *			handle(&s);
 *	}
 *	ember_data_reader__delete(r);
 *
 * Records handed out point into the reader (the mmap'ed file, or its read
 * buffer for pipes) and stay valid until the next call to
 * ember_data_reader__next(). Parsed samples point into the record: nothing
 * is copied, nothing is allocated per record.
 *
 * Writing:
 *
 *	w = ember_data_writer__open("perf.data", NULL);
 *	ember_data_writer__add_attr(w, &attr, ids, nr_ids, "cpu-clock");
 *	ember_data_writer__start(w, &env);
 *	ember_data_writer__write(w, rec, rec->size);	(as often as needed)
 *	ember_data_writer__close(w, &env);
 *
 * Ownership: the reader owns its records, attrs and env (valid until
 * ember_data_reader__delete(), records only until the next next()); the
 * writer copies what add_attr() gives it and only reads the env during
 * start() and close(); a struct ember_env filled by ember_env__gather() is
 * the caller's, released with ember_env__exit().
 *
 * Byte-swapped files (recorded on a machine of the other endianness) are
 * detected and refused with -EPROTONOSUPPORT. COMPRESSED records need
 * libzstd.so.1, loaded when first needed.
 */
#ifndef EMBER_PERF_DATA_H
#define EMBER_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/perf_event.h>

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- record types perf adds to the kernel's (PERF_RECORD_USER_TYPE_START) */

enum ember_user_record_type {
	EMBER_RECORD_HEADER_ATTR = 64,
	EMBER_RECORD_HEADER_EVENT_TYPE = 65,	/* deprecated */
	EMBER_RECORD_HEADER_TRACING_DATA = 66,	/* followed by the tracing data blob */
	EMBER_RECORD_HEADER_BUILD_ID = 67,
	EMBER_RECORD_FINISHED_ROUND = 68,
	EMBER_RECORD_ID_INDEX = 69,
	EMBER_RECORD_AUXTRACE_INFO = 70,
	EMBER_RECORD_AUXTRACE = 71,		/* followed by `size` bytes of AUX data */
	EMBER_RECORD_AUXTRACE_ERROR = 72,
	EMBER_RECORD_THREAD_MAP = 73,
	EMBER_RECORD_CPU_MAP = 74,
	EMBER_RECORD_STAT_CONFIG = 75,
	EMBER_RECORD_STAT = 76,
	EMBER_RECORD_STAT_ROUND = 77,
	EMBER_RECORD_EVENT_UPDATE = 78,
	EMBER_RECORD_TIME_CONV = 79,
	EMBER_RECORD_HEADER_FEATURE = 80,
	EMBER_RECORD_COMPRESSED = 81,		/* zstd frames of records */
	EMBER_RECORD_FINISHED_INIT = 82,
	EMBER_RECORD_TYPE_MAX,			/* one past the last type known here */
};

/* Bits of the feature bitmap, as perf 6.1 numbers them. */
enum ember_feat {
	EMBER_FEAT_RESERVED = 0,
	EMBER_FEAT_TRACING_DATA = 1,
	EMBER_FEAT_BUILD_ID,
	EMBER_FEAT_HOSTNAME,
	EMBER_FEAT_OSRELEASE,
	EMBER_FEAT_VERSION,
	EMBER_FEAT_ARCH,
	EMBER_FEAT_NRCPUS,
	EMBER_FEAT_CPUDESC,
	EMBER_FEAT_CPUID,
	EMBER_FEAT_TOTAL_MEM,
	EMBER_FEAT_CMDLINE,
	EMBER_FEAT_EVENT_DESC,
	EMBER_FEAT_CPU_TOPOLOGY,
	EMBER_FEAT_NUMA_TOPOLOGY,
	EMBER_FEAT_BRANCH_STACK,
	EMBER_FEAT_PMU_MAPPINGS,
	EMBER_FEAT_GROUP_DESC,
	EMBER_FEAT_AUXTRACE,
	EMBER_FEAT_STAT,
	EMBER_FEAT_CACHE,
	EMBER_FEAT_SAMPLE_TIME,
	EMBER_FEAT_MEM_TOPOLOGY,
	EMBER_FEAT_CLOCKID,
	EMBER_FEAT_DIR_FORMAT,
	EMBER_FEAT_BPF_PROG_INFO,
	EMBER_FEAT_BPF_BTF,
	EMBER_FEAT_COMPRESSED,
	EMBER_FEAT_CPU_PMU_CAPS,
	EMBER_FEAT_CLOCK_DATA,
	EMBER_FEAT_HYBRID_TOPOLOGY,
	EMBER_FEAT_PMU_CAPS,
	EMBER_FEAT_LAST,		/* 32: also the pipe-mode "end of features" mark */
	EMBER_FEAT_BITS = 256,
};

/* "HOSTNAME" for EMBER_FEAT_HOSTNAME; NULL when unknown. Static storage. */
EMBER_API const char *ember_feat__name(int feat);
/* "SAMPLE", "MMAP2", "FINISHED_ROUND", ... as perf names them; NULL when unknown. */
EMBER_API const char *ember_record__name(uint32_t type);
/*
 * The fixed size of a record of `type` (its struct below, without the
 * trailing strings or arrays); the header's size for types without one.
 * A record shorter than this cannot be decoded.
 */
EMBER_API size_t ember_record__min_size(uint32_t type);

/* ---- record layouts (native endian, as in the file) ---------------------- */

struct ember_record_mmap {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char filename[];
};

struct ember_record_mmap2 {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		};
		struct {	/* header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID */
			uint8_t build_id_size;
			uint8_t __reserved_1;
			uint16_t __reserved_2;
			uint8_t build_id[20];
		};
	};
	uint32_t prot, flags;
	char filename[];
};

struct ember_record_comm {
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[];
};

/* PERF_RECORD_FORK and PERF_RECORD_EXIT */
struct ember_record_task {
	struct perf_event_header header;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct ember_record_lost {
	struct perf_event_header header;
	uint64_t id, lost;
};

struct ember_record_lost_samples {
	struct perf_event_header header;
	uint64_t lost;
};

/* PERF_RECORD_THROTTLE and PERF_RECORD_UNTHROTTLE */
struct ember_record_throttle {
	struct perf_event_header header;
	uint64_t time, id, stream_id;
};

/* PERF_RECORD_READ: pid, tid, then a read_format block (see ember_sample.read). */
struct ember_record_read {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t values[];
};

/* PERF_RECORD_SWITCH has no payload; PERF_RECORD_SWITCH_CPU_WIDE has this. */
struct ember_record_switch {
	struct perf_event_header header;
	uint32_t next_prev_pid, next_prev_tid;
};

struct ember_record_ksymbol {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	char name[];
};

struct ember_record_bpf_event {
	struct perf_event_header header;
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

struct ember_record_text_poke {
	struct perf_event_header header;
	uint64_t addr;
	uint16_t old_len, new_len;
	uint8_t bytes[];
};

struct ember_record_cgroup {
	struct perf_event_header header;
	uint64_t id;
	char path[];
};

struct ember_record_namespaces {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	struct {
		uint64_t dev, ino;
	} link_info[];
};

struct ember_record_aux {
	struct perf_event_header header;
	uint64_t aux_offset, aux_size, flags;
};

struct ember_record_itrace_start {
	struct perf_event_header header;
	uint32_t pid, tid;
};

struct ember_record_aux_output_hw_id {
	struct perf_event_header header;
	uint64_t hw_id;
};

/* HEADER_ATTR: the attr is attr.size bytes long, the ids follow it. */
struct ember_record_header_attr {
	struct perf_event_header header;
	struct perf_event_attr attr;
};

/* HEADER_TRACING_DATA: header.size is 16; `size` bytes of blob follow the record. */
struct ember_record_tracing_data {
	struct perf_event_header header;
	uint32_t size;
	uint32_t __pad;
};

/* HEADER_BUILD_ID, also the entries of the BUILD_ID feature section. */
struct ember_record_build_id {
	struct perf_event_header header;	/* misc & PERF_RECORD_MISC_BUILD_ID_SIZE: size valid */
	int32_t pid;
	union {
		uint8_t build_id[24];
		struct {
			uint8_t data[20];
			uint8_t size;
			uint8_t __reserved_1;
			uint16_t __reserved_2;
		};
	};
	char filename[];
};
#define EMBER_RECORD_MISC_BUILD_ID_SIZE (1 << 15)

struct ember_id_index_entry {
	uint64_t id, idx, cpu, tid;
};

struct ember_record_id_index {
	struct perf_event_header header;
	uint64_t nr;
	struct ember_id_index_entry entries[];
};

struct ember_record_thread_map {
	struct perf_event_header header;
	uint64_t nr;
	struct {
		uint64_t pid;
		char comm[16];
	} entries[];
};

/* CPU_MAP: data.type 0 = list of u16 cpus, 1 = mask, 2 = range (perf 6.1). */
struct ember_record_cpu_map {
	struct perf_event_header header;
	uint16_t type;
	uint8_t data[];
};

/* EVENT_UPDATE: type 0 unit (string), 1 scale (double), 2 name (string), 3 cpus. */
struct ember_record_event_update {
	struct perf_event_header header;
	uint64_t type;
	uint64_t id;
	char data[];
};

struct ember_record_time_conv {
	struct perf_event_header header;
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;	/* when header.size allows */
	uint8_t cap_user_time_zero, cap_user_time_short, __reserved[6];
};

struct ember_record_header_feature {
	struct perf_event_header header;
	uint64_t feat_id;
	char data[];
};

struct ember_record_auxtrace {
	struct perf_event_header header;
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu, __reserved;
};

struct ember_record_stat_config {
	struct perf_event_header header;
	uint64_t nr;
	struct {
		uint64_t tag, val;
	} data[];
};

struct ember_record_stat {
	struct perf_event_header header;
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
};

struct ember_record_stat_round {
	struct perf_event_header header;
	uint64_t type, time;
};

/* ---- samples ------------------------------------------------------------ */

/*
 * A decoded PERF_RECORD_SAMPLE (or the sample_id trailer of another record).
 * Pointers point into the record; fields absent from sample_type are 0/NULL.
 */
struct ember_sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	struct {				/* PERF_SAMPLE_READ */
		uint64_t time_enabled, time_running;
		uint64_t value, id, lost;	/* without PERF_FORMAT_GROUP */
		uint64_t group_nr;		/* with PERF_FORMAT_GROUP: */
		const uint64_t *group;		/* group_nr entries of group_stride u64: */
		uint32_t group_stride;		/* value[, id][, lost] */
	} read;
	uint64_t callchain_nr;
	const uint64_t *callchain;
	uint32_t raw_size;
	const void *raw_data;
	uint64_t branch_nr;
	uint64_t branch_hw_idx;			/* -1 unless PERF_SAMPLE_BRANCH_HW_INDEX */
	const struct perf_branch_entry *branch;
	const uint64_t *branch_counters;	/* PERF_SAMPLE_BRANCH_COUNTERS, branch_nr of them */
	struct ember_sample_regs {
		uint64_t abi;			/* PERF_SAMPLE_REGS_ABI_*; 0: no regs */
		uint64_t mask;			/* from the attr */
		uint32_t nr;
		const uint64_t *regs;
	} user_regs, intr_regs;
	struct {
		uint64_t size;			/* bytes copied */
		const void *data;		/* size bytes (where they would be, when 0) */
		uint64_t dyn_size;		/* bytes of it that are valid */
	} user_stack;
	uint64_t weight;			/* full u64 (WEIGHT) or var1_dw (WEIGHT_STRUCT) */
	uint16_t ins_lat, p_stage_cyc;		/* WEIGHT_STRUCT var2_w, var3_w */
	uint64_t data_src;
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	struct {
		uint64_t size;
		const void *data;
	} aux;
	uint16_t misc;				/* header.misc of the record */
	uint16_t cpumode;			/* misc & PERF_RECORD_MISC_CPUMODE_MASK */
};

/*
 * Decode a PERF_RECORD_SAMPLE laid out by `attr` (sample_type, read_format,
 * branch_sample_type, sample_regs_*). Returns 0, or -EINVAL when the record
 * is shorter than its fields say (nothing is read beyond rec->size).
 */
EMBER_API int ember_sample__parse(struct ember_sample *s, const struct perf_event_header *rec,
				  const struct perf_event_attr *attr);
/*
 * Decode the sample_id trailer (tid, time, id, stream_id, cpu, identifier)
 * of a non-sample kernel record. Without attr->sample_id_all the sample is
 * zeroed with pid/tid/cpu -1 and 0 is returned. -EINVAL on a short record.
 */
EMBER_API int ember_sample__parse_id(struct ember_sample *s, const struct perf_event_header *rec,
				     const struct perf_event_attr *attr);

/* ---- environment: the content of the feature sections ------------------- */

struct ember_env_cpu {
	int32_t core_id, socket_id, die_id;	/* -1 when unknown (offline cpu) */
};

struct ember_env_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;		/* kB */
	char *cpus;				/* cpu list "0-3" */
};

struct ember_env_pmu {
	uint32_t type;
	char *name;
};

struct ember_env_group {
	char *name;				/* "{anon_group}" when unnamed */
	uint32_t leader_idx, nr_members;
};

struct ember_env_cache {
	uint32_t level, line_size, sets, ways;
	char *type, *size, *map;
};

struct ember_env_mem_node {
	uint64_t node;
	uint64_t size;				/* bits in `set` */
	uint64_t *set;				/* bitmap of memory blocks */
};

struct ember_env_pmu_caps {
	char *pmu_name;
	uint32_t nr_caps;
	char **caps;				/* "name=value" */
};

struct ember_env_hybrid_node {
	char *pmu_name, *cpus;
};

struct ember_env_build_id {
	int32_t pid;
	uint16_t misc;				/* cpumode of the dso */
	uint8_t size;				/* bytes of build_id in use */
	uint8_t build_id[20];
	char *filename;
};

/* One EVENT_DESC entry: the attr, the name it was given, its ids. */
struct ember_env_event {
	struct perf_event_attr attr;
	char *name;
	uint32_t nr_ids;
	uint64_t *ids;
};

/* A feature section kept as the bytes of the file. */
struct ember_env_blob {
	void *data;
	uint64_t size;
};

/*
 * Everything the feature sections say. `feat` holds the bits of the features
 * present (reader) or to be written (writer). All pointers are owned by the
 * struct: release with ember_env__exit(). Strings are NUL-terminated.
 */
struct ember_env {
	uint64_t feat[EMBER_FEAT_BITS / 64];

	char *hostname, *os_release, *version, *arch, *cpu_desc, *cpuid;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem;			/* kB */

	uint32_t nr_cmdline;
	char **cmdline;				/* [0] is the recording binary */

	uint32_t nr_events;			/* EVENT_DESC */
	struct ember_env_event *events;

	/* CPU_TOPOLOGY: package ("sockets"), die and core ("threads") cpu lists */
	uint32_t nr_sibling_sockets, nr_sibling_dies, nr_sibling_threads;
	char **sibling_sockets, **sibling_dies, **sibling_threads;
	uint32_t nr_cpu;			/* entries of `cpu`: 0 or nr_cpus_avail */
	struct ember_env_cpu *cpu;
	bool has_die_ids;

	uint32_t nr_numa_nodes;
	struct ember_env_numa_node *numa_nodes;

	uint32_t nr_pmu_mappings;
	struct ember_env_pmu *pmu_mappings;

	uint32_t nr_groups;
	struct ember_env_group *groups;

	uint32_t nr_caches;
	struct ember_env_cache *caches;

	uint64_t first_sample_time, last_sample_time;	/* SAMPLE_TIME, ns */

	uint64_t memory_bsize;			/* MEM_TOPOLOGY */
	uint64_t nr_memory_nodes;
	struct ember_env_mem_node *memory_nodes;

	uint64_t clockid_res_ns;		/* CLOCKID */

	uint32_t clockid;			/* CLOCK_DATA */
	uint64_t clock_tod_ns, clock_clockid_ns;

	uint32_t comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len;	/* COMPRESSED */

	uint64_t dir_version;			/* DIR_FORMAT */

	uint32_t nr_cpu_pmu_caps;		/* CPU_PMU_CAPS, "name=value" */
	char **cpu_pmu_caps;

	uint32_t nr_pmus_with_caps;		/* PMU_CAPS */
	struct ember_env_pmu_caps *pmu_caps;

	uint32_t nr_hybrid_nodes;
	struct ember_env_hybrid_node *hybrid_nodes;

	uint32_t nr_build_ids;
	struct ember_env_build_id *build_ids;

	/* TRACING_DATA, AUXTRACE, BPF_PROG_INFO, BPF_BTF: opaque, kept as bytes */
	struct ember_env_blob tracing_data, auxtrace, bpf_prog_info, bpf_btf;
};

#define EMBER_COMP_ZSTD 1

static inline bool ember_env__has_feat(const struct ember_env *env, int feat)
{
	return feat > 0 && feat < EMBER_FEAT_BITS && (env->feat[feat / 64] >> (feat % 64)) & 1;
}

static inline void ember_env__set_feat(struct ember_env *env, int feat, bool on)
{
	if (feat <= 0 || feat >= EMBER_FEAT_BITS)
		return;
	if (on)
		env->feat[feat / 64] |= 1ULL << (feat % 64);
	else
		env->feat[feat / 64] &= ~(1ULL << (feat % 64));
}

/* Free everything the env owns and zero it. Accepts NULL. */
EMBER_API void ember_env__exit(struct ember_env *env);

/*
 * Fill `env` with this machine's description, as perf record does: uname
 * (hostname, os release, arch), "6.1.0-ember-<version>" (the perf release
 * whose format it writes, as readers parse a perf version there, then
 * ember's), cpus, /proc/cpuinfo model
 * name and cpuid ("GenuineIntel,6,85,7"), /proc/meminfo, cpu/numa/memory
 * topology, caches and pmus from sysfs, empty BPF sections. Features it
 * cannot read are left out of env->feat. What only the recorder knows is
 * its to add: CMDLINE (ember_env__set_cmdline), BUILD_ID, SAMPLE_TIME,
 * TRACING_DATA, GROUP_DESC, CLOCKID/CLOCK_DATA. `env` is zeroed first; free
 * with ember_env__exit(). Returns 0 or -ENOMEM.
 */
EMBER_API int ember_env__gather(struct ember_env *env);

/* Set CMDLINE to the running binary (/proc/self/exe) then argv[0..argc). 0 or -ENOMEM. */
EMBER_API int ember_env__set_cmdline(struct ember_env *env, int argc, const char *const *argv);

/* Replace a string field (e.g. &env->version) with a copy of `s`. 0 or -ENOMEM. */
EMBER_API int ember_env__set_str(char **field, const char *s);

/* ---- reader ------------------------------------------------------------- */

struct ember_data_reader;

#define EMBER_OPEN_DETAIL_MAX 160

/*
 * Why opening a perf.data file failed, for a caller that tells a person:
 * filled by ember_data_reader__open() and ember_session__open() when
 * their opts point to one. err is the positive errno the open failed
 * with (0 when it did not fail); detail says in words what is wrong with
 * the file ("file too short (14 bytes)", "recorded on a machine of the
 * other endianness; not supported"), without the file's name, or is ""
 * when err says all (no such file, not owned, empty, out of memory).
 */
struct ember_open_error {
	int err;
	char detail[EMBER_OPEN_DETAIL_MAX];
};

struct ember_data_reader_opts {
	size_t sz;			/* sizeof(struct ember_data_reader_opts) */
	bool show_compressed;		/* also hand out COMPRESSED records, before their content */
	/*
	 * Keep what is usable in a damaged file: after open, a record smaller
	 * than its header ends the data there (next() returns 0, as at the
	 * end), and a COMPRESSED record that does not decode or a header
	 * record (ATTR, FEATURE, ...) that does not parse is skipped, instead
	 * of next() failing with -EINVAL. ember_data_reader__end() says what
	 * was given up on.
	 */
	bool lenient;
	/* When not NULL, says why the open failed (see struct ember_open_error). */
	struct ember_open_error *error;
};

/* One record handed out by ember_data_reader__next(). */
struct ember_data_record {
	const struct perf_event_header *hdr;	/* valid until the next call */
	uint64_t offset;	/* as perf -D shows it: file offset, or stream offset
				 * after the 16-byte pipe header */
	const void *payload;	/* data that follows the record (TRACING_DATA blob,
				 * AUXTRACE data in file mode), or NULL */
	uint64_t payload_size;	/* bytes that follow the record (also when payload is NULL) */
	bool compressed;	/* decoded from a COMPRESSED record */
};

/*
 * Open a perf.data file, or "-" for standard input. File or pipe format is
 * told by the header, not by the kind of fd. The header, attrs and feature
 * sections are read at once (in pipe mode: the leading ATTR, FEATURE and
 * TRACING_DATA records, which next() still hands out). NULL with errno:
 * EINVAL not a perf.data file or a corrupt header, EPROTONOSUPPORT other
 * endianness or an old format, ENOMEM, or the open/read error; what was
 * wrong in opts->error when given. Free with ember_data_reader__delete().
 */
EMBER_API struct ember_data_reader *ember_data_reader__open(const char *path,
							   const struct ember_data_reader_opts *opts);
/* As above on an open fd, which the reader does not close. */
EMBER_API struct ember_data_reader *ember_data_reader__open_fd(int fd,
							      const struct ember_data_reader_opts *opts);
EMBER_API void ember_data_reader__delete(struct ember_data_reader *r);

/*
 * The next record: 1 and *rec filled, 0 at the end of data, or a negative
 * errno: -EINVAL a record whose size is smaller than its header (iteration
 * stops there; with opts.lenient it ends the data instead: 0), or a COMPRESSED
 * record that does not decode (lenient: skipped), -EIO/-errno a read error,
 * -ENOTSUP a COMPRESSED record that cannot be decoded (libzstd missing). A
 * record cut short by the end of the file ends iteration with 0 and sets
 * ember_data_reader__truncated().
 * Unknown record types are handed out too, and counted.
 */
EMBER_API int ember_data_reader__next(struct ember_data_reader *r, struct ember_data_record *rec);

EMBER_API bool ember_data_reader__is_pipe(const struct ember_data_reader *r);
/* The file ended inside a record or before data.offset + data.size. */
EMBER_API bool ember_data_reader__truncated(const struct ember_data_reader *r);
/* The header's data.size was 0 (recorder killed): the rest of the file was read as data. */
EMBER_API bool ember_data_reader__data_size_was_zero(const struct ember_data_reader *r);
/* Records seen so far of `type` (types >= EMBER_RECORD_TYPE_MAX are all counted as unknown). */
EMBER_API uint64_t ember_data_reader__nr_records(const struct ember_data_reader *r, uint32_t type);
/* Records of a type this library does not know, seen so far. */
EMBER_API uint64_t ember_data_reader__nr_unknown(const struct ember_data_reader *r);

/* How the data ended, to tell a damaged file from one that just holds no sample. */
struct ember_data_reader_end {
	uint32_t last_type;		/* of the last record handed out; 0: none yet */
	bool stopped;			/* (lenient) a record smaller than its header ended the data */
	uint16_t stop_size;		/* its size field */
	uint64_t stop_offset;		/* its offset, as perf -D shows offsets */
	uint64_t nr_skipped;		/* (lenient) records skipped: they did not decode or parse */
	uint32_t skip_type;		/* the first one's type */
	uint64_t skip_offset;		/* and offset */
};
/* Fills *end with the reader's state so far (after next() returned 0: how the data ended). */
EMBER_API void ember_data_reader__end(const struct ember_data_reader *r,
				      struct ember_data_reader_end *end);

/* File header values as perf --header prints them (0 in pipe mode). */
struct ember_data_header_info {
	uint64_t data_offset, data_size, feat_offset;
	uint64_t attr_size;
	uint64_t file_size;
	int64_t mtime;			/* of the file, seconds */
};
EMBER_API void ember_data_reader__header_info(const struct ember_data_reader *r,
					      struct ember_data_header_info *info);

/* What the feature sections (or pipe-mode FEATURE records) said. Owned by the reader. */
EMBER_API const struct ember_env *ember_data_reader__env(const struct ember_data_reader *r);

/* One event of the file: its attr, ids and name. Owned by the reader. */
struct ember_data_attr {
	struct perf_event_attr attr;	/* zero-extended to this build's size */
	uint32_t file_attr_size;	/* attr.size as found in the file */
	uint32_t idx;
	uint32_t nr_ids;
	const uint64_t *ids;
	const char *name;		/* EVENT_DESC or EVENT_UPDATE name, or NULL; a name
				 * replaced by a later EVENT_UPDATE stays valid too */
};

EMBER_API uint32_t ember_data_reader__nr_attrs(const struct ember_data_reader *r);
/* The idx-th attr, or NULL. Pointers stay valid for the reader's life. */
EMBER_API const struct ember_data_attr *ember_data_reader__attr(const struct ember_data_reader *r,
								uint32_t idx);
/* The attr that owns sample id `id`, or NULL. */
EMBER_API const struct ember_data_attr *
ember_data_reader__attr_by_id(const struct ember_data_reader *r, uint64_t id);
/*
 * The attr that produced a kernel record: by its sample id (IDENTIFIER, or
 * ID at the position sample_type gives), or the only attr when there is one.
 * NULL when the id is unknown.
 */
EMBER_API const struct ember_data_attr *
ember_data_reader__attr_of(const struct ember_data_reader *r, const struct perf_event_header *rec);
/*
 * Find the attr of a record and decode it: the sample for PERF_RECORD_SAMPLE,
 * the sample_id trailer for the other kernel records. Returns 0, -ENOENT
 * (no attr for its id), -EINVAL (short record, or a record perf adds, type
 * >= 64, which carries no sample).
 */
EMBER_API int ember_data_reader__parse_sample(const struct ember_data_reader *r,
					      const struct perf_event_header *rec,
					      struct ember_sample *s);

/*
 * Print the header as `perf report --header-only` does (`full` as -I:
 * topology, caches and memory in full) into fp. In pipe mode the features
 * are those of the records read so far (all of them after open).
 */
EMBER_API int ember_data_reader__fprintf_header(const struct ember_data_reader *r, FILE *fp,
						bool full);

/* Print perf's attr line fields: ", type = 1, size = 128, ..." (as in "# event :"). */
EMBER_API int ember_attr__fprintf(FILE *fp, const struct perf_event_attr *attr);

/* ---- record dumper (perf report -D / perf script -D layout) -------------- */

/* Whose -D to mimic: the two differ in the records they handle themselves. */
enum ember_dump_style {
	EMBER_DUMP_REPORT,	/* perf report -D */
	EMBER_DUMP_SCRIPT,	/* perf script -D (session lines such as the script's own
				 * output of a sample are the caller's) */
};

/*
 * Print one record as perf -D does: a blank line, "0x1a8@NAME [0x28]: event: 9",
 * the raw hex dump, then the decoded line ("TIME 0x1a8 [0x28]:
 * PERF_RECORD_SAMPLE(IP, 0x2): 1234/1234: 0x... period: 1 addr: 0", callchain,
 * branch stack, regs...). `file_name` is what follows '@' ("perf.data",
 * "pipe"). Returns 0, or -ENOENT/-EINVAL when a kernel record cannot be
 * decoded (perf's "failed to process type" line is printed then).
 */
EMBER_API int ember_data__dump_record(FILE *fp, const struct ember_data_reader *r,
				      const struct ember_data_record *rec, const char *file_name,
				      enum ember_dump_style style);
/* Just the hex dump part (". ... raw event: size N bytes" and its lines). */
EMBER_API void ember_data__dump_hex(FILE *fp, const void *data, size_t size);

/* ---- writer ------------------------------------------------------------- */

struct ember_data_writer;

struct ember_data_writer_opts {
	size_t sz;			/* sizeof(struct ember_data_writer_opts) */
	bool pipe;			/* pipe format (also forced for path "-") */
	int fd;				/* with path NULL: write to this fd (not closed) */
	int compress_level;		/* > 0: zstd level for COMPRESSED records (-z) */
	size_t buffer_size;		/* write buffer; 0: 1 MiB */
};

/*
 * Create `path` (truncated; "-" is standard output, pipe format) or use
 * opts->fd when path is NULL. Returns NULL with errno set. The writer is
 * freed by ember_data_writer__close(), or by ember_data_writer__delete()
 * to give up (the file is left as far as it got).
 */
EMBER_API struct ember_data_writer *ember_data_writer__open(const char *path,
							   const struct ember_data_writer_opts *opts);

/*
 * Declare an event, before __start(): its attr (written with the smallest
 * perf ABI size that holds it), the sample ids its fds got, and its name
 * (for EVENT_DESC; may be NULL). Returns the event's index or a negative errno.
 */
EMBER_API int ember_data_writer__add_attr(struct ember_data_writer *w,
					  const struct perf_event_attr *attr, const uint64_t *ids,
					  uint32_t nr_ids, const char *name);

/*
 * Begin the data. File mode: writes the header (data size 0), ids and attrs.
 * Pipe mode: writes the 16-byte header, one HEADER_ATTR per event, one
 * HEADER_FEATURE per feature of `env` (may be NULL) perf sends in pipe mode,
 * plus EVENT_DESC, the end-of-features mark, HEADER_BUILD_ID records and
 * the TRACING_DATA record and blob if env has them. The records that follow
 * (ID_INDEX, synthesized tasks, FINISHED_INIT, samples...) are the caller's.
 */
EMBER_API int ember_data_writer__start(struct ember_data_writer *w, const struct ember_env *env);

/*
 * Append whole records (`size` bytes, one or more records). Buffered; with
 * compress_level, compressed into COMPRESSED records.
 */
EMBER_API int ember_data_writer__write(struct ember_data_writer *w, const void *data, size_t size);
/*
 * As ember_data_writer__write(), but the records are never compressed:
 * perf record -z compresses only what it reads from the ring buffers, and
 * writes its own records (synthesized tasks and mmaps, FINISHED_ROUND,
 * FINISHED_INIT...) as they are, which readers without zstd still see.
 */
EMBER_API int ember_data_writer__write_plain(struct ember_data_writer *w, const void *data,
					     size_t size);

/*
 * File mode: flush the buffer and rewrite the header's data size, so a file
 * whose recorder is killed later is still readable up to here. No-op for pipes.
 */
EMBER_API int ember_data_writer__sync(struct ember_data_writer *w);

/* Bytes of records written so far (after compression). */
EMBER_API uint64_t ember_data_writer__data_size(const struct ember_data_writer *w);
/*
 * With compress_level: the bytes of records compressed so far (*in) and of
 * the COMPRESSED records they became (*out), perf's bytes_transferred and
 * bytes_compressed; records written plain count in neither.
 */
EMBER_API void ember_data_writer__compressed(const struct ember_data_writer *w, uint64_t *in,
					     uint64_t *out);

/*
 * Finish and free the writer. File mode: flush, write the feature sections
 * of `env` (may be NULL) plus EVENT_DESC, and the final header. Pipe mode:
 * flush. Closes the file if the writer opened it. 0 or the first error.
 */
EMBER_API int ember_data_writer__close(struct ember_data_writer *w, const struct ember_env *env);
EMBER_API void ember_data_writer__delete(struct ember_data_writer *w);

/*
 * After a write error (a full disk) in file mode: the header holds the
 * data size of the last sync, but whole records may have reached the disk
 * since. Extend the data size over every complete record after it, so the
 * file reads up to the last one that fits. Best effort, on a file no
 * writer has open: returns 0 or -errno (the header then stays as it was).
 */
EMBER_API int ember_data_writer__salvage(const char *path);

#ifdef __cplusplus
}
#endif

#endif
