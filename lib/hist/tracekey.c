// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The text of tracepoint samples for perf report's trace key. Every
 * sample is printed (its fields differ from sample to sample), but a
 * recording repeats few texts: each distinct one is kept once, so that
 * entries compare by pointer and a million samples do not make a
 * million strings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/arena.h"
#include "core/hash.h"
#include "core/hashtab.h"
#include "hist/tracekey.h"

struct hist_traces {
	struct arena pool;	/* the texts */
	struct hashtab texts;	/* a text in pool by hash_bytes() */
	char *buf;
	size_t bufsz;
};

struct hist_traces *hist_traces__new(void)
{
	struct hist_traces *tr = calloc(1, sizeof(*tr));

	if (!tr)
		return NULL;
	tr->bufsz = 4096;
	tr->buf = malloc(tr->bufsz);
	if (hashtab__reserve(&tr->texts, 128) || !tr->buf) {
		hist_traces__delete(tr);
		return NULL;
	}
	return tr;
}

void hist_traces__delete(struct hist_traces *tr)
{
	if (!tr)
		return;
	arena__exit(&tr->pool);
	hashtab__exit(&tr->texts);
	free(tr->buf);
	free(tr);
}

static inline bool text_eq(const struct hashtab_slot *slot, const void *key)
{
	return !strcmp((const char *)(uintptr_t)slot->val, key);
}

const char *hist_traces__get(struct hist_traces *tr, struct ember_trace *t, int cpu,
			     const void *raw, size_t raw_size)
{
	int n = t ? ember_trace__snprintf(t, cpu, raw, raw_size, tr->buf, tr->bufsz) : -ENOENT;
	struct hashtab_slot *slot;
	const char *s;
	uint64_t h;

	if (n >= (int)tr->bufsz) {
		char *b = realloc(tr->buf, n + 1);

		if (!b)
			return NULL;
		tr->buf = b;
		tr->bufsz = n + 1;
		n = ember_trace__snprintf(t, cpu, raw, raw_size, tr->buf, tr->bufsz);
	}
	if (n == -ENOMEM)
		return NULL;
	if (n < 0)
		n = 0;
	tr->buf[n] = '\0';
	h = hash_bytes(tr->buf, n);
	if (hashtab__reserve(&tr->texts, 1))
		return NULL;
	slot = hashtab__slot(&tr->texts, h, text_eq, tr->buf);
	if (slot->val)
		return (const char *)(uintptr_t)slot->val;
	s = arena__strndup(&tr->pool, tr->buf, n);
	if (s)
		hashtab__fill(&tr->texts, slot, h, (uintptr_t)s);
	return s;
}
