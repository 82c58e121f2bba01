/* SPDX-License-Identifier: GPL-2.0-only */
/* ember record's read loop: ring buffers to the writer, until the recording ends. */
#ifndef EMBER_RECORD_LOOP_H
#define EMBER_RECORD_LOOP_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* perf's default ring buffer for root: 512 KiB of data per cpu. */
#define RECORD_DEFAULT_PAGES	128

enum { RECORD_AFFINITY_SYS, RECORD_AFFINITY_NODE, RECORD_AFFINITY_CPU };

/* The ring buffers and how the loop reads them. */
struct record_loop_opts {
	unsigned int mmap_pages;	/* 0: RECORD_DEFAULT_PAGES */
	bool mmap_rounded;		/* -m was not a power of two: say so */
	uint64_t mmap_flush;		/* --mmap-flush: bytes a buffer holds before it is read */
	int affinity;			/* --affinity: RECORD_AFFINITY_* */
	int delay_ms;			/* -D: ms after the exec; -1: at --control enable */
	bool overwrite;			/* --overwrite: backward buffers, read at the end */
	int realtime_prio;		/* -r: SCHED_FIFO priority, 0 off */
};

/* The read loop's state: what it polls, its deadlines, and whether it is over. */
struct record_loop {
	/*
	 * The ring buffers (forward, then backward ones for their hang-ups),
	 * the signalfd at sig_pollfd, the control fd, the side-band buffers.
	 */
	struct pollfd *pollfds;
	int nr_pollfds, sig_pollfd;
	size_t mmap_flush;		/* --mmap-flush in bytes, capped at a quarter buffer */
	size_t mmap_bytes;		/* data bytes of each ring buffer */
	int affinity_cpu;		/* --affinity: the cpu the reader last moved to */
	uint64_t last_sync_ns;
	uint64_t enable_at_ns;		/* -D: when to enable the events, 0 done */
	uint64_t switch_at_ns;		/* --switch-output=TIME: the next switch, 0 none */
	bool usr2;			/* SIGUSR2 came: switch output or take a snapshot */
	int stop_signal;		/* the signal that ended the recording, 0 */
	bool done, draining;
};

struct record;
struct record_stats;

/* Period of the header's data-size refresh while recording (for a SIGKILLed ember). */
#define RECORD_SYNC_INTERVAL_MS 1000
/* While records never stop coming, signals and hang-ups are still looked at this often. */
#define RECORD_CHECK_INTERVAL_MS 50

/*
 * Copy records from every ring buffer to the output, poll when they are
 * empty, until the recording ends: the command exits (SIGCHLD), every
 * buffer of a -p/-t target hangs up, or SIGINT/SIGTERM/SIGHUP arrives
 * (rec->stop_signal). A FINISHED_ROUND follows each pass that wrote
 * records, as in perf. A target ember did not start is disabled once the
 * end is decided. Returns 0, or 1 after a write error (rec->write_err).
 */
int record_loop__run(struct record *rec);

/* Read what the buffers still hold (after the command is gone). 0 or 1 as above. */
int record_loop__drain(struct record *rec);

/* Reap the command if it exited; sets rec->wl_exited. Returns true when it did. */
bool record_loop__reap(struct record *rec);
/*
 * How the command's exec went, once known: a failure ends the recording
 * (wl_exec_err). `wait`: block until the child has exec'd or failed.
 */
void record_loop__check_exec(struct record *rec, bool wait);

/*
 * perf 6.1's record__read_lost_samples(): for each fd whose read_format
 * LOST count is not zero, a PERF_RECORD_LOST_SAMPLES with that fd's
 * sample id. Call after the last read, before the fds close. 0 or 1.
 */
int record_loop__lost_samples(struct record *rec);

/* Byte offset of the ip in every sample of the recording (after the identifier, if any). */
size_t record_loop__ip_offset(const struct record *rec);

/* Byte offset of the time in every sample of the recording, 0 when they have none. */
size_t record_loop__time_offset(const struct record *rec);

/* Count a record that goes to the output: samples, their times, LOST. */
void record_loop__account(struct record_stats *st, const struct perf_event_header *ev, size_t toff);

#endif
