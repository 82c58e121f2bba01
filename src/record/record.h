/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ember record: the options and the state of one recording, shared by the
 * stages in src/record/ (options → events → target → open → output →
 * synthesis → read loop → finish). Everything lives in one struct record
 * on cmd_record()'s stack: no global state.
 */
#ifndef EMBER_RECORD_RECORD_H
#define EMBER_RECORD_RECORD_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <ember/event.h>
#include <ember/perf-data.h>
#include <ember/synth.h>
#include <ember/workload.h>
#include "record/control.h"
#include "record/signals.h"
#include "record/warmup.h"

/* --synth: which records describe the machine before the samples (perf's PERF_SYNTH_*). */
#define RECORD_SYNTH_TASK	(1u << 0)
#define RECORD_SYNTH_MMAP	(1u << 1)
#define RECORD_SYNTH_CGROUP	(1u << 2)
#define RECORD_SYNTH_ALL	(RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP | RECORD_SYNTH_CGROUP)

#define RECORD_DEFAULT_FREQ	4000
#define RECORD_DEFAULT_OUTPUT	"perf.data"
/* perf's default ring buffer for root: 512 KiB of data per cpu. */
#define RECORD_DEFAULT_PAGES	128
/* Default user stack dump of --call-graph dwarf, and its maximum. */
#define RECORD_DWARF_STACK	8192
#define RECORD_DWARF_STACK_MAX	65528

/*
 * The writer's buffer holds a read pass (of default-sized buffers on many
 * cpus); after each pass, what it holds is written once past the flush
 * size: short writes, each right after the ring buffers were emptied.
 */
#define RECORD_WRITE_BUFFER	(8u << 20)
#define RECORD_FLUSH_BYTES	(64u << 10)

enum { RECORD_AFFINITY_SYS, RECORD_AFFINITY_NODE, RECORD_AFFINITY_CPU };

enum record_callchain {
	RECORD_CALLCHAIN_NONE,
	RECORD_CALLCHAIN_FP,
	RECORD_CALLCHAIN_DWARF,
	RECORD_CALLCHAIN_LBR,
};

/* What the command line asked for. */
struct record_opts {
	/* target */
	const char *pid, *tid, *cpu_list;
	bool system_wide;
	bool per_thread;		/* --per-thread: one buffer per thread, not per cpu */
	bool no_inherit;

	/* sampling */
	unsigned int freq;		/* -F, when freq_given */
	bool freq_given, freq_max, strict_freq;
	unsigned long long period;	/* -c, when period_given */
	bool period_given;
	enum record_callchain callchain;
	unsigned int stack_size;	/* --call-graph dwarf,SIZE */
	bool raw_samples, sample_addr, sample_cpu, sample_period, inherit_stat;
	bool timestamp;			/* -T: time even where perf leaves it out */
	bool switch_events, all_user, all_kernel, no_bpf_event, buildid_mmap;
	uint64_t branch_stack;		/* -b/-j: PERF_SAMPLE_BRANCH_* filter, 0 off */
	uint64_t user_regs, intr_regs;	/* --user-regs/-I register masks, 0 off */
	bool phys_addr, data_page_size, code_page_size, sample_weight, transaction;
	bool sample_identifier, running_time, no_samples, no_buffering;
	bool kernel_callchains, user_callchains, group;
	bool namespaces, all_cgroups;
	bool use_clockid;
	int clockid;			/* -k, when use_clockid */

	/* output */
	const char *output;		/* NULL: perf.data, or stdout when it is a pipe */
	unsigned int mmap_pages;	/* 0: RECORD_DEFAULT_PAGES */
	bool mmap_rounded;		/* -m was not a power of two: say so */
	int comp_level;			/* -z: zstd level, 0 off */
	bool no_buildid, no_buildid_cache, buildid_all;
	unsigned int proc_map_timeout;	/* ms; 0: the synthesizer's default */
	int delay_ms;			/* -D: ms after the exec; -1: at --control enable */
	uint64_t max_size;		/* --max-size: stop at this many bytes of output, 0 none */
	uint64_t mmap_flush;		/* --mmap-flush: bytes a buffer holds before it is read */
	int affinity;			/* --affinity: RECORD_AFFINITY_* */
	int realtime_prio;		/* -r: SCHED_FIFO priority, 0 off */
	bool dry_run, threads_given, tail_synthesize, overwrite, timestamp_filename;
	bool kcore, snapshot, aux_sample, off_cpu;
	/*
	 * Accepted for perf's command lines; ember needs nothing from them: one
	 * writer thread (--aio, --num-thread-synthesize), kernel symbols from
	 * kallsyms at report time (--vmlinux), the sample-time feature always
	 * written (--timestamp-boundary), no BPF compilation (--clang-*).
	 */
	const char *vmlinux, *debuginfod, *clang_path, *clang_opt;
	int aio, nr_threads_synthesize;
	bool timestamp_boundary;
	unsigned int synth;		/* --synth: RECORD_SYNTH_* bits */
	const char *cgroup;		/* -G: refused (needs cgroup-fd opens) */
	const char *uid;		/* -u: the user whose processes to record */
	char *uid_pids;			/* ... as a pid list; owned */

