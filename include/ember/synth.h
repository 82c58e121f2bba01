/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Synthesized records: what already exists when recording starts (tasks,
 * their mappings, the kernel and its modules), described as the records the
 * kernel would have written, exactly as perf 6.1 synthesizes them.
 *
 *	struct ember_synth s;
 *	struct ember_synth_opts o = { .emit = write_rec, .ctx = w,
 *				      .sample_id_all = true, .sample_type = st };
 *
 *	ember_synth__init(&s, &o);
 *	ember_synth__kernel(&s);			kernel + modules MMAPs
 *	ember_synth__threads(&s, tids, nr);		-p/-t: COMM (+MMAP2 for leaders)
 *	or ember_synth__all_processes(&s);		-a: FORK+COMM per thread, MMAP2
 *	ember_synth__exit(&s);
 *
 * Records are raw kernel ABI (struct perf_event_header + payload, native
 * endian, 8-byte aligned sizes), handed one at a time to opts.emit; the
 * pointer is valid only during the call. When sample_id_all is set, each
 * kernel-type record (COMM, FORK, MMAP, MMAP2) carries the sample_id trailer
 * laid out by sample_type; its values come from opts.id, and are all zero
 * when opts.id is NULL, which is what perf writes (a zero id means "the
 * first evsel" to perf's reader). perf's own record types (THREAD_MAP,
 * CPU_MAP, ID_INDEX, FINISHED_INIT) never carry a trailer.
 *
 * Tasks that exit while being read are skipped silently and counted.
 * Nothing here allocates per line or per task; /proc is read with
 * openat/read/getdents64 into stack buffers.
 */
#ifndef EMBER_SYNTH_H
#define EMBER_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Receives each record. Return 0 to go on; a negative errno stops the
 * synthesis and is returned by the function that was emitting (a positive
 * value stops it too, reported as -ECANCELED).
 */
typedef int (*ember_synth_emit_fn)(void *ctx, const struct perf_event_header *rec);

/* Values written into the sample_id trailer (the fields sample_type selects). */
struct ember_synth_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;		/* PERF_SAMPLE_ID and PERF_SAMPLE_IDENTIFIER */
	uint64_t stream_id;
	uint32_t cpu;
};

struct ember_synth_opts {
	ember_synth_emit_fn emit;
	void *ctx;
	bool sample_id_all;		/* append the sample_id trailer */
	uint64_t sample_type;		/* of the first evsel: lays out the trailer */
	const struct ember_synth_id *id; /* trailer values; NULL: zeros, as perf */
	bool mmap_data;			/* perf record -d: readable data maps too */
	bool no_mmap;			/* no evsel wants mmaps: COMM/FORK only */
	unsigned int proc_map_timeout_ms; /* per maps file; 0: perf's 500 */
	bool namespaces;		/* perf record --namespaces: NAMESPACES after each COMM */
};

/* What was emitted (and skipped) so far; accumulates across calls. */
struct ember_synth_counts {
	uint64_t comm, fork, mmap, mmap2;
	uint64_t processes;		/* thread-group leaders synthesized */
	uint64_t threads;		/* tasks given a COMM */
	uint64_t kernel_threads;
	uint64_t modules;
	uint64_t vanished;		/* tasks that exited while being read */
	uint64_t unreadable;		/* maps files we may not open (EACCES) */
	uint64_t timeouts;		/* maps files cut by proc_map_timeout_ms */
	int kernel_err;			/* why the kernel MMAP is missing, else 0 */
};

/* Maximum size of the sample_id trailer: six u64 fields. */
#define EMBER_SYNTH_ID_MAX 48

/*
 * A synthesis context; lives on the caller's stack between __init and
 * __exit. The caller reads counts; the other fields are the library's.
 */
struct ember_synth {
	struct ember_synth_opts opts;
	uint64_t id_sample[EMBER_SYNTH_ID_MAX / 8];
	size_t id_size;			/* bytes of trailer, 0 without sample_id_all */
	int proc_fd;			/* O_PATH|O_DIRECTORY fd of /proc */
	char hugetlbfs[256];		/* hugetlbfs mount point, "" when none */
	size_t hugetlbfs_len;
	struct ember_synth_counts counts;
};

