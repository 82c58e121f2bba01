/* SPDX-License-Identifier: GPL-2.0-only */
/* Where ember record writes: perf.data (file mode) or a pipe, through the perf.data writer. */
#ifndef EMBER_RECORD_OUTPUT_H
#define EMBER_RECORD_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ember/perf-data.h>
#include <ember/synth.h>

#define RECORD_DEFAULT_OUTPUT	"perf.data"

/*
 * The writer's buffer holds a read pass (of default-sized buffers on many
 * cpus); after each pass, what it holds is written once past the flush
 * size: short writes, each right after the ring buffers were emptied.
 */
#define RECORD_WRITE_BUFFER	(8u << 20)
#define RECORD_FLUSH_BYTES	(64u << 10)

/* Where the records go and which files --switch-output makes. */
struct record_output_opts {
	const char *output;		/* NULL: perf.data, or stdout when it is a pipe */
	int comp_level;			/* -z: zstd level, 0 off */
	bool no_buildid, no_buildid_cache, buildid_all;
	bool timestamp_filename;
	uint64_t max_size;		/* --max-size: stop at this many bytes of output, 0 none */
	bool switch_output;
	bool switch_signal;		/* on SIGUSR2 */
	uint64_t switch_size;		/* bytes, 0 off */
	uint64_t switch_time_s;		/* seconds, 0 off */
	unsigned int switch_max_files;	/* 0: keep every file */
};

/* Counters of what was written, for the closing lines and the SAMPLE_TIME feature. */
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

/* The output of one recording: the file (or pipe), its header's description, what went in. */
struct record_output {
	const char *path;		/* output path, "-" for stdout */
	bool pipe;			/* pipe-mode output */
	int out_fd;			/* pipe mode: fd the writer writes to, -1 otherwise */
	int orig_argc;			/* ember record's own command line, for CMDLINE */
	const char **orig_argv;
	struct ember_data_writer *writer;
	struct ember_env env;
	bool env_ready;
	int write_err;			/* first writer error; recording stops */
	uint64_t file_bytes;		/* data bytes of the file last finished */
	uint64_t zin, zout;		/* -z: its ring bytes compressed, and into how many */
	uint64_t flushed_size;		/* writer's data size at its last flush */
	char **dumped;			/* --switch-max-files: the newest files, a ring */
	unsigned int nr_dumped, max_dumped;
	/* executable maps and samples seen, for BUILD_ID; NULL with -B and in pipe mode */
	struct ember_synth_buildids *buildids;
	size_t ip_offset;		/* of a sample's ip in its body: after the identifier */
	struct record_stats stats;
};

struct record;

/*
 * Decide the output as perf does: -o FILE, "-o -" or (without -o) a FIFO
 * on stdout means pipe mode to stdout, else perf.data. In pipe mode keep a
 * close-on-exec copy of stdout for the data and point fd 1 at stderr, so
 * the command's output cannot mix with it. Call before forking the
 * command. Returns 0 or an exit code (message printed).
 */
int record_output__init(struct record *rec);

/*
 * Create the file (an existing non-empty one becomes FILE.old), describe
 * the machine (feature sections; TRACING_DATA for tracepoints), declare
 * every event with its sample ids and write the header. Call once the
 * events are open. Returns 0 or an exit code (message printed, except for
 * a write error: out->write_err, see record_output__report_error()).
 */
int record_output__open(struct record *rec);

/*
 * Append a record of ember's own (synthesized, FINISHED_ROUND...); counts
 * the bytes. Returns 0 or the writer's -errno (kept in out->write_err).
 */
int record_output__write(struct record_output *out, const void *data, size_t size);
/* The same for a record read from a ring buffer: the one kind -z compresses, as perf. */
int record_output__write_ring(struct record_output *out, const void *data, size_t size);

/*
 * Write out what the read passes buffered once it reaches RECORD_FLUSH_BYTES:
 * called after each pass, so a write() never keeps a ring buffer waiting,
 * and never holds more than a short one back.
 */
void record_output__flush(struct record_output *out);

/* Rewrite the header's data size so far (file mode), for a recorder that gets killed. */
int record_output__sync(struct record_output *out);

/*
 * Finish the file (SAMPLE_TIME and the other feature sections, final
 * header) and print perf's closing line when `summary` (and not -q). Returns 0, or 1 after a
 * write error (kept in out->write_err, not printed). Safe to call when
 * nothing was opened.
 */
int record_output__close(struct record *rec, bool summary);

/*
 * --switch-output: finish the current file, rename it PATH.TIMESTAMP (as
 * perf: "[ ... Dump PATH.TIMESTAMP ]"), drop the oldest beyond
 * --switch-max-files, and start a new PATH with the same events. The
 * caller writes the synthesized records again. 0, or 1 (message printed,
 * or out->write_err).
 */
int record_output__switch(struct record *rec);

/* Free what the output holds: the writer, the description, the --switch-output ring. */
void record_output__exit(struct record_output *out);

/* Explain a write error once: what failed, and that the data so far is kept. */
void record_output__report_error(struct record_output *out);

#endif
