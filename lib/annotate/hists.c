// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Per-symbol address histograms, as perf annotate keeps one per symbol
 * (perf's sym_hist): for each event, the samples and the period at each
 * offset into the symbol. A profile hits a few hundred offsets of a few
 * hundred symbols, so both are found through the one hash table: symbols
 * by (dso, symbol), offsets by (offset, event) in the symbol's own table.
 */
#include <errno.h>
#include <stdlib.h>
#include <ember/annotate.h>
#include "core/hash.h"
#include "core/hashtab.h"

struct addr_count {
	uint64_t nr;
	uint64_t period;
};

struct ember_annotate_hist {
	const struct ember_dso *dso;
	const struct ember_symbol *sym;
	struct hashtab offsets;		/* (offset, event) -> addr_count in the payload */
	uint32_t nr_events;
	struct addr_count total[];	/* per event */
};

struct ember_annotate_hists {
	uint32_t nr_events;
	struct hashtab syms;		/* val: struct ember_annotate_hist * */
};

struct ember_annotate_hists *ember_annotate_hists__new(uint32_t nr_events)
{
	struct ember_annotate_hists *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->nr_events = nr_events ? nr_events : 1;
	return h;
}

void ember_annotate_hists__delete(struct ember_annotate_hists *h)
{
	struct hashtab_slot *s;

	if (!h)
		return;
	if (h->syms.slots) {
		for (size_t i = 0; i <= h->syms.mask; i++) {
			s = hashtab__at(&h->syms, i);
			if (s->val) {
				struct ember_annotate_hist *hist = (void *)(uintptr_t)s->val;

				hashtab__exit(&hist->offsets);
				free(hist);
			}
		}
	}
	hashtab__exit(&h->syms);
	free(h);
}

static uint64_t sym_hash(const struct ember_dso *dso, const struct ember_symbol *sym)
{
	uint64_t w[2] = { (uintptr_t)dso, (uintptr_t)sym };

	return hash_words(w, 2);
}

struct sym_key {
	const struct ember_dso *dso;
	const struct ember_symbol *sym;
};

static inline bool sym_eq(const struct hashtab_slot *s, const void *key)
{
	const struct ember_annotate_hist *hist = (const void *)(uintptr_t)s->val;
	const struct sym_key *k = key;

	return hist->dso == k->dso && hist->sym == k->sym;
}

const struct ember_annotate_hist *ember_annotate_hists__find(const struct ember_annotate_hists *h,
							     const struct ember_dso *dso,
							     const struct ember_symbol *sym)
{
	struct sym_key k = { dso, sym };

	return (const void *)(uintptr_t)hashtab__get(&h->syms, sym_hash(dso, sym), sym_eq, &k);
}

/* The key of (offset, event): a bijection, so the table needs no equality. */
static uint64_t offset_key(const struct ember_annotate_hist *hist, uint64_t offset, uint32_t event)
{
	return hash_mix64(offset * hist->nr_events + event);
}

int ember_annotate_hists__add(struct ember_annotate_hists *h, const struct ember_addr_location *al,
			      uint32_t event, uint64_t period)
{
	struct sym_key k = { al->dso, al->sym };
	struct ember_annotate_hist *hist;
	struct hashtab_slot *s;
	struct addr_count *c;
	uint64_t hash, offset;

	if (event >= h->nr_events)
		return -EINVAL;
	if (!al->sym || !al->dso)
		return 0;
	hash = sym_hash(al->dso, al->sym);
	if (hashtab__reserve(&h->syms, 1))
		return -ENOMEM;
	s = hashtab__slot(&h->syms, hash, sym_eq, &k);
	if (s->val) {
		hist = (void *)(uintptr_t)s->val;
	} else {
		hist = calloc(1, sizeof(*hist) + h->nr_events * sizeof(hist->total[0]));
		if (!hist)
			return -ENOMEM;
		hist->dso = al->dso;
		hist->sym = al->sym;
		hist->nr_events = h->nr_events;
		hist->offsets.stride = sizeof(struct hashtab_slot) + sizeof(struct addr_count);
		hashtab__fill(&h->syms, s, hash, (uintptr_t)hist);
	}
	offset = al->addr - ember_symbol__start(al->sym);
	if (hashtab__reserve(&hist->offsets, 1))
		return -ENOMEM;
	hash = offset_key(hist, offset, event);
	s = hashtab__slot(&hist->offsets, hash, hashtab__eq_hash, NULL);
	c = hashtab__payload(s);
	if (!s->val) {
		hashtab__fill(&hist->offsets, s, hash, 1);
		c->nr = 0;
		c->period = 0;
	}
	c->nr++;
	c->period += period;
	hist->total[event].nr++;
	hist->total[event].period += period;
	return 0;
}

uint64_t ember_annotate_hist__nr_samples(const struct ember_annotate_hist *hist, uint32_t event)
{
	return hist && event < hist->nr_events ? hist->total[event].nr : 0;
}

uint64_t ember_annotate_hist__period(const struct ember_annotate_hist *hist, uint32_t event)
{
	return hist && event < hist->nr_events ? hist->total[event].period : 0;
}

void ember_annotate_hist__range(const struct ember_annotate_hist *hist, uint32_t event,
				uint64_t from, uint64_t to, uint64_t *nr, uint64_t *period)
{
	const struct hashtab_slot *s;
	const struct addr_count *c;

	if (!hist || event >= hist->nr_events || !hist->offsets.slots)
		return;
	/* an instruction is a few bytes: look each one up */
	for (uint64_t off = from; off < to; off++) {
		s = hashtab__find(&hist->offsets, offset_key(hist, off, event), hashtab__eq_hash, NULL);
		if (!s)
			continue;
		c = hashtab__payload(s);
		*nr += c->nr;
		*period += c->period;
	}
}
