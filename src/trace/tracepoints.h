/* SPDX-License-Identifier: GPL-2.0-only */
/* The tracepoints (and probes) -e names, and their records printed as perf trace prints them. */
#ifndef EMBER_SRC_TRACE_TRACEPOINTS_H
#define EMBER_SRC_TRACE_TRACEPOINTS_H

#include <stdio.h>
#include <ember/syscall.h>
#include <ember/systrace.h>
#include <ember/trace.h>

struct trace_tps {
	struct ember_tracepoint *tps;	/* sys and name malloc'd */
	uint64_t *ids;			/* their tracefs ids */
	int nr;
	/*
	 * Once loaded: tps[0, nr_bpf) are tracepoints, for the BPF tracer;
	 * tps[nr_bpf, nr) probes (uprobes, kprobes), which only perf events
	 * can carry with their arguments
	 */
	int nr_bpf;
	struct ember_trace *formats;	/* their formats, once loaded */
};

/* Add sys:name (globs too) from tracefs at root. 0, -ENOENT (none matches), -ENOMEM. */
int trace_tps__add(struct trace_tps *t, const char *root, const char *spec);
/* Read the formats of the tracepoints added, and put the probes last. 0 or -errno. */
int trace_tps__load(struct trace_tps *t, const char *root);
void trace_tps__exit(struct trace_tps *t);
/* "sys:name(field: value, ...)" of a record, as perf trace writes it. Returns the length. */
int trace_tps__scnprintf(struct trace_tps *t, const struct ember_systrace_tp_rec *rec,
			 const struct ember_syscall_env *env, char *buf, size_t size);

#endif