/*
 * Prepare a context: computes the trailer, opens /proc, finds the hugetlbfs
 * mount (maps under it are named //anon with MAP_HUGETLB, as perf does).
 * Returns 0, -EINVAL without an emit callback, or -errno opening /proc.
 */
EMBER_API int ember_synth__init(struct ember_synth *s, const struct ember_synth_opts *opts);
/* Close what __init opened. Safe to call twice. */
EMBER_API void ember_synth__exit(struct ember_synth *s);

/*
 * Write the sample_id trailer for sample_type into buf (at least
 * EMBER_SYNTH_ID_MAX bytes): TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER in
 * the kernel's order. Returns the bytes written (a multiple of 8).
 */
EMBER_API size_t ember_synth__id_sample(void *buf, uint64_t sample_type,
					const struct ember_synth_id *id);

/* ---- tasks ---------------------------------------------------------------- */

/*
 * PERF_RECORD_COMM for one task (tid), named from /proc/TID/status as perf
 * does (at most 15 bytes). Returns the task's tgid (> 0), -ESRCH when it
 * does not exist, or the emit callback's error.
 */
EMBER_API pid_t ember_synth__comm(struct ember_synth *s, pid_t tid);

/*
 * PERF_RECORD_MMAP2 for each executable mapping of process pid (and for each
 * readable one with opts.mmap_data), from /proc/PID/task/PID/maps, records
 * saying pid/tid = tgid/pid. Returns 0, -ESRCH when the task is gone,
 * -EACCES when its maps may not be read, or the emit callback's error.
 */
EMBER_API int ember_synth__mmaps(struct ember_synth *s, pid_t pid, pid_t tgid);

/*
 * What perf record -p/-t synthesizes for a thread map: for each tid a COMM,
 * plus the MMAP2s when it leads its group; a group leader missing from the
 * list is synthesized too. Tids that are gone are skipped. Returns 0, -ESRCH
 * when none of them exists, -EACCES (at once) when a leader's maps may not
 * be read (perf record -p fails there too), or the emit callback's error.
 */
EMBER_API int ember_synth__threads(struct ember_synth *s, const pid_t *tids, int nr);

/*
 * What perf record -a synthesizes for one process: FORK then COMM for each
 * of its threads (kernel threads included), then the leader's MMAP2s unless
 * it is a kernel thread. As perf 6.1, when the leader's maps may not be read
 * (EACCES) the process's remaining threads are left out. Returns 0, -ESRCH
 * when the process does not exist, or the emit callback's error.
 */
EMBER_API int ember_synth__process(struct ember_synth *s, pid_t pid);

/* ember_synth__process() for every process in /proc. Returns 0 or an error. */
EMBER_API int ember_synth__all_processes(struct ember_synth *s);

/*
 * PERF_RECORD_NAMESPACES for task tid of process tgid: the dev/ino of its
 * seven /proc/TID/ns links in perf's order (0/0 for one that cannot be
 * read). Returns the emit callback's result.
 */
EMBER_API int ember_synth__namespaces(struct ember_synth *s, pid_t tgid, pid_t tid);

/*
 * One PERF_RECORD_CGROUP per directory of the cgroup file system mounted
 * at mount (pre-order, the root as "/"), its id the kernfs file handle as
 * perf takes it. Returns 0, -errno walking it, or the emit error.
 */
EMBER_API int ember_synth__cgroups(struct ember_synth *s, const char *mount);

/*
 * Where the cgroups perf_event filters on are mounted: the v1 perf_event
 * controller, else cgroup2. Returns 0 with the path in buf, or -ENOENT.
 */
EMBER_API int ember_synth__cgroup_mount(char *buf, size_t size);

/* ---- BPF programs ---------------------------------------------------------- */

struct ember_env_blob;

/*
 * The BPF programs loaded now, as perf record describes them at its start:
 * per program a PERF_RECORD_KSYMBOL for each function and one
 * PERF_RECORD_BPF_EVENT (PROG_LOAD); each program's info and arrays
 * appended to infos (the BPF_PROG_INFO feature's layout), their BTF to
 * btfs (BPF_BTF). Without the privilege to list programs, nothing (0).
 * Returns 0 or the emit callback's error / -ENOMEM.
 */
