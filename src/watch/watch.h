/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ember watch: wait for a cpu's time split to spike (sys, user or iowait
 * share over a window, from /proc/stat every 100 ms), with low-rate
 * callchain samples of every watched cpu kept in backward ring buffers
 * meanwhile, then write the incident: the seconds before the trigger and
 * after it, of the triggering cpus only, as perf.data and a flame graph.
 *
 *	options.c	the command line
 *	trigger.c	the cpu time history and the thresholds
 *	capture.c	the sampling events, their buffers, an incident's perf.data
 *	incident.c	names, the flame graph, the log line, --exec, the disk cap
 */
#ifndef EMBER_WATCH_H
#define EMBER_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <ember/event.h>
#include "record/overwrite.h"

#define WATCH_TICK_MS		100
#define WATCH_DEFAULT_SYS	90.0
#define WATCH_DEFAULT_FREQ	99
#define WATCH_DEFAULT_MAX_DISK	(512ull << 20)

/* The shares that can trigger an incident. */
enum watch_metric { WATCH_SYS, WATCH_USER, WATCH_IOWAIT, WATCH_NR_METRICS };

struct watch_opts {
	double threshold[WATCH_NR_METRICS];	/* percent; < 0: not watched */
	double window_s, before_s, after_s, cooldown_s;
	const char *cpus;			/* -C; NULL: every online cpu */
	unsigned int freq;
	unsigned int mmap_pages;		/* -m: per cpu; 0: sized for the seconds kept */
	const char *dir;
	unsigned int max;			/* incidents; 0: no limit */
	uint64_t max_disk;			/* bytes all incidents may take; 0: no cap */
	const char *exec;
	bool quiet;
};

/* Parse argv into o: -1 to go on, else the exit code (help printed: 0, usage error: 2). */
int watch_options__parse(struct watch_opts *o, int argc, const char **argv);

/* One cpu over a threshold at a check. */
struct watch_hit {
	int cpu;
	enum watch_metric metric;
	double pct;
};

struct watch_trigger;

/* A history of /proc/stat covering window_s; NULL with errno set. */
struct watch_trigger *watch_trigger__new(const struct watch_opts *o,
					 const struct ember_cpu_map *cpus);
void watch_trigger__delete(struct watch_trigger *tr);

/*
 * Read /proc/stat now (t_ns: CLOCK_MONOTONIC) and compare with the read
 * one window ago: the watched cpus over a threshold go to hits[] (room for
 * every watched cpu), the highest share first. Warns once on stderr when a
 * watched cpu goes offline (and when it is back: *back gets its cpu, else
 * -1, so its events can be opened again). Returns the number of hits, or -errno.
 */
int watch_trigger__check(struct watch_trigger *tr, uint64_t t_ns, struct watch_hit *hits,
			 int *back);

/* Forget the history: the next hit needs a whole window of new reads. */
void watch_trigger__reset(struct watch_trigger *tr);

const char *watch_metric__name(enum watch_metric m);

/* The sampling events of every watched cpu and their backward buffers. */
struct watch_capture {
	struct ember_evlist *evlist;
	struct ember_evsel *evsel;
	struct record_overwrite ow;
	/* the tasks as they were at the trigger: records, side_len bytes */
	void *side;
	size_t side_len, side_alloc;
};

/* Open cpu-clock at o->freq with callchains on cpus, writing backward. 0 or -errno. */
int watch_capture__open(struct watch_capture *c, const struct watch_opts *o,
			struct ember_cpu_map *cpus);
void watch_capture__close(struct watch_capture *c);

/*
 * Close everything and open it again on the cpus of `cpus` online now: the
 * kernel drops a cpu's events when it goes offline (they leave its
 * context and never come back), so a cpu back online needs new ones. The
 * buffers' history starts over. 0 or -errno.
 */
int watch_capture__reopen(struct watch_capture *c, const struct watch_opts *o,
			  const struct ember_cpu_map *cpus);

/*
 * At the trigger: describe the kernel and every process as they are now
 * (COMM, MMAP2...), kept in c->side until the incident is written. 0 or -errno.
 */
int watch_capture__synthesize(struct watch_capture *c);

/* What went into an incident's perf.data. */
struct watch_written {
	uint64_t samples;
	uint64_t first_ns, last_ns;	/* sample times, CLOCK_MONOTONIC */
	uint64_t bytes;
};

/*
 * Write path: a perf.data of the cpus' buffers (samples from from_ns on,
 * and the side-band records), after c->side. 0 or -errno (the file may
 * be left partial: the caller removes it).
 */
int watch_capture__write(struct watch_capture *c, const char *path, const int *cpus, int nr,
			 uint64_t from_ns, int argc, const char **argv, struct watch_written *w);

/* An incident in progress: triggered, waiting for its --after seconds. */
struct watch_incident {
	struct watch_hit *hits;
	int nr_hits;
	uint64_t trigger_ns;		/* CLOCK_MONOTONIC */
	struct timespec trigger_wall;	/* CLOCK_REALTIME */
};

/* The files and totals of one watch. */
struct watch_state {
	const struct watch_opts *o;
	unsigned int written;		/* incidents written */
	uint64_t disk;			/* bytes they take */
	int argc;
	const char **argv;
};

/*
 * Write the incident: perf.data, the SVG, the log line, --exec. Returns
 * 0 when written, 1 when skipped after a warning (the disk cap, a full
 * disk, a write error): watching goes on either way.
 */
int watch_incident__write(struct watch_state *st, struct watch_capture *c,
			  const struct watch_incident *inc);

/* Reap --exec commands that finished; with wait, wait for every one. */
void watch_incident__reap(bool wait);

#endif
