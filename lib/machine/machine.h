/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The machine: threads by tid, the kernel's maps, the dso cache, and the
 * record handlers that keep them as perf's machine.c does. Public calls
 * are in <ember/machine.h>; these are for lib/session and tests.
 */
#ifndef EMBER_LIB_MACHINE_H
#define EMBER_LIB_MACHINE_H

#include <ember/machine.h>
#include "machine/map.h"
#include "machine/thread.h"
#include "symbol/dso.h"
#include "core/arena.h"
#include "core/hashtab.h"

struct ember_machine {
	struct dsos dsos;
	struct map_graveyard graveyard;
	struct maps *kmaps;		/* kernel, modules, BPF programs */
	struct ember_map *kernel_map;	/* [kernel.kallsyms] in kmaps, NULL until known */

	struct hashtab threads;		/* struct ember_thread * by hash_mix64(tid) */
	struct ember_thread *last_thread; /* the last one found: samples come in runs */
	struct ember_thread **dead;	/* removed threads, freed with the machine */
	size_t nr_dead, alloc_dead;

	/* Interned comm strings: the copies in comm_pool, by hash_str(). */
	struct arena comm_pool;
	struct hashtab comms;
};

/* The thread with tid (its pid updated if it was unknown), created when new; NULL on ENOMEM. */
struct ember_thread *machine__findnew_thread(struct ember_machine *machine, pid_t pid, pid_t tid);
/* Removes thread from the tid table (it stays allocated until the machine goes). */
void machine__remove_thread(struct ember_machine *machine, struct ember_thread *thread);
/*
 * The interned copy of str (comms, and names the session makes up):
 * equal strings share one pointer, kept as long as the machine. NULL on
 * ENOMEM.
 */
const char *machine__intern(struct ember_machine *machine, const char *str);
/* Sets thread's comm; exec marks an exec's COMM. 0 or -ENOMEM. */
int machine__set_comm(struct ember_machine *machine, struct ember_thread *thread,
		      const char *comm, bool exec);
/* See ember_session__defer_kernel_symbols(): starts reading kallsyms, defers kernel lookups. */
int machine__defer_kernel_symbols(struct ember_machine *machine);
/* See ember_session__resolve_late(). */
void machine__resolve_late(struct ember_machine *machine, struct ember_addr_location *al);
/* The kernel maps, created from the running kernel when no record made them yet. */
struct maps *machine__kernel_maps(struct ember_machine *machine);

#endif