EMBER_API int ember_synth__bpf_programs(struct ember_synth *s, struct ember_env_blob *infos,
					struct ember_env_blob *btfs);

/* ---- the kernel ------------------------------------------------------------ */

/* The kernel's relocation reference and text end, from /proc/kallsyms. */
struct ember_synth_kref {
	char name[8];			/* "_text" or "_stext" */
	uint64_t start;			/* its address */
	uint64_t end;			/* _etext, or 0 when not found */
};

/*
 * Scan a kallsyms file (fd read from its current offset) for the reference
 * symbol perf uses ("_text", else "_stext") and "_etext". Returns 0,
 * -ENOENT when no reference symbol is there, -EACCES when addresses read
 * as zero (kptr_restrict), or -errno.
 */
EMBER_API int ember_synth__kallsyms_ref(int fd, struct ember_synth_kref *ref);

/*
 * PERF_RECORD_MMAP "[kernel.kallsyms]_text" (pid -1, misc KERNEL, pgoff =
 * start, len up to _etext, else up to the first module, else to the top of
 * the address space), then one per module (ember_synth__modules_from on
 * /proc/modules and /lib/modules/`uname -r`). On x86_64 with /proc/iomem
 * readable (root) the range comes from its "Kernel code" line and the head
 * of kallsyms, in microseconds rather than the ~70 ms of scanning all of
 * kallsyms for _etext; the record is the same. Returns 0, the kallsyms error
 * (the kernel record cannot be made; perf warns and goes on), or the emit
 * callback's error.
 */
EMBER_API int ember_synth__kernel(struct ember_synth *s);

/*
 * One PERF_RECORD_MMAP per module listed in modules_fd (read from its
 * current offset; the format of /proc/modules), in address order: misc
 * KERNEL, pid -1, start, len = size, pgoff 0, named by its .ko path (also
 * .ko.xz/.gz/.zst) under modules_dir when found there (NULL: do not look),
 * else "[name]", as perf names module dsos. Modules at address 0 (hidden by
 * kptr_restrict) are skipped. Returns 0, -ENOMEM, or the emit error.
 */
EMBER_API int ember_synth__modules_from(struct ember_synth *s, int modules_fd,
					const char *modules_dir);

/*
 * The whole machine, as perf record -a: ember_synth__kernel() then
 * ember_synth__all_processes(). A kernel MMAP that cannot be made (kallsyms
 * hidden) is not fatal, as in perf: it is left out and its reason stored in
 * counts.kernel_err. *counts (may be NULL) receives the context's counts.
 * Returns 0, or the first other error (the emit callback's, or -errno).
 */
EMBER_API int ember_synth__machine(struct ember_synth *s, struct ember_synth_counts *counts);

/* ---- perf's own records (no trailer) -------------------------------------- */

/* One entry of PERF_RECORD_ID_INDEX, as perf writes it. */
struct ember_synth_id_index_entry {
	uint64_t id;
	uint64_t idx;			/* cpu index, or thread index for per-thread events */
	uint64_t cpu;			/* (u64)-1 for "any cpu" */
	uint64_t tid;			/* (u64)-1 for "every thread" */
};

/*
 * PERF_RECORD_ID_INDEX for nr entries, split as perf splits it (at most
 * 2047 entries a record). Returns 0 (also for nr == 0: nothing emitted),
 * or the emit callback's error, or -ENOMEM.
 */
EMBER_API int ember_synth__id_index(ember_synth_emit_fn emit, void *ctx,
				    const struct ember_synth_id_index_entry *entries, size_t nr);

/*
 * PERF_RECORD_THREAD_MAP: nr entries of { u64 pid; char comm[16]; };
 * comms may be NULL (perf record leaves them empty). Returns 0, -E2BIG when
 * it does not fit a record, -ENOMEM, or the emit callback's error.
 */
EMBER_API int ember_synth__thread_map(ember_synth_emit_fn emit, void *ctx, const pid_t *pids,
				      const char *const *comms, int nr);

/*
 * Encode a cpu list (sorted ascending; a leading -1 means "any cpu") as
 * perf 6.1's struct perf_record_cpu_map_data: a range when consecutive,
 * else a u16 list or a 32-bit mask, whichever perf picks. buf may be NULL
 * to learn the size. Returns the encoded size (a multiple of 8, at most
 * size), or -EINVAL / -E2BIG.
 */
