/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A perf.data file read the way perf report and perf script read it:
 *
 *   reader ── records ──> ordered queue ──> machine (MMAP, COMM, FORK, ...)
 *                         (by time, flushed     └─> sample: thread, ip and
 *                          per FINISHED_ROUND)       callchain resolved
 *
 * Records that carry a time (samples, and the side-band records of an
 * attr with sample_id_all) are delivered in time order, ties in file
 * order, with perf's two-round flush: at each FINISHED_ROUND everything up
 * to the highest time seen before the previous round goes out. Records
 * without a time, and the header-like records perf adds (type >= 64), are
 * delivered as read. Without sample_id_all, or when the caller asks, the
 * file order is kept, as perf does.
 *
 * A session is not thread-safe: use one per thread.
 */
#ifndef EMBER_SESSION_H
#define EMBER_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ember/common.h>
#include <ember/perf-data.h>
#include <ember/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ember_session;
struct ember_trace;

struct ember_session_opts {
	size_t sz;			/* sizeof(struct ember_session_opts) */
	/* Read a file owned by another user (perf -f); otherwise -EPERM. */
	bool force;
	/* Deliver records in file order (no sorting by time). */
	bool no_ordering;
	/* Where symbols come from (sz 0: defaults). */
	struct ember_symbol_opts symbol;
	/*
	 * Leave a kernel or user sample's own ip unresolved: ss->al then holds
	 * the thread, comm, cpumode and ip (addr = ip) with level 0 and no map
	 * or symbol, for a caller that mostly needs no more and resolves the
	 * rest itself (ember_thread__resolve()) when it does.
	 */
	bool lazy_sample_ip;
	/* When not NULL, says why the open failed (see struct ember_open_error). */
	struct ember_open_error *error;
	/*
	 * The user frames unwound from a --call-graph dwarf sample's stack
	 * copy at most, as perf's --max-stack; 0: perf's default, 127.
	 */
	unsigned int max_stack;
	/*
	 * Unwound user frames one per address, not one per inline function
	 * there (perf's --no-inline).
	 */
	bool no_inline;
};

/*
 * Opens path ("-" or NULL with a pipe on stdin: standard input; NULL
 * otherwise: "perf.data"). Returns NULL with errno: EPERM the file is
 * not owned by the current user or root and opts->force is not set,
 * ENODATA an empty file, EINVAL not a perf.data file, or the reader's
 * and open's errors; opts->error, when given, gets the errno and what
 * was wrong. Free with ember_session__delete().
 */
EMBER_API struct ember_session *ember_session__open(const char *path,
						    const struct ember_session_opts *opts);
EMBER_API void ember_session__delete(struct ember_session *s);

/* The path as opened ("-" for standard input). */
EMBER_API const char *ember_session__path(const struct ember_session *s);
EMBER_API struct ember_data_reader *ember_session__reader(struct ember_session *s);
EMBER_API struct ember_machine *ember_session__machine(struct ember_session *s);
/*
 * The tracepoint formats (TRACING_DATA) with kernel function names
 * resolved through the session's machine, parsed on first call; NULL when
 * the file has none (errno ENOENT) or they do not parse (EINVAL). In pipe
 * mode, available once its TRACING_DATA record was processed.
 */
EMBER_API struct ember_trace *ember_session__trace(struct ember_session *s);

/*
 * Kernel symbols looked up late, for a caller that aggregates samples
 * before it prints them: the kernel's symbol file is read by a thread
 * from now on, and until ember_session__resolve_late() needs it, samples
 * and callchains are delivered with their kernel-image addresses left
 * unresolved (al.dso the kernel, al.sym NULL). 0 or a negative errno.
 */
EMBER_API int ember_session__defer_kernel_symbols(struct ember_session *s);
/*
 * Completes a location delivered unresolved that way (ip, addr, cpumode,
 * level and dso as delivered), as it would have been resolved at once;
 * other locations are left alone.
 */
