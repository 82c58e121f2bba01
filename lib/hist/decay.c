// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Histograms that live on (perf top): between two refreshes the periods
 * seen so far fade by perf's 7/8 and the entries that fade to nothing go,
 * or all go at once (perf top -z); their memory, callchain trees
 * included, serves the entries that come next.
 */
#include <errno.h>
#include <stdlib.h>
#include "hist/callchain.h"
#include "hist/hist-priv.h"

/* perf's he_stat__decay(): the period and the count, nothing else. */
static void stat_decay(struct ember_hist_stat *st)
{
	st->period = st->period * 7 / 8;
	st->nr_events = st->nr_events * 7 / 8;
}

/* perf's decay_callchain_node(), over the whole tree. */
static void chain_decay(struct chain_node *n)
{
	n->pub.hit = n->pub.hit * 7 / 8;
	n->pub.children_hit = n->pub.children_hit * 7 / 8;
	n->pub.count = n->pub.count * 7 / 8;
	n->pub.children_count = n->pub.children_count * 7 / 8;
	for (struct rb_node *rb = rb_first(&n->kids); rb; rb = rb_next(rb))
		chain_decay((struct chain_node *)rb);
}

static bool same_entry(const struct hashtab_slot *slot, const void *key)
{
	return slot->val == (uintptr_t)key;
}

/* Takes e out of the table; its memory goes to the free list. */
static void remove_entry(struct ember_hist *h, struct hist_entry *e)
{
	struct hashtab_slot *s = hashtab__find(&h->entries, hist__key_hash(h, &e->pub),
					       same_entry, e);

	if (s)
		hashtab__remove(&h->entries, s);
	if (e->chain)
		hist_chains__free_tree(h->chains, e->chain);
	e->chain = NULL;
	e->next_free = h->free_entries;
	h->free_entries = e;
}

/* A user-space entry in perf's sense: its level is '.'. */
static bool zapped(const struct hist_entry *e, bool zap_user, bool zap_kernel)
{
	return (zap_user && e->pub.level == '.') || (zap_kernel && e->pub.level != '.');
}

int ember_hist__decay(struct ember_hist *h, bool zap_user, bool zap_kernel)
{
	struct hashtab_slot *s;
	struct hist_entry **gone;
	size_t nr_gone = 0;

	gone = malloc((h->entries.nr ? h->entries.nr : 1) * sizeof(*gone));
	if (!gone)
		return -ENOMEM;
	hashtab__for_each(&h->entries, s) {
		struct hist_entry *e = (struct hist_entry *)(uintptr_t)s->val;

		/* perf: an entry already at 0 goes without being decayed */
		if (zapped(e, zap_user, zap_kernel) || !e->pub.self.period) {
			gone[nr_gone++] = e;
			continue;
		}
		stat_decay(&e->pub.self);
		if (h->opts.children)
			stat_decay(&e->pub.acc);
		if (e->chain)
			chain_decay(e->chain);
		if (!e->pub.self.period)
			gone[nr_gone++] = e;
	}
	for (size_t i = 0; i < nr_gone; i++)
		remove_entry(h, gone[i]);
	free(gone);
	/* the sorted view held the removed entries: nothing until the next resort */
	h->nr_sorted = 0;
	return 0;
}

void ember_hist__clear(struct ember_hist *h)
{
	struct hashtab_slot *s;

	hashtab__for_each(&h->entries, s) {
		struct hist_entry *e = (struct hist_entry *)(uintptr_t)s->val;

		if (e->chain)
			hist_chains__free_tree(h->chains, e->chain);
		e->chain = NULL;
		e->next_free = h->free_entries;
		h->free_entries = e;
	}
	hashtab__clear(&h->entries);
	h->nr_sorted = 0;
}