EMBER_API ssize_t ember_synth__cpu_map_data(void *buf, size_t size, const int *cpus, int nr);

/* PERF_RECORD_CPU_MAP for the cpu list. Returns 0, -errno or the emit error. */
EMBER_API int ember_synth__cpu_map(ember_synth_emit_fn emit, void *ctx, const int *cpus, int nr);

/* PERF_RECORD_FINISHED_INIT: an 8-byte header. Returns the emit callback's result. */
EMBER_API int ember_synth__finished_init(ember_synth_emit_fn emit, void *ctx);

/* ---- build-ids of what was mapped --------------------------------------- */

/*
 * The build-ids of what a recording mapped executable: the BUILD_ID
 * feature section perf record writes, without reading the file back.
 *
 * perf record finds the dsos that have samples by processing the whole
 * file after recording, then reads their build-ids. A recorder sees every
 * record go by anyway: it notes the executable MMAP/MMAP2 ones as they pass
 * (a hash look-up per map record), the code page of each sample (a compare,
 * or a hash look-up when the page changes), and reads
 * the note of each distinct file that samples hit, once, at the end: the
 * files perf lists, and [vdso], which perf always lists. With `all`, every
 * file mapped executable, as perf's --buildid-all.
 *
 *	struct ember_synth_buildids *b = ember_synth_buildids__new(false);
 *	ember_synth_buildids__note(b, rec);	for each map record written
 *	ember_synth_buildids__sample(b, rec, ip_off);	for each sample
 *	ember_synth_buildids__read(b, env);	fills env->build_ids
 *	ember_synth_buildids__delete(b);
 */
struct ember_env;
struct ember_synth_buildids;

/*
 * A new, empty collector, or NULL (errno ENOMEM). Free with __delete.
 * all: every file mapped executable, hit or not (perf's --buildid-all).
 */
EMBER_API struct ember_synth_buildids *ember_synth_buildids__new(bool all);
/* Free the collector. NULL is fine. */
EMBER_API void ember_synth_buildids__delete(struct ember_synth_buildids *b);

/*
 * Look at one record: an executable MMAP or MMAP2 (kernel, module, file
 * or [vdso]) adds its file once; anything else is ignored. Returns 0 or
 * -ENOMEM.
 */
EMBER_API int ember_synth_buildids__note(struct ember_synth_buildids *b,
					 const struct perf_event_header *rec);

/*
 * Look at one sample: its ip, ip_off bytes into the body (after the
 * identifier, if any), marks the page hit, in the kernel's or the user's
 * mode. Nothing to do with `all`. Returns 0 or -ENOMEM.
 */
EMBER_API int ember_synth_buildids__sample(struct ember_synth_buildids *b,
					   const struct perf_event_header *rec, size_t ip_off);

/* How many distinct files were noted so far. */
EMBER_API size_t ember_synth_buildids__nr(const struct ember_synth_buildids *b);

/*
 * Read the build-id of every noted file samples hit (every one with `all`;
 * [vdso] always) and append an entry per file that has one to
 * env->build_ids (pid -1, the kernel's cpumode for the kernel and modules,
 * the user's for the rest; in the order first seen, as perf orders its
 * dsos), and set the BUILD_ID feature. The kernel's comes from
 * /sys/kernel/notes, a module's from /sys/module/NAME/notes, [vdso]'s from
 * this process's own vdso (the kernel maps one image per ABI), a file's
 * from the notes its program headers point at (the first page, already in
 * the page cache since it was mapped), else from its note sections. Files
 * gone or without a build-id are left out. Returns 0 or -ENOMEM.
 */
EMBER_API int ember_synth_buildids__read(struct ember_synth_buildids *b, struct ember_env *env);

/*
 * The GNU build-id of an ELF image in memory (img, len bytes from its
 * start), found through its PT_NOTE program headers. Returns its length
 * (at most size bytes copied to buf), or -ENODATA.
 */
EMBER_API int ember_synth_buildids__from_image(const void *img, size_t len, uint8_t *buf,
					       size_t size);

#ifdef __cplusplus
}
#endif

#endif