EMBER_API void ember_session__resolve_late(struct ember_session *s,
					   struct ember_addr_location *al);

/* A sample, decoded and resolved, as handed to ember_session_ops.sample. */
struct ember_session_sample {
	const struct perf_event_header *hdr;	/* the record */
	uint64_t file_offset;			/* of the record, as perf -D shows it */
	const struct ember_data_attr *attr;	/* its event */
	const struct ember_sample *sample;
	struct ember_thread *thread;
	struct ember_addr_location al;		/* sample->ip, with the sample's cpumode */
	/*
	 * How many of sample->callchain's words the kernel recorded. Any
	 * after them the session added: the user ip of a --call-graph dwarf
	 * sample ([PERF_CONTEXT_USER, ip]), the user frame perf shows when
	 * it unwinds no further. perf's --max-stack limits the two parts
	 * apart (ember_session__callchain_max() does).
	 */
	uint64_t callchain_recorded;
};

/*
 * The sample's callchain, resolved: context markers switch the cpumode
 * and are dropped, every other entry gets an ember_addr_location (its ip
 * as recorded). *chain points into the session and stays valid until the
 * next sample is delivered. Returns the number of entries: 0 without a
 * callchain, and 0 when it has an unknown context marker (perf discards
 * such a chain and keeps the sample; counted, once per sample, in
 * stats.nr_invalid_callchains, without a warning, as perf), or -ENOMEM.
 */
EMBER_API int ember_session__callchain(struct ember_session *s,
				       const struct ember_session_sample *ss,
				       const struct ember_addr_location **chain);
/*
 * As ember_session__callchain(), resolving at most max entries (0: all),
 * as perf's --max-stack does: the entries past the limit are not looked
 * at, so an unknown context marker beyond it does not void the chain.
 */
EMBER_API int ember_session__callchain_max(struct ember_session *s,
					   const struct ember_session_sample *ss, unsigned int max,
					   const struct ember_addr_location **chain);

/*
 * The entries perf shows in place of an unwound user frame al of a
 * --call-graph dwarf sample (one of the words the session added): one per
 * inline level at its address, innermost first, each a copy of al named
 * after its function, inlined set where that is not al's own symbol.
 * Writes at most room into out and returns how many; 0 when al stays as
 * it is (no symbol, DWARF knows nothing, or a file the session does not
 * unwind), -ENOMEM. ember_session__callchain*() give unwound frames so.
 */
EMBER_API int ember_session__inline_frames(struct ember_session *s,
					   const struct ember_addr_location *al,
					   struct ember_addr_location *out, size_t room);

struct ember_session_ops {
	/* Each sample, in order. A non-zero return stops processing and is returned. */
	int (*sample)(struct ember_session *s, const struct ember_session_sample *ss, void *ctx);
	/*
	 * Each other record, in order, after the machine has taken what it
	 * needs from it. id is its decoded sample_id trailer (kernel records
	 * of an attr with sample_id_all), else NULL. Non-zero stops.
	 */
	int (*record)(struct ember_session *s, const struct ember_data_record *rec,
		      const struct ember_sample *id, void *ctx);
};

/*
 * Reads the whole file through ops. Returns 0, the first non-zero callback
 * return, or a negative errno from the reader (what was read before it
 * was delivered). A truncated file is not an error: see stats.truncated.
 */
EMBER_API int ember_session__process(struct ember_session *s, const struct ember_session_ops *ops,
				     void *ctx);

/* Per event (attr index), what perf report's header counts. */
struct ember_session_event_stats {
	uint64_t nr_samples;
	uint64_t total_period;
	uint64_t nr_lost_samples;		/* PERF_RECORD_LOST_SAMPLES of this event */
};