	/* --switch-output */
	bool switch_output;
	bool switch_signal;		/* on SIGUSR2 */
	uint64_t switch_size;		/* bytes, 0 off */
	uint64_t switch_time_s;		/* seconds, 0 off */
	unsigned int switch_max_files;	/* 0: keep every file */
	/* --switch-output-event: watched, not recorded; owned (NULL when none) */
	struct ember_evlist *sb_evlist;
	const char *control;		/* --control fifo:CTL[,ACK] or fd:CTL[,ACK] */
	bool quiet;
	int verbose;

	/* -e as given, parsed into evlist while the options are read */
	struct ember_evlist *evlist;
	struct ember_evsel *last_glob;	/* first evsel the latest -e added */
	bool events_given;
};

/* Counters of the read loop, for the closing lines and the SAMPLE_TIME feature. */
struct record_stats {
	uint64_t samples;
	uint64_t records;		/* written to the data section, as a reader counts them */
	uint64_t lost_records;		/* PERF_RECORD_LOST among them */
	uint64_t lost;			/* records the kernel dropped (PERF_RECORD_LOST) */
	uint64_t lost_samples;		/* PERF_RECORD_LOST_SAMPLES from read_format LOST */
	uint64_t waking;
	uint64_t bytes;			/* bytes handed to the writer, before compression */
	uint64_t first_time, last_time;
};

/* One recording. */
struct record {
	struct record_opts opts;
	int argc;			/* the command to run, when there is one */
	const char **argv;
	int orig_argc;			/* ember record's own command line, for CMDLINE */
	const char **orig_argv;

	struct ember_evlist *evlist;
	struct ember_evsel *tracking;	/* the evsel that asks for mmap/comm/task records */
	struct ember_cpu_map *cpus;
	struct ember_thread_map *threads;
	bool forks;			/* runs a command */
	bool target_none;		/* ... and records only it (no -p/-t/-a/-C) */
	bool pipe;			/* pipe-mode output */
	bool pipe_to_stdout;		/* no -o and stdout is a FIFO: perf's implicit pipe mode */

	struct ember_workload wl;
	bool wl_prepared, wl_started, wl_exited;
	int wl_exec_err;		/* the command's exec failed with this errno */
	bool wl_tail_done;		/* --tail-synthesize: the command's COMM was written */

	const char *path;		/* output path, "-" for stdout */
	int out_fd;			/* pipe mode: fd the writer writes to, -1 otherwise */
	struct ember_data_writer *writer;
	struct ember_env env;
	bool env_ready;
	int write_err;			/* first writer error; recording stops */
	uint64_t file_bytes;		/* data bytes of the file last finished */
	uint64_t zin, zout;		/* -z: its ring bytes compressed, and into how many */
	uint64_t flushed_size;		/* writer's data size at its last flush */
	char **dumped;			/* --switch-max-files: the newest files, a ring */
	unsigned int nr_dumped;
	/* executable maps and samples seen, for the BUILD_ID section; NULL with -B and in pipe mode */
	struct ember_synth_buildids *buildids;
	size_t ip_offset;		/* of a sample's ip in its body: after the identifier */

	struct record_signals sig;	/* INT, TERM, HUP end it; CHLD: the command exited */
	int stop_signal;		/* the signal that ended the recording, 0 */
	bool done, draining;
	/*
	 * The ring buffers (forward, then backward ones for their hang-ups),
	 * the signalfd at sig_pollfd, the control fd, the side-band buffers.
	 */
	struct pollfd *pollfds;
	int nr_pollfds, sig_pollfd;
	struct record_control ctl;	/* --control */

	struct record_stats stats;
	uint64_t last_sync_ns;
	uint64_t enable_at_ns;		/* -D: when to enable the events, 0 done */
	uint64_t switch_at_ns;		/* --switch-output=TIME: the next switch, 0 none */
	size_t mmap_flush;		/* --mmap-flush in bytes, capped at a quarter buffer */
	size_t mmap_bytes;		/* data bytes of each ring buffer */
	int affinity_cpu;		/* --affinity: the cpu the reader last moved to */
	struct record_warmup warmup;	/* small buffers: the start-up busy-poll (warmup.h) */
	bool usr2;			/* SIGUSR2 came: switch output or take a snapshot */
	struct record_owmap *owmaps;	/* backward buffers (overwrite.c) */
	int nr_owmaps;
};

/* Print one line "ember record: ..." on stderr (prefixed, newline added). */
__attribute__((format(printf, 1, 2)))
void record_err(const char *fmt, ...);

#endif
