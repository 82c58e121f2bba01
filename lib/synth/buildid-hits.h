/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Which of a recording's executable maps its samples hit: perf record
 * writes build-ids only for the dsos that have samples (and [vdso]).
 *
 * perf finds them by processing the whole file once more after recording,
 * thread by thread. A recorder sees every sample go by: it keeps the set of
 * code pages the samples' ips fell in (a hash set, a compare for a sample
 * in the page of the one before) and every executable map seen, and at the
 * end sweeps the maps over the sorted pages. Maps are not kept per process:
 * a page hit in one process marks every file mapped over it in any process
 * (with ASLR, rarely one more file than perf would list, never one fewer).
 *
 *	struct bid_hits *h = bid_hits__new();
 *	bid_hits__add_map(h, start, len, file, kernel);	per executable map
 *	bid_hits__add_ip(h, ip, kernel);		per sample
 *	bid_hits__resolve(h, hit, nr_files);		hit[file] set
 *	bid_hits__delete(h);
 */
#ifndef EMBER_LIB_SYNTH_BUILDID_HITS_H
#define EMBER_LIB_SYNTH_BUILDID_HITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bid_hits;

/* A new, empty set, or NULL (errno ENOMEM). Free with __delete. */
struct bid_hits *bid_hits__new(void);
/* Free the set. NULL is fine. */
void bid_hits__delete(struct bid_hits *h);

/* A map of file number `file` over [start, start + len), a kernel module's or a process's. 0 or -ENOMEM. */
int bid_hits__add_map(struct bid_hits *h, uint64_t start, uint64_t len, uint32_t file,
		      bool kernel);

/* A sample at ip, in kernel or user mode. 0 or -ENOMEM. */
int bid_hits__add_ip(struct bid_hits *h, uint64_t ip, bool kernel);

/*
 * Set hit[file] for each file (below nr_files) with a map over a page a
 * sample hit, in the sample's mode. Returns whether some kernel sample
 * fell outside every kernel map (in the kernel image, which has no map
 * here), or -ENOMEM.
 */
int bid_hits__resolve(struct bid_hits *h, bool *hit, size_t nr_files);

#endif
