/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The session's insides, shared by its open/close and its delivery halves. */
#ifndef EMBER_LIB_SESSION_PRIV_H
#define EMBER_LIB_SESSION_PRIV_H

#include <ember/session.h>
#include "collapse/sbuf.h"
#include "core/hashtab.h"
#include "session/inline-cache.h"
#include "session/ordered.h"

struct ember_session {
	char *path;
	int fd;				/* the file, -1 for standard input */
	struct ember_session_opts opts;
	struct ember_data_reader *reader;
	struct ember_machine *machine;
	struct ember_trace *trace;
	int trace_err;			/* 0 not tried yet, else why there is none */
	bool ordered;			/* sort by time (sample_id_all and time known) */
	struct ordered_queue queue;

	/* During ember_session__process(). */
	const struct ember_session_ops *ops;
	void *ctx;

	/* The last sample's resolved callchain. */
	struct ember_addr_location *chain;
	size_t chain_alloc;
	uint64_t invalid_chain_seq;	/* nr_samples when last counted invalid */
	/* The last sample's callchain words with its user frames added (user-frames.c). */
	uint64_t *words;
	size_t words_alloc;
	int ip_reg;			/* the ip's bit in sample_regs_user, -1 unknown */
	bool ip_reg_known;
	bool unwind;			/* the file's arch is one lib/unwind unwinds */
	struct unwinder *unwinder;	/* made at the first dwarf sample */
	struct inline_cache inlines;	/* the inline chains of unwound frames */

	struct ember_session_stats stats;
	struct ember_session_event_stats *events;
};

/* Reads the records through the ordering queue into the machine and ops. */
int session__process(struct ember_session *s);

/* perf's default --max-stack (the kernel.perf_event_max_stack sysctl's default). */
#define SESSION_MAX_STACK 127

/*
 * user-frames.c: a --call-graph dwarf sample's chain (registers and a
 * stack copy, no user part recorded) with [PERF_CONTEXT_USER, frames...]
 * added, the frames perf's unwinder finds (at most opts.max_stack):
 * sm->callchain then points into the session until the next sample. 1
 * when added, 0 when not (perf's unwinder found nothing), -ENOMEM.
 */
int session__add_user_frames(struct ember_session *s, const struct perf_event_attr *attr,
			     struct ember_sample *sm);
/*
 * inline-frames.c: the entries perf puts in place of unwound frame al,
 * one per inline level at its address, innermost first, into out (at
 * most room): their number, 0 when al stays as it is, or -ENOMEM.
 */
int session__inline_frames(struct ember_session *s, const struct ember_addr_location *al,
			   struct ember_addr_location *out, size_t room);
/* The ip's bit in sample_regs_user for a file of arch (NULL: ours), -1 when unknown. */
int session__user_ip_reg(const char *arch);
/* Whether files of arch (NULL: ours) are unwound (x86_64), not cut to their user ip. */
bool session__unwinds_arch(const char *arch);

#endif
