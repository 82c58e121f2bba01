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

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bpf_object_skeleton;

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

#ifdef __cplusplus
}
#endif

#endif
