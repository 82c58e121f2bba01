/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Distinct stacks with their summed periods, replayed into the histograms at the end. */
#ifndef EMBER_HIST_STACKS_H
#define EMBER_HIST_STACKS_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/hist.h>

struct hist_stacks;

/* A new store; frames are told apart by address, so each sample's ips reach the keys. */
struct hist_stacks *hist_stacks__new(void);
void hist_stacks__delete(struct hist_stacks *s);
/* Frame f's index among the distinct frames (added when new), or -ENOMEM. */
int64_t hist_stacks__frame(struct hist_stacks *s, const struct ember_hist_frame *f);
/* Asks for the cache lines hist_stacks__frame() reads for a frame of ip in cpumode. */
void hist_stacks__prefetch_frame(const struct hist_stacks *s, uint64_t ip, uint8_t cpumode);
/* The distinct frame of index id (from hist_stacks__frame()); valid until the next add. */
const struct ember_hist_frame *hist_stacks__frame_at(const struct hist_stacks *s, uint32_t id);
/*
 * A stack's hash: its key (hist and sm's comm, thread, cpu, filtered,
 * time and trace) from hist_stacks__hash_start(), then its frames' ips
 * (as recorded: equal frames have equal ones) in order, so that it is
 * known before its frames are looked up. hash_words() takes the ips as
 * the sample's own and the words of its callchain (perf's host context
 * markers skipped) onto *h; it is false, *h unchanged, for a chain with
 * other markers (the session walks those). hash_ids() takes the ips
 * from the frames.
 */
uint64_t hist_stacks__hash_start(uint32_t hist, const struct ember_hist_sample *sm);
bool hist_stacks__hash_words(uint64_t *h, uint64_t self, const uint64_t *words, uint64_t n);
uint64_t hist_stacks__hash_ids(const struct hist_stacks *s, uint64_t h, const uint32_t *ids,
			       uint32_t n);
/* Asks for the table slot of the stack of hash h, to be added after its frames are found. */
void hist_stacks__prefetch(const struct hist_stacks *s, uint64_t h);
/*
 * Folds a sample of histogram `hist` in, its frames given by index:
 * ids[0] its own, ids[1, n) its chain (sm's self, chain and nr_chain are
 * not read), h their hash (above); *idx (may be NULL) says which stack
 * took it. 0 or -ENOMEM.
 */
int hist_stacks__add_ids(struct hist_stacks *s, uint32_t hist, const struct ember_hist_sample *sm,
			 const uint32_t *ids, uint32_t n, uint64_t h, uint32_t *idx);
/* The raw stacks seen so far, mapped to stack indices (see rawstacks.h); NULL on ENOMEM. */
struct hist_raw *hist_stacks__raw(struct hist_stacks *s);
/* Adds one more sample of stack idx (from hist_stacks__add_ids()). */
void hist_stacks__add_to(struct hist_stacks *s, uint32_t idx, uint64_t period, uint64_t count);

/* Calls fn on each distinct frame, to complete it in place (symbols resolved late). */
void hist_stacks__update_frames(struct hist_stacks *s,
				void (*fn)(struct ember_hist_frame *f, void *ctx), void *ctx);

typedef int (*hist_stacks_fn)(uint32_t hist, const struct ember_hist_sample *sm, void *ctx);
/* Calls fn once per distinct stack, in first-seen order; stops at a non-zero return. */
int hist_stacks__replay(struct hist_stacks *s, hist_stacks_fn fn, void *ctx);

#endif
