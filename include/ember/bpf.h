/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The small layer over libbpf every BPF user of ember shares: a skeleton
 * (bpftool gen skeleton) loaded and attached with libbpf's messages sent to
 * ember's log, and a refusal of the kernel explained in one sentence that
 * names what is missing (privileges, BPF itself, a tracepoint, memory).
 */
#ifndef EMBER_BPF_H
#define EMBER_BPF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bpf_object_skeleton;
struct perf_event_attr;

/*
 * Send libbpf's messages to ember's log (warnings at EMBER_INFO, the rest
 * at EMBER_DEBUG) from now on; call before NAME__open(). Idempotent.
 */
EMBER_API void ember_bpf__route_log(void);
/*
 * Load an opened skeleton (skel->skeleton): maps created, programs
 * verified. Returns 0 or -errno.
 */
EMBER_API int ember_bpf__load(struct bpf_object_skeleton *s);
/* Attach every program of a loaded skeleton. Returns 0 or -errno. */
EMBER_API int ember_bpf__attach(struct bpf_object_skeleton *s);
/*
 * One sentence, in buf, on why the kernel refused BPF with -err, naming
 * what is missing and what to do. Returns buf.
 */
EMBER_API const char *ember_bpf__strerror(int err, char *buf, size_t size);

/* ---- BPF programs on perf events ---------------------------------------- */

/*
 * A SEC("perf_event") program attached to a perf event on a set of cpus:
 * the program runs at each of the event's samples (an overflow of
 * sample_period, or sample_freq times a second), with the sample's
 * registers as its context (struct bpf_perf_event_data).
 */
struct ember_bpf_perf;

/* Options of ember_bpf_perf__attach_*(); zero-initialise, set sz. */
struct ember_bpf_perf_opts {
	size_t sz;		/* sizeof(struct ember_bpf_perf_opts) */
	const char *cpus;	/* a cpu list ("0,2-3"); NULL: every online cpu */
	pid_t pid;		/* > 0: that process's threads; otherwise every process */
	char *errbuf;		/* on failure, one sentence on why (perf's wording) */
	size_t errbuf_size;
};

/*
 * Open `event` (perf's syntax: "cpu-clock", "page-faults/period=1/",
 * "sched:sched_switch") on every cpu of opts, attach prog_fd to each
 * of its fds and enable them. Returns the handle, or NULL with errno set
 * (EINVAL: the event does not parse; what the kernel said otherwise)
 * and opts->errbuf filled. Detach (and close) with ember_bpf_perf__detach().
 */
EMBER_API struct ember_bpf_perf *ember_bpf_perf__attach_event(int prog_fd, const char *event,
							  const struct ember_bpf_perf_opts *opts);
/* The same, for an event described by an attr (sample_freq/freq, type, config ...). */
EMBER_API struct ember_bpf_perf *ember_bpf_perf__attach_attr(int prog_fd,
							 const struct perf_event_attr *attr,
							 const struct ember_bpf_perf_opts *opts);
/* How many perf event fds the program runs on (cpus x threads). */
EMBER_API int ember_bpf_perf__nr_fds(const struct ember_bpf_perf *p);
/* Close the events (which detaches the program) and free. Accepts NULL. */
EMBER_API void ember_bpf_perf__detach(struct ember_bpf_perf *p);

/*
 * The sum over cpus of a per-cpu map's u64 value at key (a
 * BPF_MAP_TYPE_PERCPU_ARRAY or _PERCPU_HASH). Returns 0 or -errno
 * (-ENOENT: no such key).
 */
EMBER_API int ember_bpf__percpu_sum(int map_fd, const void *key, uint64_t *sum);
/*
 * The frames of stack `id` in a BPF_MAP_TYPE_STACK_TRACE map (what
 * bpf_get_stackid() returned) into ips, innermost first, at most max.
 * Returns how many, or -errno (-ENOENT: the id is not in the map).
 */
EMBER_API int ember_bpf__stack(int stackmap_fd, uint32_t id, uint64_t *ips, int max);

#ifdef __cplusplus
}
#endif

#endif