struct ember_session_stats {
	uint64_t nr_records;			/* all records read */
	uint64_t nr_samples;
	uint64_t nr_lost_records;		/* PERF_RECORD_LOST */
	uint64_t nr_lost;			/* events they say were lost */
	uint64_t nr_lost_samples;		/* sum of PERF_RECORD_LOST_SAMPLES */
	uint64_t nr_unknown;			/* records of unknown type, skipped */
	uint64_t nr_invalid_samples;		/* too short for their layout, or no attr */
	uint64_t nr_invalid_callchains;		/* discarded for an unknown context marker */
	uint64_t nr_unordered;			/* came after their time was flushed */
	bool truncated;				/* the file ended inside a record */
	uint32_t nr_events;
	const struct ember_session_event_stats *events; /* nr_events, by attr index */
};

/* The counts so far. Owned by the session. */
EMBER_API const struct ember_session_stats *ember_session__stats(const struct ember_session *s);

/*
 * perf's closing warnings for what the counts show ("Processed N events
 * and lost M chunks!", unordered events, invalid samples, truncation), one
 * per line into fp; nothing when all is well.
 */
EMBER_API void ember_session__fprintf_warnings(const struct ember_session *s, FILE *fp);

/*
 * perf's two warnings about what the kernel dropped, from the counts:
 * "Processed N events and lost M chunks!" when there are LOST records
 * among nr_records, and "Processed N samples and lost X%!" when the lost
 * samples are over 5 % of all (N counts them too, as perf 6.1 does).
 * Nothing when nothing was lost. ember_session__fprintf_warnings() prints
 * them for a file read; a recorder fills in its own nr_records, nr_samples,
 * nr_lost_records and nr_lost_samples.
 */
EMBER_API void ember_session_stats__fprintf_lost(const struct ember_session_stats *st, FILE *fp);

/*
 * After ember_session__process(): when no sample was read and the file is
 * damaged (cut before its first sample, a bad record before it, samples
 * that do not decode, no event described, a recorder that did not
 * finish), says why in buf ("the file ends before its first sample (...)")
 * and returns buf: there is nothing usable, the caller fails. NULL when
 * samples were read, or when the file is whole and simply holds none (a
 * quiet workload: perf reports it and succeeds).
 */
EMBER_API const char *ember_session__nothing_usable(const struct ember_session *s, char *buf,
						    size_t len);

/* ---- DWARF stacks outside a perf.data ----------------------------------- */

/*
 * An unwinder for samples that do not come from a file: a ring buffer's
 * or a BPF program's user registers and stack copy (PERF_SAMPLE_REGS_USER
 * and _STACK_USER, x86_64's registers), unwound in a thread of any
 * machine (a symbolizer's, say) by the rules `ember report` unwinds
 * --call-graph dwarf files by. NULL with errno on failure.
 */
struct ember_stack_unwinder;

EMBER_API struct ember_stack_unwinder *ember_stack_unwinder__new(void);
EMBER_API void ember_stack_unwinder__delete(struct ember_stack_unwinder *u);
/*
 * sample's user stack (its user_regs and user_stack set) taken in thread:
 * at most max addresses into ips, callee first. Returns how many (0: no
 * user ip in the registers), or -ENOMEM.
 */
EMBER_API int ember_stack_unwinder__unwind(struct ember_stack_unwinder *u,
					   struct ember_thread *thread,
					   const struct ember_sample *sample, uint64_t *ips,
					   unsigned int max);
/*
 * The entries perf shows in place of the unwound frame al (resolved in
 * machine): one per inline level, innermost first, as
 * ember_session__inline_frames() gives them. Returns how many, 0 when al
 * stays as it is, or -ENOMEM.
 */
EMBER_API int ember_stack_unwinder__inline_frames(struct ember_stack_unwinder *u,
						  struct ember_machine *machine,
						  const struct ember_addr_location *al,
						  struct ember_addr_location *out, size_t room);
/* Register reg (PERF_REG_X86_*) of a sample's registers into *val; false when not there. */
EMBER_API bool ember_sample_regs__value(const struct ember_sample_regs *regs, int reg,
					uint64_t *val);

#ifdef __cplusplus
}
#endif

#endif
