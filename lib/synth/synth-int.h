/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Private to lib/synth: record layouts (kernel ABI, spelled out here so this
 * directory depends on nothing but <linux/perf_event.h>), perf's own record
 * type numbers, and the /proc readers the task and kernel files share.
 */
#ifndef EMBER_LIB_SYNTH_INT_H
#define EMBER_LIB_SYNTH_INT_H

#include <limits.h>
#include <stdint.h>
#include <ember/synth.h>

/* perf's record types (PERF_RECORD_USER_TYPE_START and up). */
#define SYNTH_RECORD_ID_INDEX		69
#define SYNTH_RECORD_THREAD_MAP		73
#define SYNTH_RECORD_CPU_MAP		74
#define SYNTH_RECORD_FINISHED_INIT	82

/* Not in every <linux/perf_event.h>: set on maps cut short by the timeout. */
#ifndef PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT
#define PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT (1 << 12)
#endif

#define SYNTH_ALIGN8(x) (((x) + 7) & ~(size_t)7)

struct synth_comm {
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[];
};

struct synth_fork {
	struct perf_event_header header;
	uint32_t pid, ppid;
	uint32_t tid, ptid;
	uint64_t time;
};

struct synth_mmap {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char filename[];
};

struct synth_mmap2 {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[];
};

/* Room for the largest record built here: an MMAP2 with a PATH_MAX name. */
union synth_buf {
	struct perf_event_header header;
	uint64_t u64[(sizeof(struct synth_mmap2) + PATH_MAX + EMBER_SYNTH_ID_MAX) / 8];
};

/*
 * Finish a kernel-type record whose payload ends at byte `len` of buf:
 * zero-pad to 8 bytes, append the trailer, set header.size, emit it.
 * Returns the emit callback's result.
 */
int synth__emit(struct ember_synth *s, union synth_buf *buf, size_t len);

/* What perf reads from /proc/PID/task/TID/status. */
struct synth_status {
	char comm[16];
	pid_t tgid, ppid;
	bool kernel;			/* no VmPeak: no mm */
};

/*
 * Read the status of tid (in process pid; pid 0: /proc/TID/status).
 * Returns 0, or 1 when the task is gone or unreadable.
 */
int synth__read_status(struct ember_synth *s, pid_t pid, pid_t tid, struct synth_status *st);

/*
 * Call fn(arg, n) for each all-digit entry of the directory open at dirfd,
 * in directory order. Stops at the first non-zero return and returns it;
 * returns 0 at the end, or -errno when the directory cannot be read.
 */
int synth__for_each_number(int dirfd, int (*fn)(void *arg, pid_t n), void *arg);

/* A line reader over an fd, with a caller-provided buffer; no allocation. */
struct synth_lines {
	int fd;
	char *buf;
	size_t size, head, tail;
	bool eof;
	int err;			/* -errno of a failed read, else 0 */
	bool toolong;			/* the last line did not fit the buffer */
};

void synth_lines__init(struct synth_lines *l, int fd, char *buf, size_t size);
/*
 * The next line without its '\n', NUL-terminated, valid until the next
 * call; *len gets its length. NULL at end of file or on a read error.
 * A line longer than the buffer is cut and sets l->toolong.
 */
char *synth_lines__next(struct synth_lines *l, size_t *len);

/*
 * _text and its length (_etext - _text) from /proc/iomem's "Kernel code"
 * and the head of /proc/kallsyms, x86_64 only (kernel-range.c). Returns
 * 0, or -ENOENT (-ENOMEM) when either is missing or hidden: then
 * kallsyms must be scanned.
 */
int synth_kernel__range(struct ember_synth *s, uint64_t *text, uint64_t *len);

#endif
