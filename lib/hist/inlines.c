// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Unwound frames expanded to their inline levels, cached per frame (see inlines.h). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/hist.h>
#include "core/hash.h"
#include "core/hashtab.h"
#include "hist/inlines.h"
#include "machine/machine.h"

/* No address of perf's has so many (addr2line's whole chain is taken). */
#define MAX_LEVELS 32

struct inline_span {
	uint32_t first, nr;	/* in ids */
};

struct hist_inlines {
	struct hashtab by_base;		/* hash_mix64(base) → index + 1 in spans */
	struct inline_span *spans;
	size_t nr_spans, spans_alloc;
	uint32_t *ids;
	size_t nr_ids, ids_alloc;
	char *name;			/* scratch: "NAME (inlined)" */
	size_t name_alloc;
};

struct hist_inlines *hist_inlines__new(void)
{
	return calloc(1, sizeof(struct hist_inlines));
}

void hist_inlines__delete(struct hist_inlines *c)
{
	if (!c)
		return;
	hashtab__exit(&c->by_base);
	free(c->spans);
	free(c->ids);
	free(c->name);
	free(c);
}

/* perf's name for a made-up inline symbol, interned by the machine; NULL on ENOMEM. */
static const char *inlined_name(struct hist_inlines *c, struct ember_session *s, const char *name)
{
	size_t need = strlen(name) + sizeof(" (inlined)");

	if (need > c->name_alloc) {
		char *n = realloc(c->name, need);

		if (!n)
			return NULL;
		c->name = n;
		c->name_alloc = need;
	}
	snprintf(c->name, need, "%s (inlined)", name);
	return machine__intern(ember_session__machine(s), c->name);
}

/* The levels of the frame resolved anew, their indices appended to c->ids; count or -ENOMEM. */
static int expand(struct hist_inlines *c, struct ember_session *s, struct hist_stacks *st,
		  struct ember_thread *thread, uint64_t ip)
{
	struct ember_addr_location al, lv[MAX_LEVELS];
	struct ember_hist_frame fr;
	int n;

	ember_thread__resolve(thread, PERF_RECORD_MISC_USER, ip, &al);
	al.inlined = false;
	n = ember_session__inline_frames(s, &al, lv, MAX_LEVELS);
	if (n <= 0)
		return n;
	if (c->nr_ids + n > c->ids_alloc) {
		size_t a = 2 * (c->nr_ids + n);
		uint32_t *v = realloc(c->ids, a * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->ids = v;
		c->ids_alloc = a;
	}
	for (int i = 0; i < n; i++) {
		int64_t id;

		ember_hist_frame__from_al(&fr, &lv[i]);
		if (lv[i].inlined) {
			/* a symbol of its own for the sort keys, named as perf prints it */
			fr.sym_name = inlined_name(c, s, lv[i].sym_name);
			if (!fr.sym_name)
				return -ENOMEM;
			fr.sym = fr.sym_name;
			fr.inlined = 1;
		}
		id = hist_stacks__frame(st, &fr);
		if (id < 0)
			return (int)id;
		c->ids[c->nr_ids + i] = (uint32_t)id;
	}
	return n;
}

int hist_inlines__frames(struct hist_inlines *c, struct ember_session *s, struct hist_stacks *st,
			 uint32_t base, struct ember_thread *thread, uint64_t ip,
			 const uint32_t **ids)
{
	uint64_t h = hash_mix64(base);
	uint64_t val = c->by_base.mask ? hashtab__get(&c->by_base, h, hashtab__eq_hash, NULL) : 0;
	struct hashtab_slot *slot;
	struct inline_span *sp;
	int n;

	if (!val) {
		if (c->nr_spans == c->spans_alloc) {
			size_t a = c->spans_alloc ? 2 * c->spans_alloc : 64;
			struct inline_span *v = realloc(c->spans, a * sizeof(*v));

			if (!v)
				return -ENOMEM;
			c->spans = v;
			c->spans_alloc = a;
		}
		n = expand(c, s, st, thread, ip);
		if (n < 0)
			return n;
		if (hashtab__reserve(&c->by_base, 1))
			return -ENOMEM;
		c->spans[c->nr_spans] = (struct inline_span){ (uint32_t)c->nr_ids, (uint32_t)n };
		c->nr_ids += n;
		slot = hashtab__slot(&c->by_base, h, hashtab__eq_hash, NULL);
		hashtab__fill(&c->by_base, slot, h, ++c->nr_spans);
		val = c->nr_spans;
	}
	sp = &c->spans[val - 1];
	*ids = c->ids + sp->first;
	return (int)sp->nr;
}
