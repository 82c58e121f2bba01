/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The state of an ember_profile, shared by its loader (profile.c) and its reader (fold.c). */
#ifndef EMBER_LIB_PROFILE_PRIV_H
#define EMBER_LIB_PROFILE_PRIV_H

#include <ember/bpf.h>
#include <ember/machine.h>
#include <ember/profile.h>

struct profile;
struct ring_buffer;

struct ember_profile {
	struct profile *skel;
	struct ember_profile_opts opts;
	struct perf_event_attr *attr;	/* a copy of opts.attr */
	/* while sampling: the event on every task, or on each target process (and its children) */
	struct ember_bpf_perf **events;
	int nr_events;
	pid_t *pids;			/* the targets added */
	int nr_pids;
	struct ring_buffer *new_pids;
	struct ember_symbolizer *sym;
	int nr_new;			/* processes read by this poll */
};

/* fold.c: the counts map's keys symbolised into fl. */
int profile__fold(struct ember_profile *p, struct ember_flame *fl, bool clear,
		  struct ember_profile_stats *st);

#endif
